"""ticketflow_lab.notebook: the platform check and one live run's folder and signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest

from ticketflow_lab.notebook import (
    LiveRun,
    NotRunYet,
    platform_problems,
    require,
    require_platform,
)


def test_this_machine_runs_the_live_sections() -> None:
    assert platform_problems() == []
    assert "fork + signals" in require_platform()


def test_a_platform_without_fork_is_named() -> None:
    problems = platform_problems(os_name="nt", has_fork=False)
    assert problems == ["POSIX 系统与 os.fork（prefork 池要 fork 出池进程）"]
    assert platform_problems(live_worker=False, os_name="nt", has_fork=False) == []


def test_an_older_celery_is_named_with_its_version() -> None:
    assert platform_problems(celery_version="5.6.3") == ["Celery ≥ 5.7（当前 5.6.3）"]
    assert platform_problems(celery_version="5.7.0") == []


def test_a_cell_without_its_setup_refuses_in_words() -> None:
    with pytest.raises(RuntimeError, match="请先运行上一个单元（缺少 live_app）"):
        require({"other": 1}, "live_app", cell="上一个单元")
    require({"live_app": 1}, "live_app", cell="上一个单元")


def test_a_new_run_removes_the_previous_runs_folder() -> None:
    first = LiveRun("unit-test")
    first.note("started", event_id="e1")
    assert first.entries()[0]["kind"] == "started"
    second = LiveRun("unit-test")
    assert not first.folder.exists()
    assert second.folder.is_dir() and second.entries() == []
    assert LiveRun.latest("unit-test", cell="x") is second
    second.remove()
    with pytest.raises(NotRunYet, match="请先运行上面的单元") as refused:
        LiveRun.latest("unit-test", cell="上面的单元")
    assert refused.value._render_traceback_() == [str(refused.value)]  # Jupyter: one sentence


def test_a_reading_cell_can_say_which_run_it_reads() -> None:
    first = LiveRun("unit-test-which")
    second = LiveRun("unit-test-which")
    try:
        assert second.number == first.number + 1
        which = LiveRun.latest("unit-test-which", cell="上面的实验单元").which
        assert which.startswith("（读取的是上面的实验单元在本 kernel 里最近一次的运行：")
        assert f"#{second.number}，" in which
    finally:
        second.remove()


def test_the_last_runs_folder_is_removed_when_the_interpreter_exits() -> None:
    script = "from ticketflow_lab.notebook import LiveRun\nprint(LiveRun('exit-test').folder)\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    folder = done.stdout.strip()
    assert folder and not os.path.exists(folder)


@dataclass
class FakePool:
    processes: list[int] = field(default_factory=list)

    @property
    def info(self) -> dict[str, Any]:
        return {"processes": self.processes}


@dataclass
class FakeWorker:
    pool: FakePool


def test_a_pid_that_is_not_this_runs_pool_process_is_never_signalled() -> None:
    run = LiveRun("unit-signal")
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        stale = FakeWorker(FakePool([child.pid + 100_000]))
        with pytest.raises(RuntimeError, match=f"拒绝发送 SIGKILL：pid {child.pid}"):
            run.signal(stale, child.pid, signal.SIGKILL)
        assert child.poll() is None  # still running: nothing was sent
        assert run.sent == []
        run.signal(FakeWorker(FakePool([child.pid])), child.pid, signal.SIGKILL, event_id="e1")
        assert child.wait(timeout=60) == -signal.SIGKILL
        assert [(s["kind"], s["pid"], s["event_id"]) for s in run.sent] == [
            ("SIGKILL", child.pid, "e1")
        ]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        run.remove()


def test_a_removed_runs_log_file_is_detached_so_the_next_worker_logs_in_its_own_folder() -> None:
    import logging

    first = LiveRun("unit-log")
    handler = logging.FileHandler(first.worker_log)
    logging.getLogger().addHandler(handler)
    try:
        LiveRun("unit-log").remove()  # a new run removes the first, then itself
        assert handler not in logging.getLogger().handlers
        assert not first.folder.exists()
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
