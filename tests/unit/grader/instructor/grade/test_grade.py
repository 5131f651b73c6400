"""The grade function against its table of cases (``files/grades.json``: each case's
grading, decision and lateness, and the grade expected, written by hand from the rules in
``grader/instructor/grade/grade.py``), and its purity."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from grader.instructor import grade as grade_package
from grader.instructor.grade import Decided, Graded, Late, State, grade

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "files" / "grades.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_each_case_gives_the_expected_grade(case: dict[str, Any]) -> None:
    decided = Decided(**case["decided"]) if case["decided"] else None
    late = Late(**case["late"]) if case["late"] else None
    got = grade(Graded(**case["graded"]), decided, late)
    want = case["expect"]
    assert {
        "state": got.state.value,
        "raw_score": got.raw_score,
        "decision": got.decision,
        "penalty": got.penalty,
        "final_score": got.final_score,
        "provisional_score": got.provisional_score,
        "released": got.released(),
        "exported": got.exported(),
        "exported_provisional": got.exported(provisional=True),
        "comment": got.comment,
        "stale_decision": got.stale_decision,
    } == want
    assert got.student_score(everything=False) == (got.final_score if got.released() else None)
    assert got.released(everything=True)


def test_the_cases_cover_every_state() -> None:
    assert {case["expect"]["state"] for case in CASES} == {state.value for state in State}


def test_the_grade_is_pure() -> None:
    """Nothing but the standard library: no database, no web framework, nothing else of the
    instructor wing (so every view can afford it, and it cannot read a thing by itself)."""
    folder = Path(grade_package.__file__).parent
    for source in folder.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                top = name.split(".")[0]
                assert top in ("__future__", "dataclasses", "enum") or name.startswith(
                    "grader.instructor.grade"
                ), f"{source.name} imports {name}"
