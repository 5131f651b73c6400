"""The notebooks as committed: valid nbformat v4, no outputs, Chinese prose, exercise pointers."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.kernel import lesson_notebooks

pytestmark = pytest.mark.notebooks

LESSON_STEMS = [
    "11a-late-ack-and-prefetch",
    "11b-retry-policy-and-dedupe",
    "12-worker-loss-retry-and-time-limits",
    "13-receipt-and-effect-in-one-transaction",
    "14-beyond-the-three-lessons",
]
#: Lessons with no exercise of their own (their last cell says so).
NO_EXERCISES = {"14-beyond-the-three-lessons"}
EXERCISES = {
    "11b-retry-policy-and-dedupe": ("EX-11-01", "EX-11-02"),
    "12-worker-loss-retry-and-time-limits": ("EX-12-01", "EX-12-02"),
    "13-receipt-and-effect-in-one-transaction": ("EX-13-01", "EX-13-02"),
}
#: The first half of a split lesson ends by pointing to its second half, which has the exercises.
CONTINUED_IN = {"11a-late-ack-and-prefetch": "11b-retry-policy-and-dedupe"}
CJK = re.compile(r"[\u4e00-\u9fff]")
SERVICE_URL = re.compile(r"\b(amqp|redis|rediss|postgresql(\+\w+)?)://")


def test_the_lessons_are_11a_11b_12_13_and_14() -> None:
    assert [path.stem for path in lesson_notebooks()] == LESSON_STEMS
    assert set(EXERCISES) | set(CONTINUED_IN) | NO_EXERCISES == set(LESSON_STEMS)


@pytest.fixture(params=LESSON_STEMS)
def notebook_path(request: pytest.FixtureRequest) -> Path:
    path: Path = next(p for p in lesson_notebooks() if p.stem == request.param)
    return path


def test_is_valid_nbformat_v4(notebook_path: Path) -> None:
    notebook = nbformat.read(notebook_path, as_version=nbformat.NO_CONVERT)
    assert notebook.nbformat == 4
    nbformat.validate(notebook)


def test_is_stored_without_outputs(notebook_path: Path) -> None:
    notebook = nbformat.read(notebook_path, as_version=4)
    dirty = [
        index
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]
    assert not dirty, (
        f"{notebook_path.name}: cells {dirty} have outputs or execution counts; clear them with "
        f"jupyter nbconvert --clear-output --inplace {notebook_path}"
    )


def test_runs_on_a_python3_kernel(notebook_path: Path) -> None:
    metadata = nbformat.read(notebook_path, as_version=4).metadata
    assert metadata["kernelspec"]["name"] == "python3"
    assert metadata["kernelspec"]["language"] == "python"


def test_prose_is_chinese_and_code_is_not(notebook_path: Path) -> None:
    cells = nbformat.read(notebook_path, as_version=4).cells
    markdown = [cell.source for cell in cells if cell.cell_type == "markdown"]
    assert markdown and all(CJK.search(text) for text in markdown)
    for cell in cells:
        if cell.cell_type == "code":
            # Chinese may appear in comments and printed notes; identifiers stay English.
            names = re.findall(r"^\s*(?:def|class)\s+(\S+?)[(:]", cell.source, flags=re.M)
            assert not [name for name in names if CJK.search(name)], names


def test_needs_no_network_service(notebook_path: Path) -> None:
    for cell in nbformat.read(notebook_path, as_version=4).cells:
        if cell.cell_type == "code":
            assert not SERVICE_URL.search(cell.source), cell.source


def test_ends_by_pointing_to_its_exercises_and_a_runnable_check_cell(notebook_path: Path) -> None:
    if notebook_path.stem in NO_EXERCISES:  # lesson 14 has none, and says where they are
        last = nbformat.read(notebook_path, as_version=4).cells[-1]
        assert last.cell_type == "markdown" and "没有练习" in last.source
        assert "grader check EX-NN-MM" in last.source
        return
    *_, prose, last = nbformat.read(notebook_path, as_version=4).cells
    if notebook_path.stem in CONTINUED_IN:
        assert last.cell_type == "markdown"
        assert f"{CONTINUED_IN[notebook_path.stem]}.ipynb" in last.source
        return
    assert prose.cell_type == "markdown"
    first, second = EXERCISES[notebook_path.stem]
    for exercise in (first, second):
        assert exercise in prose.source
        assert f"exercises/{exercise}/" in prose.source
    assert f"grader check {first}" in prose.source
    assert last.cell_type == "code"
    assert last.source == f'from grader import check\n\ncheck("{first}")'
    assert last.metadata.get("tags") == ["check"]


def test_first_cells_state_the_platform_and_the_first_code_cell_checks_it(
    notebook_path: Path,
) -> None:
    cells = nbformat.read(notebook_path, as_version=4).cells
    assert cells[0].cell_type == "markdown"
    assert "**平台要求**" in cells[0].source and "Celery ≥ 5.7" in cells[0].source
    first_code = next(cell for cell in cells if cell.cell_type == "code")
    assert "print(require_platform(" in first_code.source


def test_no_cell_signals_a_process_except_through_the_live_run(notebook_path: Path) -> None:
    for cell in nbformat.read(notebook_path, as_version=4).cells:
        if cell.cell_type == "code":
            assert "os.kill(" not in cell.source, cell.source
            assert "mkdtemp(" not in cell.source, cell.source  # temp folders: LiveRun only
