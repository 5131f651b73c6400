"""Rubric terms cannot backtrack without bound: the lint refuses what could."""

from __future__ import annotations

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric.patterns import UnboundedPattern, compiled, lint


@pytest.mark.parametrize(
    "pattern",
    [r"retr\w*", r"a+b", r"x{0,}", r"x{2,100}", r"(ab){1,3}", r"(crash|kill)\w{0,5}*", r"x{3}"],
)
def test_unbounded_or_nested_repetition_is_refused(pattern: str) -> None:
    with pytest.raises(UnboundedPattern):
        lint(pattern)


@pytest.mark.parametrize("pattern", [r"retr[a-z]{0,6}", r"(not|n't)[^.]{0,3}x", r"a\*b", r"[*+]x?"])
def test_bounded_patterns_pass(pattern: str) -> None:
    lint(pattern)


@pytest.mark.parametrize("exercise_id", ["EX-11-02", "EX-12-02", "EX-13-02"])
def test_every_rubric_term_and_heading_is_bounded(exercise_id: str) -> None:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, ProseExercise)
    claims = [a for c in spec.concepts for a in (*c.alternatives, *c.contradicts)]
    terms = [t for alternative in claims for t in alternative]
    assert any(c.contradicts for c in spec.concepts)  # every prose exercise judges polarity
    for pattern in [*terms, *(section.heading for section in spec.sections)]:
        lint(pattern)
        assert compiled(pattern, "re") is not None
    assert {name for c in spec.concepts for name in c.sections} <= {s.name for s in spec.sections}
