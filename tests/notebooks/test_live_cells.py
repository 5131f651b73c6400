"""Live cells: re-runnable, refusing clearly without their setup, leaving no temp folder.

A "live" cell (tag ``live``) starts a real worker and provokes a failure. Executing any of
them twice in a row must work and leave the tagged outputs as the files say; executing
one in a fresh kernel without its setup cell must stop with a sentence, not a NameError;
and after the kernel exits, no ``ticketflow-*`` folder is left in the temp directory.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute, stream_text
from tests.notebooks.test_lessons_execute import FILES

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

LIVE_LESSONS = ["11-late-ack-and-prefetch", "12-worker-loss-retry-and-time-limits"]


def leftovers() -> set[str]:
    return {path.name for path in Path(tempfile.gettempdir()).glob("ticketflow-lesson*")}


def with_live_cells_doubled(notebook: Any) -> Any:
    doubled = copy.deepcopy(notebook)
    cells = []
    for cell in doubled.cells:
        cells.append(cell)
        if "live" in cell.get("metadata", {}).get("tags", []):
            again = copy.deepcopy(cell)
            again.metadata["tags"] = ["live-again"]
            again.pop("id", None)
            cells.append(nbformat.from_dict({**again, "id": f"again-{len(cells)}"}))
    doubled.cells = cells
    return doubled


@pytest.mark.parametrize("stem", LIVE_LESSONS)
def test_every_live_cell_runs_twice_in_a_row_and_nothing_is_left_in_tmp(stem: str) -> None:
    before = leftovers()
    notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    live = len(cells_tagged(notebook, "live"))
    assert live >= 1
    doubled = with_live_cells_doubled(notebook)
    assert len(cells_tagged(doubled, "live-again")) == live
    execute(doubled, cwd=LESSONS_DIR)
    for index, cell in enumerate(doubled.cells):
        if cell.cell_type == "code":
            assert not any(o["output_type"] == "error" for o in cell.outputs), f"cell {index}"
            assert not stream_text(cell, "stderr"), f"cell {index}: {stream_text(cell, 'stderr')}"
    for expected in sorted((FILES / stem / "exact").glob("*.txt")):
        (cell,) = cells_tagged(doubled, expected.stem)
        assert stream_text(cell) == expected.read_text(encoding="utf-8"), expected.stem
    assert leftovers() <= before  # every run's folder was removed (re-run, then kernel exit)


@pytest.mark.parametrize("stem", LIVE_LESSONS)
def test_a_live_cell_without_its_setup_cell_refuses_in_words(stem: str) -> None:
    notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    first_live = cells_tagged(notebook, "live")[0]
    notebook.cells = [first_live]
    with pytest.raises(CellExecutionError) as raised:
        execute(notebook, cwd=LESSONS_DIR)
    assert "RuntimeError" in str(raised.value)
    assert "请先运行" in str(raised.value)
    assert "NameError" not in str(raised.value)
