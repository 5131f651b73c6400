"""A target declared ``pure`` is pure in every implementation: each twin and mutant as much
as the real code answers a call from its facts alone, whatever was asked before."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.proxy.oracle.implementations import REAL, answer_for
from grader.variants.targets import TARGETS

PURE = [target for target in TARGETS.values() if target.pure]
FACTS = [
    {"max_retries": bound, "base_delay_seconds": base, "retryable": retryable, "retries_so_far": n}
    for bound, base, retryable, n in itertools.product(
        (0, 2, 3.5, True), (0, 5, 1.5), (True, False), (-1, 0, 1, 2, 3, 4001)
    )
]


def _names(target_name: str) -> list[str]:
    names = {REAL}
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        if isinstance(exercise, CodeExercise) and exercise.function_under_test.name == target_name:
            names.update(exercise.twins, exercise.mutants)
    return sorted(names)


def _answer(answer: Any, facts: dict[str, Any]) -> object:
    try:
        return ("return", answer(dict(facts), None))
    except Exception as exc:
        return ("raise", type(exc).__name__, str(exc))


def test_only_the_policy_is_declared_pure() -> None:
    assert [target.name for target in PURE] == ["policy"]


@pytest.mark.parametrize("name", _names("policy"))
def test_every_policy_implementation_answers_from_its_facts_alone(name: str) -> None:
    answer = answer_for("policy", name)
    first = [_answer(answer, facts) for facts in FACTS]
    shuffled = list(enumerate(FACTS))
    random.Random(32).shuffle(shuffled)
    for index, facts in shuffled:
        assert _answer(answer, facts) == first[index], (name, facts)
