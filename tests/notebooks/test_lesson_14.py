"""Lesson 14: each live cell really runs when its services are up, and skips in one line.

* With the services reachable, each live cell's output contains every line of
  ``files/14-…/live/<tag>.txt`` (the conclusions, not the timings): the Reject/DLX, Redis
  visibility-timeout, inspect and events cells are executed and checked, never skipped.
  A service that is down turns that expectation into "exactly the one skip line naming it".
* With ``TICKETFLOW_LESSON_SERVICES=none`` (the embedded default), every live cell prints
  one line naming its services, and the service-free cells still print their conclusions.
* Every code cell run twice in a row prints the same conclusions (timings aside), and
  nothing named ``lesson14.*`` is left on RabbitMQ or Redis afterwards.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import nbformat
import pytest

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute, stream_text
from tests.notebooks.test_lessons_execute import FILES
from tests.notebooks.twice_in_a_row import Doubled
from ticketflow_lab.live_services import SERVICES_ENV, skip_reason

#: The lesson-14 tests share one xdist worker: each checks that no ``lesson14.*`` queue or key
#: is left on the shared RabbitMQ and Redis, so two at once would see each other's.
pytestmark = [pytest.mark.notebooks, pytest.mark.slow, pytest.mark.xdist_group("lesson14")]

STEM = "14-beyond-the-three-lessons"
LIVE = FILES / STEM / "live"
#: the services each live cell needs, as its skip line names them
NEEDS = {
    "reject-dlx": ("RabbitMQ",),
    "redis-visibility": ("Redis",),
    "rabbitmq-redelivery": ("RabbitMQ",),
    "inspect-cli": ("RabbitMQ",),
    "task-events": ("RabbitMQ",),
    "lost-ack": ("RabbitMQ", "PostgreSQL"),
    "child-loss": ("RabbitMQ",),
    "canvas": ("Redis",),
    "result-backend": ("Redis",),
    "pickle-dlx": ("RabbitMQ",),
    "article-config": ("RabbitMQ",),
    "article-idempotent": ("Redis",),
}
MEASURED = re.compile(r"^measured this run:.*$", re.MULTILINE)


def only_cell(notebook: Any, tag: str) -> Any:
    (cell,) = cells_tagged(notebook, tag)
    return cell


def test_every_live_cell_has_its_expectation_and_its_services() -> None:
    notebook = nbformat.read(LESSONS_DIR / f"{STEM}.ipynb", as_version=4)
    live = {
        tag
        for cell in cells_tagged(notebook, "live")
        for tag in cell.metadata["tags"]
        if tag != "live"
    }
    assert live == set(NEEDS) == {path.stem for path in LIVE.glob("*.txt")}


@pytest.mark.parametrize("tag", sorted(NEEDS))
def test_live_cell_runs_and_prints_its_conclusions(
    tag: str, executed_lesson: Callable[[str], Any]
) -> None:
    printed = stream_text(only_cell(executed_lesson(STEM), tag))
    reason = skip_reason(*NEEDS[tag])
    if reason is not None:  # a service is down here: the cell must say so, in one line
        assert printed == reason + "\n"
        return
    lines = printed.splitlines()
    missing = [line for line in (LIVE / f"{tag}.txt").read_text().splitlines() if line not in lines]
    assert not missing, "\n".join(["missing lines:", *missing, "printed:", *lines])


def test_without_services_every_live_cell_skips_in_one_line_naming_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SERVICES_ENV, "none")  # the kernel inherits this environment
    notebook = nbformat.read(LESSONS_DIR / f"{STEM}.ipynb", as_version=4)
    execute(notebook, cwd=LESSONS_DIR)
    for tag, services in NEEDS.items():
        printed = stream_text(only_cell(notebook, tag))
        assert printed.count("\n") == 1 and printed.startswith("跳过："), (tag, printed)
        assert all(service in printed for service in services), (tag, printed)
    for expected in sorted((FILES / STEM / "exact").glob("*.txt")):
        assert stream_text(only_cell(notebook, expected.stem)) == expected.read_text()


def normalised(text: str) -> str:
    return MEASURED.sub("measured this run: …", text)


def test_each_code_cell_twice_in_a_row_prints_the_same_and_leaves_nothing(
    lesson_twice: Callable[[str], Doubled],
) -> None:
    run = lesson_twice(STEM)
    for index, cell in enumerate(run.original.cells):
        if cell.cell_type != "code":
            continue
        first = stream_text(only_cell(run.notebook, f"first-{index}"))
        second = stream_text(only_cell(run.notebook, f"again-{index}"))
        assert normalised(second) == normalised(first), f"cell {index}"
        for copy_ in (f"first-{index}", f"again-{index}"):
            assert not stream_text(only_cell(run.notebook, copy_), "stderr"), (copy_, index)
    assert not run.folders_left, "a run's folder outlived the kernel"
    assert not run.names_left, "a lesson-14 queue, exchange or key was left"
