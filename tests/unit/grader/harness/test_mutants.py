"""Each mutant is alive and wrong in exactly the way its catalogue entry says.

A mutant that crashed (say, on a name missing from ticketflow's globals after a refactor)
would be "caught" by any probe at all, so these tests call every mutant directly.
"""

from __future__ import annotations

import builtins
import dis
import inspect
from typing import Any

import pytest

from grader.harness.disguise import disguise
from grader.harness.mutants.effects import EFFECT_MUTANTS
from grader.harness.mutants.policy import POLICY_MUTANTS
from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.notifications import effects
from ticketflow.workers import policy
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

CASES = (
    (RetryableTaskError("t"), 0),
    (RetryableTaskError("t"), 1),
    (RetryableTaskError("t"), 2),
    (ValueError("v"), 0),
)
REAL_TABLE = [(True, 5, False), (True, 10, False), (False, None, True), (False, None, True)]


def _globals_used(function: Any) -> set[str]:
    return {i.argval for i in dis.get_instructions(function) if i.opname == "LOAD_GLOBAL"}


@pytest.mark.parametrize(
    ("mutants", "module"),
    [(POLICY_MUTANTS, policy), (EFFECT_MUTANTS, effects)],
)
def test_mutants_only_use_names_the_real_module_has(mutants: dict[str, Any], module: Any) -> None:
    available = set(vars(module)) | set(dir(builtins))
    for name, mutant in mutants.items():
        assert _globals_used(mutant) <= available, name


def _policy_table(variant: str) -> list[tuple[Any, ...]]:
    real = BoundedRetryPolicy.__dict__["decision"]
    decide = real if variant == "real" else disguise(POLICY_MUTANTS[variant], like=real)
    subject = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    rows = []
    for error, retries in CASES:
        d = decide(subject, error, retries_so_far=retries)
        rows.append((d.retry, d.countdown_seconds, d.dead_letter))
    return rows


def test_the_real_policy_gives_the_exercise_table() -> None:
    assert _policy_table("real") == REAL_TABLE


@pytest.mark.parametrize(
    ("variant", "differs_at"),
    [
        ("constant_delay", {1}),
        ("exponent_off_by_one", {0, 1}),
        ("off_by_one_bound", {2}),
        ("gives_up_early", {1}),
        ("retries_any_error", {3}),
        ("never_dead_letters", {2, 3}),
    ],
)
def test_each_policy_mutant_differs_exactly_where_described(
    variant: str, differs_at: set[int]
) -> None:
    table = _policy_table(variant)
    assert {i for i, row in enumerate(table) if row != REAL_TABLE[i]} == differs_at


@pytest.mark.parametrize(
    ("variant", "returns", "rows"),
    [
        ("real", (True, False), (1, 1)),
        ("no_dedupe", (True, True), (1, 2)),
        ("receipt_without_task", (True, False), (1, 0)),
        ("always_true", (True, True), (1, 1)),
        ("task_twice", (True, False), (1, 2)),
        ("returns_none", (None, None), (1, 1)),
        ("dedupe_without_receipt", (True, False), (0, 1)),
        ("receipt_committed_first", (True, False), (1, 1)),
        ("effect_committed_first", (True, False), (1, 2)),
        ("effect_error_swallowed", (True, False), (1, 1)),
    ],
)
def test_each_effect_mutant_on_two_deliveries(
    variant: str, returns: tuple[Any, Any], rows: tuple[int, int]
) -> None:
    real = effects.__dict__["apply_notification_once"]
    apply = real if variant == "real" else disguise(EFFECT_MUTANTS[variant], like=real)
    engine = ready_engine()
    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-mutant")
    assert (apply(envelope, transaction), apply(envelope, transaction)) == returns
    seen = counts(engine)
    assert (seen["receipts"], seen["business_tasks"]) == rows


def test_a_disguised_mutant_looks_like_the_real_function() -> None:
    real = effects.__dict__["apply_notification_once"]
    fake = disguise(EFFECT_MUTANTS["always_true"], like=real)
    for attribute in ("__name__", "__qualname__", "__module__", "__doc__", "__annotations__"):
        assert getattr(fake, attribute) == getattr(real, attribute), attribute
    assert fake.__globals__ is real.__globals__
    assert fake.__code__.co_filename == real.__code__.co_filename
    assert fake.__code__.co_qualname == real.__code__.co_qualname
    assert inspect.getsource(fake) == inspect.getsource(real)
    assert inspect.signature(fake) == inspect.signature(real)
