"""Lesson 12's capture cell: real RabbitMQ captures under a clear label, or a note.

The cell is plain Python, so it is run here in a subprocess of this interpreter, in a
temporary working directory that does or does not contain ``captures/``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged

pytestmark = pytest.mark.notebooks

WORKER_LOSS = Path("captures") / "worker-loss-rabbitmq.txt"
TIME_LIMITS = Path("captures") / "time-limits-rabbitmq.txt"
COURSE_LIMITS = Path("captures") / "time-limits-course-limits-rabbitmq.txt"


def run_capture_cell(cwd: Path, captures: dict[Path, str]) -> subprocess.CompletedProcess[str]:
    for path, text in captures.items():
        (cwd / path).parent.mkdir(exist_ok=True)
        (cwd / path).write_text(text, encoding="utf-8")
    notebook = nbformat.read(LESSONS_DIR / "12-worker-loss-retry-and-time-limits.ipynb", 4)
    (cell,) = cells_tagged(notebook, "rabbitmq-capture")
    return subprocess.run(
        [sys.executable, "-c", cell.source],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_missing_captures_are_clear_notes_not_errors(tmp_path: Path) -> None:
    done = run_capture_cell(tmp_path, {})
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stdout.splitlines() if line.startswith("capture missing: ")]
    assert notes == [
        f"capture missing: {WORKER_LOSS} does not exist yet, so there is nothing to show.",
        f"capture missing: {TIME_LIMITS} does not exist yet, so there is nothing to show.",
        f"capture missing: {COURSE_LIMITS} does not exist yet, so there is nothing to show.",
    ]
    assert "captured from" not in done.stdout


def test_a_capture_is_printed_verbatim_under_its_label_and_date(tmp_path: Path) -> None:
    text = (
        "# CAPTURED OUTPUT: `python -m ticketflow_lab worker-loss` on 2026-05-04 10:11 UTC\n"
        "+  7.04s  target-pool    4    True         0        21287  dispatched\n"
    )
    done = run_capture_cell(tmp_path, {WORKER_LOSS: text})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == (
        "=== worker-loss-rabbitmq.txt: captured from a real RabbitMQ run on 2026-05-04, "
        "not executed now ==="
    )
    assert "\n" + text.rstrip() + "\n=== end of worker-loss-rabbitmq.txt ===\n" in done.stdout
    assert f"capture missing: {TIME_LIMITS}" in done.stdout


def test_a_capture_without_a_date_does_not_get_one_invented(tmp_path: Path) -> None:
    done = run_capture_cell(
        tmp_path, {WORKER_LOSS: "redelivered=True\n", TIME_LIMITS: "x\n", COURSE_LIMITS: "y\n"}
    )
    assert done.returncode == 0, done.stderr
    labels = [line for line in done.stdout.splitlines() if "captured from" in line]
    assert labels == [
        f"=== {name}: captured from a real RabbitMQ run on an unrecorded date, not executed now ==="
        for name in (WORKER_LOSS.name, TIME_LIMITS.name, COURSE_LIMITS.name)
    ]
    assert "capture missing" not in done.stdout
