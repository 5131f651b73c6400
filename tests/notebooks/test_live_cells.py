"""Live cells refuse clearly without their setup cell.

A "live" cell (tag ``live``) starts a real worker and provokes a failure. Executed in a
fresh kernel without its setup cell, it must stop with one sentence naming the cell to
run, not a ``NameError`` or a traceback. (Running every cell twice in a row, and the
temp folders left behind, are checked in ``test_rerun.py``.)
"""

from __future__ import annotations

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute
from tests.notebooks.rerun import refusal

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

LIVE_LESSONS = ["11a-late-ack-and-prefetch", "12-worker-loss-retry-and-time-limits"]


@pytest.mark.parametrize("stem", LIVE_LESSONS)
def test_a_live_cell_without_its_setup_cell_refuses_in_one_sentence(stem: str) -> None:
    notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    first_live = cells_tagged(notebook, "live")[0]
    notebook.cells = [first_live]
    execute(notebook, cwd=LESSONS_DIR, allow_errors=True)
    sentence = refusal(notebook.cells[0])
    assert sentence is not None, notebook.cells[0].outputs
    assert "请先运行" in sentence and "NameError" not in sentence
