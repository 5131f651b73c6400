"""Re-running a lesson prints the same conclusions (issue 22, "true on every re-run").

* Run All twice in one kernel, then each ``experiment`` cell alone followed by its
  ``reading`` cells: every copy prints what the first top-down run printed.
* Every code cell run twice in a row prints the same both times; a ``reading`` cell run
  before its experiment refuses in one sentence (no traceback, nothing else printed); no
  ``ticketflow-lesson*`` folder is left in the temp directory after the kernel exits.

Timings, pids, task ids, clock times and run numbers are normalised away (``rerun.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, execute, stream_text
from tests.notebooks.rerun import (
    Plan,
    each_cell_twice_readers_first,
    experiments,
    printed,
    refusal,
)
from tests.notebooks.test_committed_notebooks import LESSON_STEMS

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]


def differences(plan: Plan, role: str, reference: dict[int, str]) -> list[str]:
    found = []
    for index, cell in plan.cells(role):
        if printed(cell) != reference[index]:
            found.append(
                f"cell {index} ({role}) printed:\n{printed(cell)}\n"
                f"--- but its first run printed:\n{reference[index]}"
            )
    return found


def first_run(plan: Plan) -> dict[int, str]:
    return {index: printed(cell) for index, cell in plan.cells("first")}


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_every_lesson_says_which_cells_are_experiments_and_which_read_them(stem: str) -> None:
    notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    for experiment, readers in experiments(notebook).items():
        assert readers, f"experiment cell {experiment} has no reading cell: drop its tag"
        for index in (experiment, *readers):
            assert notebook.cells[index].cell_type == "code"


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_run_all_twice_then_each_experiment_alone_prints_the_same(
    stem: str, lesson_runs: Callable[[str], Plan]
) -> None:
    plan = lesson_runs(stem)
    for index, cell in enumerate(plan.notebook.cells):
        kinds = {output["output_type"] for output in cell.get("outputs", [])}
        assert "error" not in kinds and not stream_text(cell, "stderr"), (index, printed(cell))
    reference = first_run(plan)
    mismatches = differences(plan, "again", reference) + differences(plan, "alone", reference)
    assert not mismatches, "\n\n".join(mismatches)


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_each_cell_twice_in_a_row_and_readers_before_their_experiment(
    stem: str, lesson_runs: Callable[[str], Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = LESSONS_DIR / f"{stem}.ipynb"
    plan = each_cell_twice_readers_first(nbformat.read(path, as_version=4))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the kernel's temp folder: ours alone
    execute(plan.notebook, cwd=path.parent, allow_errors=True)
    left = sorted(p.name for p in tmp_path.glob("ticketflow-*"))
    assert not left, f"left in the temp folder after the kernel exited: {left}"

    early = plan.cells("early")
    sentences = {index: refusal(cell) for index, cell in early}
    wordless = {index: printed(cell) for index, cell in early if sentences[index] is None}
    assert not wordless, f"reading cells run too early did not refuse in one sentence: {wordless}"
    assert all("请先运行" in str(sentence) for sentence in sentences.values()), sentences

    reference = first_run(lesson_runs(stem))
    mismatches = differences(plan, "first", reference) + differences(plan, "again", reference)
    assert not mismatches, "\n\n".join(mismatches)
