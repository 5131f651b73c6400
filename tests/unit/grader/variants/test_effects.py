"""Effect stand-ins, as built for a run: twins are atomic and idempotent like the real
function (also under the failure injection the lessons teach), mutants are wrong as described."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, event

from grader.variants.effects import MUTANTS, TWINS
from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from tests.unit.grader.variants.builds import built
from ticketflow.notifications import effects


class InjectedFailure(RuntimeError):
    pass


def _fail_first_business_task(engine: Engine) -> None:
    left = [1]

    @event.listens_for(engine, "before_cursor_execute")
    def fail(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        if left[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            left[0] -= 1
            raise InjectedFailure("effect store went away")


def _rows(engine: Engine) -> tuple[int, int]:
    seen = counts(engine)
    return seen["receipts"], seen["business_tasks"]


def _crash_then_redeliver_twice(apply: Any) -> list[Any]:
    engine = ready_engine()
    _fail_first_business_task(engine)
    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-atomic")
    story: list[Any] = []
    try:
        apply(envelope, transaction)
        story.append("no failure")
    except InjectedFailure:
        story.append("raised")
    story.append(_rows(engine))
    for _ in range(2):
        story.append(apply(envelope, transaction))
        story.append(_rows(engine))
    return story


@pytest.mark.parametrize("twin", TWINS)
def test_each_twin_is_atomic_and_idempotent_like_the_real_function(twin: str) -> None:
    real = _crash_then_redeliver_twice(built("effects", "real"))
    assert real == ["raised", (0, 0), True, (1, 1), False, (1, 1)]
    assert _crash_then_redeliver_twice(built("effects", twin)) == real


@pytest.mark.parametrize("twin", TWINS)
def test_each_twin_refuses_a_look_alike_envelope_like_the_real_function(twin: str) -> None:
    transaction = effects.SqlAlchemyEffectTransaction(ready_engine())
    for apply in (built("effects", "real"), built("effects", twin)):
        with pytest.raises(TypeError, match="envelope must be an EventEnvelope, not dict"):
            apply({"event_id": "x"}, transaction)


@pytest.mark.parametrize(
    ("variant", "returns", "rows"),
    [
        ("real", (True, False), (1, 1)),
        ("no_dedupe", (True, True), (1, 2)),
        ("receipt_without_task", (True, False), (1, 0)),
        ("always_true", (True, True), (1, 1)),
        ("task_twice", (True, False), (1, 2)),
        ("returns_none", (None, False), (1, 1)),
        ("returns_event_id", ("evt-stand-in", False), (1, 1)),
        ("dedupe_without_receipt", (True, False), (0, 1)),
        ("effect_on_every_delivery", (True, False), (1, 2)),
        ("receipt_committed_first", (True, False), (1, 1)),
        ("effect_committed_first", (True, False), (1, 2)),
        ("effect_error_swallowed", (True, False), (1, 1)),
        ("effect_error_rolled_back", (True, False), (1, 1)),
        ("receipt_first_then_repair", (True, False), (1, 1)),
    ],
)
def test_each_stand_in_on_two_deliveries(
    variant: str, returns: tuple[Any, Any], rows: tuple[int, int]
) -> None:
    assert variant == "real" or variant in MUTANTS
    apply = built("effects", variant)
    engine = ready_engine()
    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-stand-in")
    assert (apply(envelope, transaction), apply(envelope, transaction)) == returns
    assert _rows(engine) == rows


@pytest.mark.parametrize(
    ("mutant", "story"),
    [
        ("receipt_committed_first", ["raised", (1, 0), False, (1, 0), False, (1, 0)]),
        ("effect_error_swallowed", ["no failure", (1, 0), False, (1, 0), False, (1, 0)]),
        ("effect_error_rolled_back", ["no failure", (0, 0), True, (1, 1), False, (1, 1)]),
        ("receipt_first_then_repair", ["raised", (1, 0), True, (1, 1), False, (1, 1)]),
        ("returns_none", ["raised", (0, 0), None, (1, 1), False, (1, 1)]),
        ("effect_committed_first", ["raised", (0, 0), True, (1, 1), False, (1, 2)]),
    ],
)
def test_the_atomicity_mutants_break_under_failure_injection(mutant: str, story: list[Any]) -> None:
    assert _crash_then_redeliver_twice(built("effects", mutant)) == story
