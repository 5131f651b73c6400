"""Policy stand-ins, as built for a run: twins behave exactly like the real method, each
mutant differs exactly where its catalogue entry says (a mutant that crashed, say on a name
missing from ticketflow's globals, would be "caught" by any probe at all)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from grader.variants.policy import MUTANTS, TWINS
from tests.unit.grader.variants.builds import built
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

CASES = (
    (RetryableTaskError("t"), 0),
    (RetryableTaskError("t"), 1),
    (RetryableTaskError("t"), 2),
    (ValueError("v"), 0),
)
REAL_TABLE = [(True, 5, False), (True, 10, False), (False, None, True), (False, None, True)]


def _table(name: str, seed: int = 0) -> list[tuple[Any, ...]]:
    decide = built("policy", name, seed)
    subject = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    rows = []
    for error, retries in CASES:
        d = decide(subject, error, retries_so_far=retries)
        rows.append((d.retry, d.countdown_seconds, d.dead_letter))
    return rows


def _outcome(decide: Any, policy: BoundedRetryPolicy, error: BaseException, n: Any) -> Any:
    try:
        d = decide(policy, error, retries_so_far=n)
    except Exception as exc:
        return ("raised", type(exc), str(exc))
    return (type(d), d.retry, d.countdown_seconds, type(d.countdown_seconds), d.dead_letter)


def test_the_real_policy_gives_the_exercise_table() -> None:
    assert _table("real") == REAL_TABLE


@pytest.mark.parametrize("twin", TWINS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_twin_behaves_exactly_like_the_real_method(twin: str, seed: int) -> None:
    real, decide = built("policy", "real"), built("policy", twin, seed)
    errors = (RetryableTaskError("t"), ValueError("v"), KeyError("k"), SystemExit(0))
    counts = (*range(-2, 9), True, False, 70, 200)
    for bound, base in itertools.product(range(5), (1, 5, 7)):
        policy = BoundedRetryPolicy(max_retries=bound, base_delay_seconds=base)
        for error, n in itertools.product(errors, counts):
            assert _outcome(decide, policy, error, n) == _outcome(real, policy, error, n), (
                twin,
                bound,
                base,
                error,
                n,
            )


@pytest.mark.parametrize(
    ("mutant", "differs_at"),
    [
        ("constant_delay", {1}),
        ("exponent_off_by_one", {0, 1}),
        ("off_by_one_bound", {2}),
        ("gives_up_early", {1}),
        ("retries_any_error", {3}),
        ("never_dead_letters", {2, 3}),
        ("first_retry_immediate", {0}),
        ("zero_countdown_on_give_up", {2, 3}),
        ("exhausted_not_dead_lettered", {2}),
        ("drops_permanent_errors", {3}),
    ],
)
def test_each_mutant_differs_exactly_where_described(mutant: str, differs_at: set[int]) -> None:
    assert set(MUTANTS) >= {mutant}
    table = _table(mutant)
    assert {i for i, row in enumerate(table) if row != REAL_TABLE[i]} == differs_at
