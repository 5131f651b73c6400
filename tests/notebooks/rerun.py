"""Notebooks re-run the way a learner re-runs them, and what was printed, normalised.

Two cell tags describe a lesson's state:

* ``experiment``: a cell whose run later cells read (a live worker run, a measurement);
* ``reading``: a cell that reads the latest run of the nearest ``experiment`` cell above it.

Every other code cell owns its whole state and must print the same however often it runs.

``rerun_plan`` copies cells (with fresh ids) into one notebook that runs in one kernel:

1. ``first``: the notebook top to bottom, with each reading cell run once more *before* its
   experiment (``early``: it must refuse in one sentence, and a refusal changes nothing);
2. ``again`` and ``twice``: the notebook again, every code cell twice in a row;
3. ``alone``: each experiment cell alone, followed by its reading cells.

Every copy but the early ones must print what the ``first`` run printed. One kernel and
one Run All fewer than two plans run separately (Run All twice, then each cell twice): a
lesson's cells run 3 times and a half, not 4 and a half.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

import nbformat

from tests.notebooks.kernel import stream_text

#: What may differ between two runs that print the same conclusions.
VOLATILE = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<id>"),
    (re.compile(r"\b[0-9a-f]{8}…"), "<id>…"),
    (re.compile(r"\b(pid[=: ]\s*)\d+ *"), r"\1<pid> "),  # and its padding: pids vary in width
    (re.compile(r"\b(ForkPoolWorker-|Job: )\d+"), r"\1<n>"),
    (re.compile(r"\((main|child|pool process)\s+\d+\)"), r"(\1 <pid>)"),
    (re.compile(r"\b\d+\.\d+ ?s\b"), "<t> s"),
    (re.compile(r"\b\d+(\.\d+)? ms\b"), "<t> ms"),
    (re.compile(r"\b\d{2}:\d{2}:\d{2}\b"), "<time>"),
    (re.compile(r"#\d+\b"), "#<n>"),
]


def normalise(text: str) -> str:
    """``text`` with timings, pids, task ids, clock times and run numbers replaced."""
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def tags(cell: Any) -> list[str]:
    found: list[str] = cell.get("metadata", {}).get("tags", [])
    return found


def printed(cell: Any) -> str:
    """What a code cell showed, normalised: stdout, stderr and errors (one line each)."""
    parts = [normalise(stream_text(cell))]
    stderr = stream_text(cell, "stderr")
    if stderr:
        parts.append("STDERR: " + normalise(stderr))
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            parts.append(f"ERROR: {output.get('ename')}: {output.get('evalue')}")
    return "\n".join(part for part in parts if part)


def experiments(notebook: Any) -> dict[int, list[int]]:
    """Index of each ``experiment`` cell -> indices of the ``reading`` cells that read it."""
    found: dict[int, list[int]] = {}
    current: int | None = None
    for index, cell in enumerate(notebook.cells):
        if "experiment" in tags(cell):
            current = index
            found[current] = []
        elif "reading" in tags(cell):
            assert current is not None, f"reading cell {index} has no experiment cell above it"
            found[current].append(index)
    return found


@dataclass
class Plan:
    """A notebook of copied cells, and where each copy came from."""

    notebook: Any
    origin: list[int] = field(default_factory=list)  # per planned cell: index in the lesson
    role: list[str] = field(default_factory=list)  # "first", "again", "twice", "alone", "early"
    #: ``ticketflow-*`` entries left in the kernel's temp folder after it exited.
    left_in_tmp: list[str] = field(default_factory=list)

    def add(self, cell: Any, index: int, role: str) -> None:
        twin = copy.deepcopy(cell)
        twin["id"] = f"{role}-{len(self.origin)}"
        self.notebook.cells.append(nbformat.from_dict(twin))
        self.origin.append(index)
        self.role.append(role)

    def cells(self, role: str) -> list[tuple[int, Any]]:
        """(lesson index, executed copy) of every planned cell with this role."""
        return [
            (index, cell)
            for index, cell, kind in zip(self.origin, self.notebook.cells, self.role, strict=True)
            if kind == role
        ]


def _empty_like(notebook: Any) -> Plan:
    planned = copy.deepcopy(notebook)
    planned.cells = []
    return Plan(planned)


def rerun_plan(notebook: Any) -> Plan:
    plan = _empty_like(notebook)
    readers_of = experiments(notebook)
    code = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    for index, cell in code:
        for reader in readers_of.get(index, []):
            plan.add(notebook.cells[reader], reader, "early")
        plan.add(cell, index, "first")
    for index, cell in code:
        plan.add(cell, index, "again")
        plan.add(cell, index, "twice")
    for experiment, readers in readers_of.items():
        for index in (experiment, *readers):
            plan.add(notebook.cells[index], index, "alone")
    return plan


def refusal(cell: Any) -> str | None:
    """The one sentence a reading cell run too early showed, or None if it did not refuse.

    It must show nothing else: no stdout, and an error whose rendered traceback (what
    Jupyter displays) is that one line.
    """
    errors = [output for output in cell.get("outputs", []) if output["output_type"] == "error"]
    if len(errors) != 1 or stream_text(cell) or stream_text(cell, "stderr"):
        return None
    shown = [line for line in errors[0].get("traceback", []) if line.strip()]
    if len(shown) != 1 or "\n" in shown[0].strip() or "Traceback" in shown[0]:
        return None
    sentence: str = shown[0].strip()
    return sentence
