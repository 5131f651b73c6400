"""Every lesson runs top to bottom on a real kernel and prints what the course promises.

Expected outputs live in ``files/<notebook>/``: ``exact/<tag>.txt`` is the whole stdout of
the code cell tagged ``<tag>``; ``lines/<tag>.txt`` lists lines that cell must print. Both
sides are compared after ``rerun.normalise`` (timings, pids, ids, clock times, run numbers).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.notebooks.conftest import lesson_group
from tests.notebooks.kernel import cells_tagged, stream_text
from tests.notebooks.rerun import normalise
from tests.notebooks.test_committed_notebooks import LESSON_STEMS

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

FILES = Path(__file__).parent / "files"


def expected_outputs(kind: str) -> list[Any]:
    return [
        pytest.param(stem, path, id=f"{stem}:{path.stem}")
        for stem in LESSON_STEMS
        for path in sorted((FILES / stem / kind).glob("*.txt"))
    ]


def tagged_stdout(notebook: Any, tag: str) -> str:
    cells = cells_tagged(notebook, tag)
    assert len(cells) == 1, f"expected exactly one cell tagged {tag!r}, found {len(cells)}"
    return stream_text(cells[0])


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_runs_without_errors_or_stderr(stem: str, executed_lesson: Callable[[str], Any]) -> None:
    notebook = executed_lesson(stem)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        kinds = {output["output_type"] for output in cell.outputs}
        assert "error" not in kinds, f"cell {index} raised"
        stderr = stream_text(cell, "stderr")
        assert not stderr, f"cell {index} wrote to stderr:\n{stderr}"


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_every_lesson_has_checked_outputs(stem: str) -> None:
    assert list((FILES / stem / "exact").glob("*.txt"))


@pytest.mark.parametrize(("stem", "expected_file"), expected_outputs("exact"))
def test_tagged_cell_prints_exactly(
    stem: str, expected_file: Path, executed_lesson: Callable[[str], Any]
) -> None:
    printed = normalise(tagged_stdout(executed_lesson(stem), expected_file.stem))
    assert printed == normalise(expected_file.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("stem", "expected_file"), expected_outputs("lines"))
def test_tagged_cell_prints_these_lines(
    stem: str, expected_file: Path, executed_lesson: Callable[[str], Any]
) -> None:
    printed = normalise(tagged_stdout(executed_lesson(stem), expected_file.stem)).splitlines()
    missing = [
        line
        for line in normalise(expected_file.read_text(encoding="utf-8")).splitlines()
        if line not in printed
    ]
    assert not missing, "\n".join(["missing lines:", *missing, "printed:", *printed])


LESSON_12 = "12-worker-loss-retry-and-time-limits"


@lesson_group(LESSON_12)  # with lesson 12's other readers: its one execution, not another
def test_lesson_12_dead_letter_table_shows_the_three_reasons(
    executed_lesson: Callable[[str], Any],
) -> None:
    stem = LESSON_12
    header, *rows = tagged_stdout(executed_lesson(stem), "dead-letter-table").splitlines()
    assert header.split()[:3] == ["reason", "event_id", "attempts"]
    shown = {row.split()[0] for row in rows}
    expected = set((FILES / stem / "dead-letter-reasons.txt").read_text().split())
    assert shown == expected
