"""Each lesson notebook is executed once per session (run all twice, then each experiment
cell alone) and shared by the tests that read it; ``executed_lesson`` is its first pass."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, execute
from tests.notebooks.rerun import Plan, run_all_twice_then_experiments_alone


@pytest.fixture(scope="session")
def lesson_runs() -> Callable[[str], Plan]:
    """``lesson_runs("11a-late-ack-and-prefetch")`` -> the executed re-run plan."""
    results: dict[str, Plan | Exception] = {}

    def run(stem: str) -> Plan:
        if stem not in results:
            path = LESSONS_DIR / f"{stem}.ipynb"
            plan = run_all_twice_then_experiments_alone(nbformat.read(path, as_version=4))
            try:
                execute(plan.notebook, cwd=path.parent)
                results[stem] = plan
            except Exception as error:  # remembered: a broken notebook runs only once
                results[stem] = error
        outcome = results[stem]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return run


@pytest.fixture(scope="session")
def executed_lesson(lesson_runs: Callable[[str], Plan]) -> Callable[[str], Any]:
    """``executed_lesson(stem)`` -> the notebook with the outputs of its first top-down run."""

    def run(stem: str) -> Any:
        notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
        for index, executed in lesson_runs(stem).cells("first"):
            notebook.cells[index] = copy.deepcopy(executed)
        return notebook

    return run
