"""The exercise registry and each code exercise's reading of the recorded calls."""

from __future__ import annotations

import pytest

from grader.errors import UnknownExercise
from grader.judge.exercises import exercise_ids, get_exercise, normalize_id
from grader.judge.exercises.ex_11_01 import check_calls as ex11_calls
from grader.judge.exercises.ex_12_01 import check_calls as ex12_calls
from grader.judge.exercises.ex_13_01 import check_calls as ex13_calls
from grader.judge.exercises.spec import CodeExercise, ProseExercise, scalar
from tests.unit.grader.factories import POLICY_CALLS, apply_call


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


def test_ex_12_01_looks_at_deliveries_to_one_database_not_at_every_call_of_an_event_id() -> None:
    """A unittest probe with a fresh database per test: one test delivers once, the next
    twice. The real code's False says the second delivery of that test reached a database
    that had the event already."""
    per_test_databases = [apply_call(True), apply_call(True), apply_call(False)]
    assert ex12_calls(per_test_databases) is None
    never_twice_into_one = ex12_calls([apply_call(True), apply_call(True)])
    assert never_twice_into_one is not None
    refused_before_applied = ex12_calls([apply_call(False), apply_call(True)])
    assert refused_before_applied is not None
    assert refused_before_applied.id == "calls.apply.results"


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


#: Values a forged or lying record may carry where a scalar is expected.
HOSTILE_VALUES = (
    [0],
    {"id": 1},
    {"type": "ExitingInt"},
    [[1, 2], {"a": [3]}],
    "x" * 1_000_000,
    float("nan"),
    float("inf"),
    10**40,
    list(range(1000)),
)


def _hostile_records(function: str, fields: tuple[str, ...]) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    for value in HOSTILE_VALUES:
        for field in fields:
            record: dict[str, object] = {
                "kind": "call",
                "function": function,
                "max_retries": 2,
                "base_delay_seconds": 5,
                "error_type": "RetryableTaskError",
                "retries_so_far": 0,
                "event_id": "evt-1",
                "result": True,
            }
            record[field] = value
            records.append(record)
    return records


@pytest.mark.parametrize(
    ("exercise_id", "function", "fields"),
    [
        (
            "EX-11-01",
            "BoundedRetryPolicy.decision",
            ("error_type", "retries_so_far", "result", "max_retries", "base_delay_seconds"),
        ),
        ("EX-12-01", "apply_notification_once", ("event_id", "result", "raised")),
        ("EX-13-01", "apply_notification_once", ("event_id", "result", "raised")),
    ],
)
def test_check_calls_reads_hostile_records_without_raising(
    exercise_id: str, function: str, fields: tuple[str, ...]
) -> None:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, CodeExercise)
    records = _hostile_records(function, fields)
    for single in records:
        problem = spec.check_calls([single, single, single])
        assert problem is None or problem.id.startswith("calls.")
    problem = spec.check_calls(records)
    assert problem is None or problem.id.startswith("calls.")


def test_a_retry_count_that_is_not_an_exact_int_does_not_count_as_a_case() -> None:
    good = [dict(call) for call in POLICY_CALLS]
    good[1]["retries_so_far"] = True  # a bool is an int subclass: not the case "1"
    problem = ex11_calls(good)
    assert problem is not None and problem.id == "calls.policy.missing"
    assert problem.params["cases"] == "RetryableTaskError 1"
    good[1]["retries_so_far"] = "<ExitingInt>"
    problem = ex11_calls(good)
    assert problem is not None and problem.params["cases"] == "RetryableTaskError 1"


def test_ex_12_01_results_must_be_the_booleans_themselves() -> None:
    problem = ex12_calls([apply_call(1), apply_call(0)])
    assert problem is not None and problem.id == "calls.apply.results"
    problem = ex13_calls([apply_call(raised="X"), apply_call(1), apply_call(0)])
    assert problem is not None and problem.id == "calls.atomic.no_redelivery"


def test_scalar_keeps_json_scalars_and_shortens_everything_else() -> None:
    assert [scalar(v) for v in (None, True, 3, 2.5, "ok")] == [None, True, 3, 2.5, "ok"]
    assert scalar([True, 5, None]) == (True, 5, None)
    assert scalar("x" * 1000) == "x" * 200
    for value in ({"a": 1}, [[1]], float("nan"), 10**40, list(range(100))):
        shown = scalar(value)
        assert isinstance(shown, str | tuple) and len(shown) <= 80
        hash(shown)
