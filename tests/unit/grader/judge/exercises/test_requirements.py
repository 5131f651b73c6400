"""Each code exercise's table "required assertion -> the mutant only it catches", proven by
running the mutants: the enforcing mutant differs from the real code in the row's facts and
in no other required fact; every row names a mutant the exercise runs; and the reference
solution kills every mutant (run in-process with the stand-in swapped in)."""

from __future__ import annotations

import contextlib
import io
import runpy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

from grader.judge.exercises import get_exercise
from grader.judge.exercises.ex_12_01 import REQUIRED_FACTS as EX_12_REQUIRED
from grader.judge.exercises.spec import CodeExercise
from grader.variants import effects as effect_variants
from grader.variants import policy as policy_variants
from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from tests.unit.grader.variants.builds import built
from ticketflow.notifications import effects
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

REPO = Path(__file__).resolve().parents[5]
CODE = ("EX-11-01", "EX-12-01", "EX-13-01")
Facts = dict[str, object]


def _spec(exercise_id: str) -> CodeExercise:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, CodeExercise)
    return spec


# -- the facts each exercise's statement talks about, observed on one implementation ------
def policy_facts(decide: Any) -> Facts:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    cases = {
        "R0": (RetryableTaskError("t"), 0),
        "R1": (RetryableTaskError("t"), 1),
        "R2": (RetryableTaskError("t"), 2),
        "V0": (ValueError("v"), 0),
    }
    facts: Facts = {}
    for case, (error, n) in cases.items():
        d = decide(policy, error, retries_so_far=n)
        for field, value in (
            ("retry", d.retry),
            ("countdown", d.countdown_seconds),
            ("dead_letter", d.dead_letter),
        ):
            facts[f"{case}.{field}"] = (type(value), value)
    return facts


def _rows(engine: Engine, step: str, facts: Facts) -> None:
    seen = counts(engine)
    facts[f"{step}.receipts"] = seen["receipts"]
    facts[f"{step}.tasks"] = seen["business_tasks"]


def _returned(value: object) -> object:
    return (type(value), value)


def twice_facts(apply: Any) -> Facts:
    engine = ready_engine()
    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-twice")
    facts: Facts = {}
    for step in ("first", "second"):
        facts[f"{step}.returned"] = _returned(apply(envelope, transaction))
        _rows(engine, step, facts)
    return facts


class InjectedFailure(RuntimeError):
    pass


def atomic_facts(apply: Any) -> Facts:
    engine = ready_engine()
    left = [1]

    @event.listens_for(engine, "before_cursor_execute")
    def fail(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        if left[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            left[0] -= 1
            raise InjectedFailure("effect store went away")

    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-atomic")
    facts: Facts = {}
    try:
        apply(envelope, transaction)
        facts["failure.raised"] = False
    except InjectedFailure:
        facts["failure.raised"] = True
    _rows(engine, "failure", facts)
    for step in ("redelivery", "duplicate"):
        facts[f"{step}.returned"] = _returned(apply(envelope, transaction))
        _rows(engine, step, facts)
    return facts


FACTS: dict[str, tuple[str, Callable[[Any], Facts]]] = {
    "EX-11-01": ("policy", policy_facts),
    "EX-12-01": ("effects", twice_facts),
    "EX-13-01": ("effects", atomic_facts),
}


def _violated(exercise_id: str, mutant: str) -> set[str]:
    target, observe = FACTS[exercise_id]
    real, wrong = observe(built(target, "real")), observe(built(target, mutant))
    assert real.keys() == wrong.keys()
    return {fact for fact in real if real[fact] != wrong[fact]}


def _required(exercise_id: str) -> set[str]:
    if exercise_id == "EX-12-01":
        return set(EX_12_REQUIRED)
    target, observe = FACTS[exercise_id]
    return set(observe(built(target, "real")))


ROWS = [
    (exercise_id, index)
    for exercise_id in CODE
    for index in range(len(_spec(exercise_id).requirements))
]


@pytest.mark.parametrize(("exercise_id", "index"), ROWS)
def test_each_row_s_mutant_is_caught_by_that_assertion_and_no_other(
    exercise_id: str, index: int
) -> None:
    row = _spec(exercise_id).requirements[index]
    violated = _violated(exercise_id, row.mutant)
    required = _required(exercise_id)
    assert row.facts <= required, "a row may only name facts the statement requires"
    assert violated & row.facts, f"{row.mutant} does not differ where the row says"
    assert violated & required <= row.facts, (
        f"{row.mutant} is also caught by other required assertions: "
        f"{sorted(violated & required - row.facts)}"
    )


@pytest.mark.parametrize("exercise_id", CODE)
def test_every_row_names_a_mutant_the_exercise_runs_and_every_fact_is_covered(
    exercise_id: str,
) -> None:
    spec = _spec(exercise_id)
    variants = policy_variants if spec.target == "policy" else effect_variants
    assert spec.requirements, "the statement's assertions must be mapped to mutants"
    for row in spec.requirements:
        assert row.mutant in spec.mutants and row.mutant in variants.MUTANTS, row
    assert set(spec.mutants) <= set(variants.MUTANTS)
    covered = set().union(*(row.facts for row in spec.requirements))
    assert covered == _required(exercise_id), "every required fact belongs to some row"


@pytest.mark.parametrize("exercise_id", CODE)
def test_every_mutant_is_caught_by_some_required_assertion(exercise_id: str) -> None:
    required = _required(exercise_id)
    for mutant in _spec(exercise_id).mutants:
        assert _violated(exercise_id, mutant) & required, f"{mutant} is right on every fact"


@contextlib.contextmanager
def _swapped(target: str, name: str) -> Iterator[None]:
    if target == "policy":
        owner: Any = BoundedRetryPolicy
        attribute = "decision"
    else:
        owner, attribute = effects, "apply_notification_once"
    original = owner.__dict__[attribute]
    setattr(owner, attribute, built(target, name))
    try:
        yield
    finally:
        setattr(owner, attribute, original)


def _solution_outcome(exercise_id: str, target: str, name: str) -> str:
    solution = next((REPO / "solutions" / exercise_id).glob("*.py"))
    with _swapped(target, name), contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_path(str(solution), run_name="__main__")
        except AssertionError:
            return "assertion failed"
        except SystemExit as stop:
            return "exit 0" if stop.code in (None, 0) else "exit non-zero"
    return "exit 0"


@pytest.mark.parametrize("exercise_id", CODE)
def test_the_reference_solution_kills_every_mutant_and_passes_the_twins(exercise_id: str) -> None:
    spec = _spec(exercise_id)
    assert _solution_outcome(exercise_id, spec.target, "real") == "exit 0"
    for twin in spec.twins:
        assert _solution_outcome(exercise_id, spec.target, twin) == "exit 0", twin
    for mutant in spec.mutants:
        assert _solution_outcome(exercise_id, spec.target, mutant) != "exit 0", mutant
