"""A live lesson with each code cell run twice in a row, once per session.

Its first copies are a top-down run of the lesson (each cell after the cells above it, which
ran twice): ``executed_lesson`` reads those, ``test_lesson_14`` compares them with the second
copies. One live run instead of two saves a minute of RabbitMQ and Redis experiments.

The run also records what it left behind: temp folders, and queues, exchanges and keys named
``lesson14.*`` on the shared brokers that were not there before and are still there a minute
later (another session's lesson 14 makes and deletes names of its own meanwhile).
"""

from __future__ import annotations

import copy
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest
import redis

from tests.notebooks.kernel import LESSONS_DIR, cells_tagged, execute
from tests.support.waiting import lasting
from ticketflow_lab.live_services import skip_reason, url


@dataclass(frozen=True)
class Doubled:
    original: Any
    notebook: Any  # every code cell twice: tags ``first-<i>`` and ``again-<i>``
    folders_left: list[Path]  # the kernel's ``ticketflow-*`` temp folders after it exited
    names_left: set[str]

    def first(self) -> Any:
        """The lesson with the outputs of each cell's first copy."""
        notebook = copy.deepcopy(self.original)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type == "code":
                (ran,) = cells_tagged(self.notebook, f"first-{index}")
                notebook.cells[index] = copy.deepcopy(ran)
                notebook.cells[index].metadata["tags"] = cell.metadata.get("tags", [])
        return notebook


def doubled(notebook: Any) -> Any:
    twice = copy.deepcopy(notebook)
    cells = []
    for index, cell in enumerate(twice.cells):
        cells.append(cell)
        if cell.cell_type == "code":
            again = copy.deepcopy(cell)
            again.metadata["tags"] = [f"again-{index}"]
            cell.metadata["tags"] = [*cell.metadata.get("tags", []), f"first-{index}"]
            cells.append(nbformat.from_dict({**again, "id": f"again-{index}"}))
    twice.cells = cells
    return twice


def run_twice_in_a_row(stem: str, temp: Path) -> Doubled:
    """Execute lesson ``stem`` doubled, with ``temp`` as the kernel's temp folder."""
    before = set(lesson14_names_left())
    original = nbformat.read(LESSONS_DIR / f"{stem}.ipynb", as_version=4)
    twice = doubled(original)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TMPDIR", str(temp))  # the kernel inherits it
        execute(twice, cwd=LESSONS_DIR)
    return Doubled(original, twice, sorted(temp.glob("ticketflow-*")), left_behind(before))


def lesson14_names_left() -> list[str]:
    """Queues/exchanges on the shared RabbitMQ and keys on Redis named by lesson 14."""
    left = []
    if shutil.which("rabbitmqctl") and skip_reason("RabbitMQ") is None:
        for what in ("list_queues", "list_exchanges"):
            listed = subprocess.run(
                ["rabbitmqctl", "-q", what, "name"], capture_output=True, text=True, timeout=60
            ).stdout.split()
            left += [name for name in listed if name.startswith("lesson14.")]
    if skip_reason("Redis") is None:
        client = redis.Redis.from_url(url("Redis"))
        try:
            left += [key.decode() for key in client.scan_iter(match="lesson14.*", count=1000)]
        finally:
            client.close()
    return left


def left_behind(before: set[str], *, within: float = 60.0) -> set[str]:
    """The names that appeared during the run and are still there ``within`` s later."""
    return lasting(lambda: set(lesson14_names_left()) - before, within=within, every=2.0)
