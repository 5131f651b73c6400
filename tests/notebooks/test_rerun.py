"""Re-running a lesson prints the same conclusions (issue 22, "true on every re-run").

One kernel per lesson runs ``rerun.rerun_plan`` (conftest's ``lesson_runs``):

* Run All again, every code cell twice in a row, then each ``experiment`` cell alone followed
  by its ``reading`` cells: every copy prints what the first top-down run printed;
* a ``reading`` cell run before its experiment refuses in one sentence (no traceback,
  nothing else printed); no ``ticketflow-*`` folder is left in the kernel's temp directory
  after it exits.

Timings, pids, task ids, clock times and run numbers are normalised away (``rerun.py``).
Lesson 14's live cells skip here; live, each runs twice in a row in ``test_lesson_14``.
"""

from __future__ import annotations

from collections.abc import Callable

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, stream_text
from tests.notebooks.rerun import Plan, experiments, printed, refusal
from tests.notebooks.test_committed_notebooks import LESSON_STEMS

pytestmark = [pytest.mark.notebooks, pytest.mark.slow]

#: The copies that must print what the first run printed.
REPEATS = ("again", "twice", "alone")


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
def test_run_all_again_each_cell_twice_and_each_experiment_alone_print_the_same(
    stem: str, lesson_runs: Callable[[str], Plan]
) -> None:
    plan = lesson_runs(stem)
    for role in ("first", *REPEATS):
        for index, cell in plan.cells(role):
            kinds = {output["output_type"] for output in cell.get("outputs", [])}
            assert "error" not in kinds and not stream_text(cell, "stderr"), (
                role,
                index,
                printed(cell),
            )
    reference = first_run(plan)
    mismatches = [line for role in REPEATS for line in differences(plan, role, reference)]
    assert not mismatches, "\n\n".join(mismatches)


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_readers_before_their_experiment_refuse_and_nothing_is_left_in_tmp(
    stem: str, lesson_runs: Callable[[str], Plan]
) -> None:
    plan = lesson_runs(stem)
    assert not plan.left_in_tmp, (
        f"left in the temp folder after the kernel exited: {plan.left_in_tmp}"
    )
    early = plan.cells("early")
    sentences = {index: refusal(cell) for index, cell in early}
    wordless = {index: printed(cell) for index, cell in early if sentences[index] is None}
    assert not wordless, f"reading cells run too early did not refuse in one sentence: {wordless}"
    assert all("请先运行" in str(sentence) for sentence in sentences.values()), sentences
