"""Ctrl-C under a real terminal (a pty): the first press stops handing out students and
ends the run within 5 s with exit 130, saying how many submissions are recorded and that a
re-run finishes; a second press ends it at once; SIGTERM behaves like the first press. A
re-run then gives exactly the gradebook of an uninterrupted run: nothing lost or doubled."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.batch_support import canonical, grader, grading_keys
from tests.e2e.pty_support import Terminal, start, until
from tests.support.classroom import make_class

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_grade_interrupt")]

PROFILES = ["reference"] * 3 + ["hang_waiting", "prose_en", "partial"]
TOTAL = len(PROFILES) * 6
GRADE = ["grade", "submissions", "--jobs", "2", "--lang", "en"]


def _rows(database: Path) -> int:
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM current_results").fetchone()[0])
    except sqlite3.Error:
        return 0


def _midway(work: Path, database: Path) -> Terminal:
    terminal = start([*GRADE, "--db", f"sqlite:///{database}"], work)
    assert until(lambda: _rows(database) >= 6, terminal, 300), terminal.text[-2000:]
    return terminal


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("interrupt")
    make_class(root / "submissions", root / "unused.db", PROFILES)
    whole = grader(*GRADE, "--db", f"sqlite:///{root / 'whole.db'}", "--json", cwd=root)
    assert whole.code == 0 and whole.json()["graded"] == TOTAL, whole.stderr
    return root


def _resumed_equals_whole(work: Path, database: Path) -> None:
    again = grader(*GRADE, "--db", f"sqlite:///{database}", "--json", cwd=work)
    assert again.code == 0, again.stderr
    url = f"sqlite:///{database}"
    assert canonical(url) == canonical(f"sqlite:///{work / 'whole.db'}")
    keys = grading_keys(url)
    assert len(keys) == len(set(keys)) == TOTAL  # nothing doubled, nothing missing


def _ended_by(terminal: Terminal, signal_it: Callable[[], None]) -> tuple[int | None, float]:
    """Signal (the last press counts) and wait: the exit code and the seconds it took."""
    sent = time.monotonic()
    signal_it()
    code = terminal.wait(10)
    took = time.monotonic() - sent
    if code is None:
        terminal.kill()
    return code, took


def test_one_ctrl_c_ends_within_5_s_with_130_and_a_rerun_completes(work: Path) -> None:
    database = work / "once.db"
    terminal = _midway(work, database)
    code, took = _ended_by(terminal, terminal.press_ctrl_c)
    assert code == 130, terminal.text[-2000:]
    assert took < 5.0, took
    assert "Stopping: no further student is handed out" in terminal.text
    recorded = _rows(database)
    assert f"{recorded} of {TOTAL} submissions are recorded" in terminal.text
    assert f"grade the remaining {TOTAL - recorded}" in terminal.text
    assert recorded < TOTAL
    _resumed_equals_whole(work, database)


def test_two_ctrl_c_end_it_at_once(work: Path) -> None:
    database = work / "twice.db"
    terminal = _midway(work, database)
    terminal.press_ctrl_c()
    time.sleep(0.2)
    code, took = _ended_by(terminal, terminal.press_ctrl_c)
    assert code == 130, terminal.text[-2000:]
    assert took < 1.5, took
    assert "Stopped at once (second interrupt)" in terminal.text
    _resumed_equals_whole(work, database)


def test_sigterm_is_the_first_ctrl_c(work: Path) -> None:
    database = work / "term.db"
    terminal = _midway(work, database)
    code, took = _ended_by(terminal, lambda: os.kill(terminal.pid, signal.SIGTERM))
    assert (code, took < 5.0) == (130, True), (took, terminal.text[-2000:])
    assert "submissions are recorded" in terminal.text
    _resumed_equals_whole(work, database)
