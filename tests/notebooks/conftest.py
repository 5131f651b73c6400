"""Each lesson notebook is executed once per session (``rerun.rerun_plan``: Run All, Run All
again with each cell twice in a row, each experiment alone) and shared by the tests that
read it; ``executed_lesson`` is its first pass.

Lesson 14's live cells take tens of seconds each with the services up. Its re-run plan runs
with the embedded default (``TICKETFLOW_LESSON_SERVICES=none``: every live cell skips in one
line); live, it runs once, each cell twice in a row (``lesson_twice``, see
``twice_in_a_row.py``): ``test_lesson_14`` compares the two copies, and ``executed_lesson``
is the first copies. So its live cells are re-run-checked without paying for a live Run All
twice, or for a second live run.

A lesson's executions are cached in this worker's session: the tests that read one lesson
are in one ``xdist_group`` (``lesson_group``), so each lesson is executed once per run, not
once per worker. Tests parametrized by ``stem`` get theirs here; the others name it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, execute
from tests.notebooks.rerun import Plan, rerun_plan
from tests.notebooks.twice_in_a_row import Doubled, run_twice_in_a_row
from ticketflow_lab.live_services import SERVICES_ENV

#: Lessons with live cells: re-run plan with the embedded default, one live run on its own.
LIVE_LESSONS = frozenset({"14-beyond-the-three-lessons"})
#: The fixtures that execute a lesson (once per worker's session, per lesson).
EXECUTING = frozenset({"lesson_runs", "executed_lesson", "lesson_twice"})


def lesson_group(stem: str) -> pytest.MarkDecorator:
    """The ``xdist_group`` of the tests that read lesson ``stem`` as executed. Lesson 14's is
    the group that already keeps its notebook and its demos off each other's queues."""
    return pytest.mark.xdist_group("lesson14" if stem.startswith("14-") else f"lesson-{stem}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        stem = callspec.params.get("stem") if callspec is not None else None
        if isinstance(stem, str) and EXECUTING & set(getattr(item, "fixturenames", ())):
            item.add_marker(lesson_group(stem))


T = TypeVar("T")


def once_per_stem(execute_lesson: Callable[[str], T]) -> Callable[[str], T]:
    """``execute_lesson`` memoised by stem; a failure is remembered too (a broken notebook
    runs only once, and every test that reads it gets its error)."""
    results: dict[str, T | Exception] = {}

    def run(stem: str) -> T:
        if stem not in results:
            try:
                results[stem] = execute_lesson(stem)
            except Exception as error:
                results[stem] = error
        outcome = results[stem]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    return run


@pytest.fixture(scope="session")
def lesson_runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Plan]:
    """``lesson_runs("11a-late-ack-and-prefetch")`` -> the executed re-run plan, with what
    its kernel left in a temp folder of its own."""

    def run(stem: str) -> Plan:
        path = LESSONS_DIR / f"{stem}.ipynb"
        plan = rerun_plan(nbformat.read(path, as_version=4))
        tmp = tmp_path_factory.mktemp(f"kernel-{stem[:3]}")
        values = {"TMPDIR": str(tmp)}
        if stem in LIVE_LESSONS:  # live, each cell twice: test_lesson_14
            values[SERVICES_ENV] = "none"  # every live cell skips in one line
        with pytest.MonkeyPatch.context() as patch:  # the kernel inherits the environment
            for name, value in values.items():
                patch.setenv(name, value)
            execute(plan.notebook, cwd=path.parent, allow_errors=True)
        plan.left_in_tmp = sorted(p.name for p in tmp.glob("ticketflow-*"))
        return plan

    return once_per_stem(run)


@pytest.fixture(scope="session")
def lesson_twice(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Doubled]:
    """``lesson_twice(stem)`` -> live lesson ``stem`` run once, each code cell twice in a row."""
    return once_per_stem(lambda stem: run_twice_in_a_row(stem, tmp_path_factory.mktemp("twice")))


@pytest.fixture(scope="session")
def executed_lesson(
    lesson_runs: Callable[[str], Plan], lesson_twice: Callable[[str], Doubled]
) -> Callable[[str], Any]:
    """``executed_lesson(stem)`` -> the notebook with the outputs of its first top-down run."""

    def run(stem: str) -> Any:
        if stem in LIVE_LESSONS:  # with the services this machine has
            return lesson_twice(stem).first()
        notebook = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
        for index, executed in lesson_runs(stem).cells("first"):
            notebook.cells[index] = copy.deepcopy(executed)
        return notebook

    return run
