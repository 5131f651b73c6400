"""Lessons 11a and 12 as Windows and macOS run them: one line per live cell, no traceback.

``TICKETFLOW_LESSON_PLATFORM`` (read by ``ticketflow_lab.platforms`` only) makes the kernel
take this machine for another platform. Every cell that would fork or signal a pool process
prints the one line of ``live_gap``; the reading cells below it read the run recorded on
Linux (``lessons/captures/runs/``, labelled with its date) and print the same conclusions
the lesson prints live; no cell raises or writes to stderr.
"""

from __future__ import annotations

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute, stream_text
from tests.notebooks.rerun import normalise
from tests.notebooks.test_lessons_execute import FILES
from ticketflow_lab.platforms import PLATFORM_ENV, live_gap

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

#: lesson -> reading cells whose conclusions must equal the live run's expected output
READERS = {
    "11a-late-ack-and-prefetch": ("prefetch-inspect", "prefetch-chart"),
    "12-worker-loss-retry-and-time-limits": ("worker-loss-summary", "timeline-chart"),
}


@pytest.mark.parametrize("stem", sorted(READERS))
def test_a_lesson_on_windows_shows_recorded_runs_without_a_traceback(
    stem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PLATFORM_ENV, "win32")  # the kernel inherits it
    notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    execute(notebook, cwd=LESSONS_DIR)
    gap = live_gap("win32")
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        assert not [o for o in cell.outputs if o["output_type"] == "error"], index
        assert not stream_text(cell, "stderr"), (index, stream_text(cell, "stderr"))
    for cell in cells_tagged(notebook, "experiment"):
        if "fork" in cell.source or "prefork" in cell.source:
            assert stream_text(cell).splitlines()[0] == gap
    for cell in cells_tagged(notebook, "redelivery-loop"):  # self-contained: its recorded output
        first, *recorded = stream_text(cell).splitlines()
        assert first == gap and "  重投循环被守卫终止：True" in recorded
    for tag in READERS[stem]:
        (cell,) = cells_tagged(notebook, tag)
        which, *rest = stream_text(cell).splitlines()
        assert "Windows 上不现场运行：读取的是" in which and "在 Linux 上记录的运行" in which
        expected = (FILES / stem / "exact" / f"{tag}.txt").read_text(encoding="utf-8")
        assert normalise("\n".join(rest)) == normalise("\n".join(expected.splitlines()[1:]))
