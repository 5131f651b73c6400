"""What the lessons' live sections share: the platform check and one run of a live cell.

A live cell starts a real in-process worker, provokes a failure and observes it. Each
execution of such a cell is a ``LiveRun``:

* a fresh temporary folder (journal, worker log, database) — the previous run's folder
  of the same lesson is removed when a new run starts, and the last one when the kernel
  exits, so nothing piles up in ``/tmp``;
* the journal the pool processes append to (``note``), read back with ``entries``;
* ``signal``: the only way a lesson signals a process. It refuses any pid that is not a
  pool process of the worker started in this run, so re-running a cell can never signal
  a stale (possibly reused) pid from an earlier run;
* the worker's log file of a removed run is detached from ``logging`` (Celery would go on
  writing there), so the next run's worker logs into its own folder;
* ``require`` and ``latest``: a cell that depends on a setup cell, or a reading cell run
  before its experiment, says so in one sentence (``NotRunYet``: Jupyter shows its
  message and no traceback), instead of a ``NameError`` — or worse, a stale log;
* ``which``: the sentence a reading cell prints to say which run it reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal as signals
import sqlite3
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from ticketflow_lab.platforms import CapturedRun, current_platform, live_gap, pool_advice

#: The lessons' outputs were observed on Celery 5.7 (``task_acks_on_timeout`` is 5.7+).
MIN_CELERY = (5, 7)
NEEDED_SIGNALS = ("SIGKILL", "SIGSTOP", "SIGCONT")

Entry = dict[str, Any]


def platform_problems(
    *,
    live_worker: bool = True,
    os_name: str = os.name,
    has_fork: bool | None = None,
    celery_version: str | None = None,
) -> list[str]:
    """What this machine lacks (empty: nothing); ``live_worker``: fork and signals too."""
    import celery

    problems = []
    fork = hasattr(os, "fork") if has_fork is None else has_fork
    if live_worker and (os_name != "posix" or not fork):
        problems.append("POSIX 系统与 os.fork（prefork 池要 fork 出池进程）")
    missing = [name for name in NEEDED_SIGNALS if not hasattr(signals, name)]
    if live_worker and missing:
        problems.append("信号 " + ", ".join(missing))
    version = celery_version or celery.__version__
    if tuple(int(part) for part in version.split(".")[:2]) < MIN_CELERY:
        problems.append(f"Celery ≥ {'.'.join(map(str, MIN_CELERY))}（当前 {version}）")
    return problems


def require_platform(*, live_worker: bool = True) -> str:
    """Describe the platform; say in words (no traceback) what its live cells do here.

    Only a Celery older than the lessons' is an error: the outputs would differ. A platform
    without Linux's fork and signals is not: its live cells print one line and show the
    runs recorded on Linux (``platforms.live_gap``).
    """
    import celery
    import sqlalchemy

    problems = platform_problems(live_worker=False)
    if problems:
        raise RuntimeError("本课需要：" + "；".join(problems) + "。请先升级，再运行本课。")
    needs = "POSIX: fork + signals" if live_worker else "no fork or signals needed"
    described = (
        f"platform {sys.platform} ({needs}) | celery {celery.__version__} "
        f"| SQLAlchemy {sqlalchemy.__version__}"
    )
    if not live_worker:
        return described
    gap = live_gap(capture=False)
    if gap is None and not platform_problems(live_worker=True):
        return described + "\n" + pool_advice()
    return (
        f"platform {current_platform()} | celery {celery.__version__} | SQLAlchemy "
        f"{sqlalchemy.__version__}\n本课的现场单元要在 Linux 上运行：在这里它们各打印一行说明，"
        "然后显示在 Linux 上记录的运行，不会报错。\n" + pool_advice()
    )


class NotRunYet(RuntimeError):
    """A cell was run before the cell it depends on: shown as its one-sentence message.

    IPython displays ``_render_traceback_()`` instead of a traceback: the learner sees
    the sentence saying which cell to run, and the cell stops there.
    """

    def _render_traceback_(self) -> list[str]:
        return [str(self)]


def require(namespace: Mapping[str, Any], *names: str, cell: str) -> None:
    """Refuse, in words, to run a cell whose setup cell has not run in this kernel."""
    missing = [name for name in names if name not in namespace]
    if missing:
        raise NotRunYet(f"请先运行{cell}（缺少 {', '.join(missing)}），再运行这个单元。")


class LiveRun:
    """One execution of a live cell; see the module docstring."""

    _latest: ClassVar[dict[str, LiveRun]] = {}
    _count: ClassVar[dict[str, int]] = {}

    def __init__(self, lesson: str) -> None:
        previous = LiveRun._latest.pop(lesson, None)
        if previous is not None:
            previous.remove()
        _detach_finished_workers_queue_handlers()
        self.lesson = lesson
        self.folder = Path(tempfile.mkdtemp(prefix=f"ticketflow-{lesson}-"))
        self.journal = self.folder / "journal.jsonl"
        self.worker_log = self.folder / "worker.log"
        self.started = time.time()
        self.owner = os.getpid()
        self.number = LiveRun._count[lesson] = LiveRun._count.get(lesson, 0) + 1
        self.read_as = "实验单元"  # set by ``latest``: how the reading cell names it
        self.sent: list[Entry] = []  # the signals this run sent, as journal-like entries
        self._remove = weakref.finalize(self, _remove_if_owner, self.folder, self.owner)
        LiveRun._latest[lesson] = self

    @classmethod
    def latest(cls, lesson: str, *, cell: str) -> LiveRun | CapturedRun:
        """The last run of ``lesson`` in this kernel, or ``NotRunYet`` naming the cell.

        Where live cells do not run (``platforms.live_gap``) and this kernel has no run of
        its own, the run recorded on Linux.
        """
        run = cls._latest.get(lesson)
        if (run is None or not run.folder.is_dir()) and live_gap() is not None:
            captured = CapturedRun.of(lesson)
            if captured is not None:
                captured.read_as = cell
                return captured
        if run is None or not run.folder.is_dir():
            raise NotRunYet(f"还没有实验结果：请先运行{cell}，再运行这个单元。")
        run.read_as = cell
        return run

    @property
    def which(self) -> str:
        """The sentence a reading cell prints first: which run of which cell it reads."""
        clock = time.strftime("%H:%M:%S", time.localtime(self.started))
        return (
            f"（读取的是{self.read_as}在本 kernel 里最近一次的运行：#{self.number}，{clock} 开始）"
        )

    def note(self, kind: str, /, **fields: Any) -> None:
        """Append one journal line (called in the pool processes: one write per line)."""
        line = json.dumps({"kind": kind, "pid": os.getpid(), "t": time.time(), **fields})
        with self.journal.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")

    def entries(self) -> list[Entry]:
        if not self.journal.exists():
            return []
        lines = self.journal.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def log_text(self) -> str:
        return self.worker_log.read_text(encoding="utf-8") if self.worker_log.exists() else ""

    def wait_for(self, predicate: Callable[[Entry], bool], timeout: float = 30.0) -> Entry:
        """Poll the journal until an entry matches; fail loudly instead of guessing.

        The 30 s default is for a loaded machine: a step takes well under a second when quiet.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for entry in self.entries():
                if predicate(entry):
                    return entry
            time.sleep(0.02)
        raise TimeoutError(f"not observed within {timeout} s")

    def wait_for_log(self, text: str, timeout: float = 30.0, *, count: int = 1) -> None:
        """Poll the worker log until ``text`` occurs ``count`` times."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.log_text().count(text) >= count:
                return
            time.sleep(0.02)
        raise TimeoutError(f"{text!r} not {count} time(s) in the worker log within {timeout} s")

    def signal(self, worker: Any, pid: int, sig: signals.Signals, **fields: Any) -> None:
        """Send ``sig`` to ``pid`` only if it is a pool process of ``worker``, started now."""
        pool = pool_pids(worker)
        if pid not in pool:
            raise RuntimeError(
                f"拒绝发送 {sig.name}：pid {pid} 不是本次运行启动的池进程 {sorted(pool)}。"
            )
        os.kill(pid, sig)
        self.sent.append(
            {"kind": sig.name, "pid": pid, "t": time.time(), "by": os.getpid(), **fields}
        )

    def remove(self) -> None:
        self._remove()

    def save_to(self, root: Path) -> Path:
        """Keep this run as the capture ``CapturedRun`` reads (``python -m
        ticketflow_lab.capture_runs``): journal, worker log, databases, signals sent."""
        import celery

        folder = root / self.lesson
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for path in self.folder.iterdir():
            if path.name in ("journal.jsonl", "worker.log"):
                shutil.copy2(path, folder / path.name)
            elif path.suffix == ".db":  # kept as SQL text, restored by ``CapturedRun``
                with contextlib.closing(sqlite3.connect(path)) as database:
                    dump = "\n".join(database.iterdump())
                (folder / f"{path.stem}.sql").write_text(dump + "\n", encoding="utf-8")
        meta = {
            "lesson": self.lesson,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.started)),
            "celery": celery.__version__,
            "platform": sys.platform,
            "main_pid": self.owner,
            "sent": self.sent,
        }
        (folder / "run.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        return folder

    @classmethod
    def save_latest(cls, root: Path, lessons: Iterable[str]) -> list[Path]:
        """Save the latest run of each of ``lessons`` in this kernel (see ``save_to``)."""
        runs = [cls._latest.get(lesson) for lesson in lessons]
        return [run.save_to(root) for run in runs if run is not None and run.folder.is_dir()]


def pool_pids(worker: Any) -> set[int]:
    """The pids of the prefork pool processes of a running ``start_worker`` worker."""
    processes: Iterable[int] = worker.pool.info.get("processes", ())
    return {int(pid) for pid in processes}


def _remove_if_owner(folder: Path, owner: int) -> None:
    if os.getpid() == owner:  # never from a forked pool process
        _detach_log_files(folder)
        shutil.rmtree(folder, ignore_errors=True)


def _detach_finished_workers_queue_handlers() -> None:
    """Remove the root-logger handlers a finished ``start_worker`` (prefork) left behind.

    Celery's test worker forwards its pool processes' records through a ``QueueHandler``
    on the root logger and never removes it; while any handler is there, the next
    worker's log-file setup is skipped. A live run starts only when no worker runs.
    """
    import logging

    from celery.contrib.testing.worker import TestWorkController

    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, TestWorkController.QueueHandler):
            root.removeHandler(handler)


def _detach_log_files(folder: Path) -> None:
    """Close the logging handlers that write into ``folder`` (a worker's log file).

    Celery sets up the worker's log file once per process and keeps it while the root
    logger has handlers; the next run's worker would keep writing into this run's file,
    after it is gone. Without them, the next ``start_worker`` opens its own file.
    """
    import logging

    loggers = [logging.getLogger()]
    loggers += [
        item
        for item in logging.root.manager.loggerDict.values()
        if isinstance(item, logging.Logger)
    ]
    for logger in loggers:
        for handler in list(logger.handlers):
            filename = getattr(handler, "baseFilename", None)
            if filename and Path(filename).resolve().is_relative_to(folder.resolve()):
                logger.removeHandler(handler)
                handler.close()
