"""The one platform check every lesson uses, tested by faking the platform."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import pytest

from ticketflow_lab.live_services import skip_reason
from ticketflow_lab.notebook import require_platform
from ticketflow_lab.platforms import (
    PLATFORM_ENV,
    CapturedRun,
    captured_output,
    live_gap,
    pool_advice,
)


def test_linux_runs_the_live_cells() -> None:
    assert live_gap("linux") is None


@pytest.mark.parametrize(("platform", "name"), [("win32", "Windows"), ("darwin", "macOS")])
def test_elsewhere_a_live_cell_says_so_in_one_line(platform: str, name: str) -> None:
    line = live_gap(platform)
    assert line is not None and "\n" not in line
    assert line.startswith("跳过：") and "Linux" in line and name in line
    assert "记录的运行" in line
    assert "记录" not in (live_gap(platform, capture=False) or "")
    assert "RabbitMQ" in (live_gap(platform, services=("RabbitMQ",)) or "")


def test_windows_is_told_to_use_solo_or_threads() -> None:
    assert "--pool solo" in pool_advice("win32") and "--pool threads" in pool_advice("win32")
    assert "prefork" in pool_advice("linux")


def test_a_faked_platform_reaches_every_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PLATFORM_ENV, "win32")
    assert live_gap() is not None
    reason = skip_reason("RabbitMQ")
    assert reason is not None and reason.startswith("跳过：") and "Windows" in reason
    described = require_platform()  # never raises for the platform
    assert "--pool solo" in described and "不会报错" in described


def test_a_captured_run_reads_back_with_its_date_and_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PLATFORM_ENV, "darwin")
    folder = tmp_path / "lesson-x"
    folder.mkdir()
    (folder / "run.json").write_text(
        '{"date": "2026-12-02 08:30 UTC", "celery": "5.7.0", "main_pid": 1, '
        '"sent": [{"kind": "SIGKILL", "pid": 7, "by": 1}]}',
        encoding="utf-8",
    )
    (folder / "journal.jsonl").write_text(
        '{"kind": "attempt", "pid": 1}\n{"kind": "started", "pid": 7}\n', encoding="utf-8"
    )
    (folder / "live.sql").write_text(
        "CREATE TABLE t (x INTEGER);\nINSERT INTO t VALUES (42);\n", encoding="utf-8"
    )
    run = CapturedRun.of("lesson-x", root=tmp_path)
    assert run is not None
    assert "2026-12-02 08:30 UTC" in run.which and "macOS" in run.which
    assert [e["pid"] for e in run.entries()] == [os.getpid(), 7]  # the main pid is the kernel's
    assert run.sent[0]["by"] == os.getpid()
    with contextlib.closing(sqlite3.connect(run.folder / "live.db")) as database:
        assert database.execute("SELECT x FROM t").fetchall() == [(42,)]
    assert CapturedRun.of("missing", root=tmp_path) is None
    assert captured_output("missing", root=tmp_path).startswith("capture missing")
