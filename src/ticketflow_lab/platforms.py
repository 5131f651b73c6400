"""Where a lesson's live cells run, and what they show elsewhere: one helper for every lesson.

The live sections fork prefork pool processes in the kernel and signal them (SIGKILL,
SIGSTOP), or start ``celery worker`` subprocesses and kill their process groups. That is
what the lessons were observed on: Linux. On Windows Celery's prefork pool does not run at
all, and on macOS forking a Jupyter kernel that has loaded system frameworks is unsafe.
There, a live cell prints one line (``live_gap``) and the lesson shows the run captured on
Linux instead (``CapturedRun``: the journal, worker log and database of a real run, with
its date), so Run All never stops at a traceback.

``TICKETFLOW_LESSON_PLATFORM`` overrides ``sys.platform`` here only: the tests use it to
run a lesson as Windows or macOS would.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import weakref
from pathlib import Path
from typing import Any

PLATFORM_ENV = "TICKETFLOW_LESSON_PLATFORM"
CAPTURED_RUNS = Path(__file__).resolve().parents[2] / "lessons" / "captures" / "runs"
NAMES = {"win32": "Windows", "cygwin": "Windows (Cygwin)", "darwin": "macOS"}


def current_platform() -> str:
    return os.environ.get(PLATFORM_ENV) or sys.platform


def system_name(platform: str) -> str:
    return NAMES.get(platform, platform)


def live_gap(
    platform: str | None = None, *, services: tuple[str, ...] = (), capture: bool = True
) -> str | None:
    """``None`` where live cells run (Linux); elsewhere the one line a live cell prints.

    ``services``: what the cell would also need (named in the line); ``capture``: whether
    the lesson shows a run recorded on Linux instead.
    """
    platform = platform or current_platform()
    if platform.startswith("linux"):
        return None
    needs = f"，还要 {'、'.join(services)}" if services else ""
    shown = "；下面显示的是在 Linux 上记录的运行。" if capture else "。"
    return (
        f"跳过：这个单元要在 Linux 上现场运行（它启动 prefork Worker 并向进程发信号{needs}），"
        f"当前是 {system_name(platform)}{shown}"
    )


def captured_output(name: str, root: Path = CAPTURED_RUNS) -> str:
    """The dated, recorded output of a self-contained live cell (``<name>.txt``)."""
    path = root / f"{name}.txt"
    if not path.is_file():
        return f"capture missing: {path.name} does not exist, so there is nothing to show."
    return path.read_text(encoding="utf-8").rstrip()


def pool_advice(platform: str | None = None) -> str:
    """The one line a lesson prints where it starts a worker: which pool runs here."""
    platform = platform or current_platform()
    if platform in ("win32", "cygwin"):
        return (
            "Windows 不支持 Celery 的 prefork 池：自己启动 Worker 时用 `--pool solo` 或 "
            "`--pool threads`（这两种池都不执行时间限制）。"
        )
    return (
        f"{system_name(platform)} 上可以用 prefork 池（Celery 的默认）；在 Windows 上要改用 "
        "`--pool solo` 或 `--pool threads`。"
    )


class CapturedRun:
    """A live run recorded on Linux (``LiveRun.save_to``), read as a reading cell reads one.

    It offers what the reading cells use: ``which``, ``entries``, ``log_text``, ``sent``
    and ``folder`` (the database of the run is a file in it). The lessons tell the worker's
    main process by ``os.getpid()`` (it was the kernel), so the recorded main pid is shown
    as this kernel's pid; every other pid is shown as recorded.
    """

    def __init__(self, folder: Path) -> None:
        self.recorded = folder
        self.meta: dict[str, Any] = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        # The run's databases are kept as SQL text: restored into a folder of this process's
        # own, so reading cells open them as they would a live run's, and nothing is written
        # into the course.
        self.folder = Path(tempfile.mkdtemp(prefix="ticketflow-captured-"))
        self._remove = weakref.finalize(self, shutil.rmtree, self.folder, ignore_errors=True)
        for dump in folder.glob("*.sql"):
            with contextlib.closing(sqlite3.connect(self.folder / f"{dump.stem}.db")) as database:
                database.executescript(dump.read_text(encoding="utf-8"))
        self.sent: list[dict[str, Any]] = [self._as_here(e) for e in self.meta.get("sent", [])]
        self.number = 0
        self.read_as = "实验单元"

    @classmethod
    def of(cls, lesson: str, root: Path = CAPTURED_RUNS) -> CapturedRun | None:
        folder = root / lesson
        return cls(folder) if (folder / "run.json").is_file() else None

    @property
    def which(self) -> str:
        return (
            f"（{system_name(current_platform())} 上不现场运行：读取的是 {self.meta['date']} "
            f"在 Linux 上记录的运行，Celery {self.meta['celery']}；本次没有执行）"
        )

    def entries(self) -> list[dict[str, Any]]:
        journal = self.recorded / "journal.jsonl"
        if not journal.exists():
            return []
        lines = journal.read_text(encoding="utf-8").splitlines()
        return [self._as_here(json.loads(line)) for line in lines if line.strip()]

    def _as_here(self, entry: dict[str, Any]) -> dict[str, Any]:
        main = self.meta.get("main_pid")
        return {
            key: os.getpid() if key in ("pid", "by") and value == main else value
            for key, value in entry.items()
        }

    def log_text(self) -> str:
        log = self.recorded / "worker.log"
        return log.read_text(encoding="utf-8") if log.exists() else ""
