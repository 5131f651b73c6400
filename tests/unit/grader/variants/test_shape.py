"""Twins and mutants differ from the real code only where their descriptions say.

``files/shape_<target>.txt`` holds, for every stand-in, its catalogue description beside
every statement it adds or removes compared with the real function (by AST, with the
enclosing blocks), and for the effects every SQL statement it sends that the real function
does not (or the other way round), with the table object each statement was built from.
The file was reviewed line by line against the descriptions; this test fails as soon as a
stand-in, the real code or a description changes, so the review has to be done again.
Regenerate with ``python -m tests.unit.grader.variants.shape <target>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.grader.variants.shape import report, sql_diff, statement_diff

FILES = Path(__file__).parent / "files"


@pytest.mark.parametrize("target", ["policy", "effects"])
def test_every_difference_from_the_real_code_is_the_reviewed_one(target: str) -> None:
    expected = (FILES / f"shape_{target}.txt").read_text(encoding="utf-8")
    assert report(target) == expected


def test_the_effects_stand_ins_build_the_business_task_insert_from_the_same_table_object() -> None:
    """The statement a probe may recognise by its table (``BusinessTask.__table__``) is the
    real one in every stand-in that writes it: no ``insert(BusinessTask)`` (an annotated
    ORM table) anywhere."""
    assert sql_diff("orm_effect") == []
    savepoint = sql_diff("savepoint_effect")
    assert savepoint and all(
        line.startswith("+ ") and line.split()[1] in ("SAVEPOINT", "RELEASE", "ROLLBACK")
        for line in savepoint
    ), savepoint
    source = (Path(__file__).parents[4] / "grader" / "variants" / "effects.py").read_text()
    assert "insert(BusinessTask)" not in source


def test_the_twins_of_the_policy_differ_only_in_how_they_compute() -> None:
    for name in ("loop_backoff", "shift_backoff"):
        removed = [line for line in statement_diff("policy", name) if line.startswith("- ")]
        assert all("RetryDecision" in line for line in removed), removed
