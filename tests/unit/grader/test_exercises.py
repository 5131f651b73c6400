"""The exercise registry and each code exercise's reading of the recorded calls."""

from __future__ import annotations

import pytest

from grader.errors import UnknownExercise
from grader.exercises import exercise_ids, get_exercise, normalize_id
from grader.exercises.ex_12_01 import check_calls as ex12_calls
from grader.exercises.ex_13_01 import check_calls as ex13_calls
from grader.exercises.spec import CodeExercise, ProseExercise
from tests.unit.grader.factories import apply_call


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("EX-12-01", "EX-12-01"),
        ("ex-12-01", "EX-12-01"),
        ("12-1", "EX-12-01"),
        ("ex1201", "EX-12-01"),
    ],
)
def test_ids_are_normalised(given: str, expected: str) -> None:
    assert normalize_id(given) == expected
    assert get_exercise(given).id == expected


def test_an_unknown_id_suggests_the_closest_one() -> None:
    with pytest.raises(UnknownExercise) as caught:
        get_exercise("EX-21-01")
    assert caught.value.message_id == "error.unknown_exercise_suggest"
    assert caught.value.params["suggestion"] == "EX-11-01"
    with pytest.raises(UnknownExercise) as unrelated:
        get_exercise("hello")
    assert unrelated.value.message_id == "error.unknown_exercise"


def test_every_exercise_has_a_spec_of_its_kind() -> None:
    kinds = {exercise_id: get_exercise(exercise_id).kind for exercise_id in exercise_ids()}
    assert kinds == {
        "EX-11-01": "code",
        "EX-11-02": "prose",
        "EX-12-01": "code",
        "EX-12-02": "prose",
        "EX-13-01": "code",
        "EX-13-02": "prose",
    }
    for exercise_id in exercise_ids():
        spec = get_exercise(exercise_id)
        if isinstance(spec, CodeExercise):
            assert len(spec.mutants) >= 4
        else:
            assert isinstance(spec, ProseExercise) and len(spec.concepts) >= 5


def test_ex_12_01_needs_the_same_event_twice_answered_true_then_false() -> None:
    assert ex12_calls([apply_call(True), apply_call(False)]) is None
    too_few = ex12_calls([apply_call(True)])
    assert too_few is not None and too_few.id == "calls.apply.too_few"
    distinct = ex12_calls([apply_call(True, event_id="a"), apply_call(True, event_id="b")])
    assert distinct is not None and distinct.id == "calls.apply.distinct_events"
    wrong = ex12_calls([apply_call(True), apply_call(True)])
    assert wrong is not None and wrong.id == "calls.apply.results"


def test_ex_13_01_needs_failure_then_redelivery_then_duplicate() -> None:
    good = [apply_call(raised="InjectedFailure"), apply_call(True), apply_call(False)]
    assert ex13_calls(good) is None
    expectations = {
        "calls.apply.too_few": [],
        "calls.atomic.no_failure": [apply_call(True), apply_call(False), apply_call(False)],
        "calls.atomic.no_redelivery": [
            apply_call(raised="X"),
            apply_call(False),
            apply_call(False),
        ],
        "calls.atomic.no_duplicate": [apply_call(raised="X"), apply_call(True), apply_call(True)],
    }
    for expected, records in expectations.items():
        problem = ex13_calls(records)
        assert problem is not None and problem.id == expected
