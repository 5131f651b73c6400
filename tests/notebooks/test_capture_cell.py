"""Lesson 12's capture cell: a real RabbitMQ capture under a clear label, or a note.

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

CAPTURE = Path("captures") / "worker-loss-rabbitmq.txt"


def run_capture_cell(cwd: Path) -> subprocess.CompletedProcess[str]:
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


def test_missing_capture_is_a_clear_note_not_an_error(tmp_path: Path) -> None:
    done = run_capture_cell(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("capture missing: captures/worker-loss-rabbitmq.txt")
    assert "captured from" not in done.stdout


def test_capture_is_printed_verbatim_under_its_label_and_date(tmp_path: Path) -> None:
    text = (
        "# python -m ticketflow.demo worker-loss, 2026-05-04T10:11:12Z\n"
        "pid=4242 started event_id=evt-1 retries=0 redelivered=False\n"
        "pid=4250 started event_id=evt-1 retries=0 redelivered=True\n"
    )
    (tmp_path / CAPTURE).parent.mkdir()
    (tmp_path / CAPTURE).write_text(text, encoding="utf-8")
    done = run_capture_cell(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "=== captured from a real RabbitMQ run on 2026-05-04, not executed now ==="
    assert text.rstrip() in done.stdout
    assert lines[-1] == "=== end of capture ==="


def test_capture_without_a_date_does_not_invent_one(tmp_path: Path) -> None:
    (tmp_path / CAPTURE).parent.mkdir()
    (tmp_path / CAPTURE).write_text("redelivered=True\n", encoding="utf-8")
    done = run_capture_cell(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == (
        "=== captured from a real RabbitMQ run on an unrecorded date, not executed now ==="
    )
