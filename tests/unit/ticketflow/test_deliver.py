"""``deliver``: one delivery attempt without Celery, and the task's time-limit hooks."""

from __future__ import annotations

from typing import Any

import pytest
from celery import signals
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from tests.support.factories import make_event_dict
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.app import create_app
from ticketflow.workers.celery_task import register_tasks
from ticketflow.workers.tasks import (
    BoundedRetryPolicy,
    DeadLettered,
    DeliveryAttempt,
    Dispatched,
    Duplicate,
    RetryableTaskError,
    RetryLater,
    deliver,
)

POLICY = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)


def _raising(error: BaseException) -> Any:
    def handler(envelope: EventEnvelope) -> object:
        raise error

    return handler


def test_an_applied_effect_is_dispatched_and_a_repeat_is_a_duplicate() -> None:
    event = make_event_dict("evt-1")
    assert deliver(event, handler=lambda e: True, policy=POLICY, retries_so_far=0) == Dispatched(
        "evt-1"
    )
    assert deliver(event, handler=lambda e: False, policy=POLICY, retries_so_far=1) == Duplicate(
        "evt-1"
    )
    # only False means "already applied": a handler returning None applied the effect
    assert deliver(event, handler=lambda e: None, policy=POLICY, retries_so_far=0) == Dispatched(
        "evt-1"
    )


def test_the_handler_gets_the_parsed_envelope() -> None:
    seen: list[EventEnvelope] = []
    deliver(make_event_dict("evt-env"), handler=seen.append, policy=POLICY, retries_so_far=0)
    assert [(e.event_id, type(e)) for e in seen] == [("evt-env", EventEnvelope)]


@pytest.mark.parametrize("body", [{"event_id": "p"}, "text", None, {**make_event_dict(), "x": 1}])
def test_a_body_that_is_no_envelope_is_poison_at_once(body: object) -> None:
    outcome = deliver(body, handler=lambda e: True, policy=POLICY, retries_so_far=0)
    assert isinstance(outcome, DeadLettered)
    assert (outcome.event_id, outcome.reason) == (None, "poison_message")


def test_a_transient_failure_retries_with_the_policys_countdown_until_exhausted() -> None:
    error = RetryableTaskError("gateway timeout")
    event = make_event_dict("evt-down")
    outcomes = [
        deliver(event, handler=_raising(error), policy=POLICY, retries_so_far=n) for n in range(3)
    ]
    assert outcomes == [
        RetryLater("evt-down", 5, error),
        RetryLater("evt-down", 10, error),
        DeadLettered("evt-down", "retries_exhausted", error),
    ]


def test_a_permanent_failure_is_dead_lettered_without_retry() -> None:
    error = KeyError("assignee")
    outcome = deliver(
        make_event_dict("e"), handler=_raising(error), policy=POLICY, retries_so_far=0
    )
    assert outcome == DeadLettered("e", "permanent_failure", error)


def test_the_soft_time_limit_is_retried_like_a_retryable_error_and_keep_their_error() -> None:
    stalled = SoftTimeLimitExceeded()
    event = make_event_dict("e")
    kwargs: dict[str, Any] = {"handler": _raising(stalled), "policy": POLICY}
    assert deliver(event, retries_so_far=0, soft_time_limit=(SoftTimeLimitExceeded,), **kwargs) == (
        RetryLater("e", 5, stalled)
    )
    assert deliver(event, retries_so_far=2, soft_time_limit=(SoftTimeLimitExceeded,), **kwargs) == (
        DeadLettered("e", "retries_exhausted", stalled)
    )
    assert deliver(event, retries_so_far=0, **kwargs) == DeadLettered(
        "e", "permanent_failure", stalled
    )


def test_the_task_treats_celerys_soft_time_limit_as_transient_not_a_look_alike() -> None:
    class SoftTimeLimitExceededLookAlike(Exception):
        pass

    SoftTimeLimitExceededLookAlike.__name__ = "SoftTimeLimitExceeded"
    errors = iter([SoftTimeLimitExceeded("soft"), SoftTimeLimitExceededLookAlike("fake")])
    attempts: list[DeliveryAttempt] = []

    def handler(envelope: EventEnvelope) -> object:
        raise next(errors)

    task = register_tasks(
        create_app(eager=True),
        notification_handler=handler,
        dead_letter_handler=lambda **details: "dl-1",
        attempt_observer=attempts.append,
    )
    task.delay(make_event_dict("evt-soft")).get()
    assert [(a.outcome, a.reason) for a in attempts] == [
        ("retry", None),
        ("dead_lettered", "permanent_failure"),
    ]


def test_a_hard_time_limit_failure_is_dead_lettered_once() -> None:
    letters: list[dict[str, Any]] = []
    attempts: list[DeliveryAttempt] = []
    app = create_app(eager=True)
    task = register_tasks(
        app,
        notification_handler=lambda envelope: True,
        dead_letter_handler=lambda **details: letters.append(details) or "dl-1",
        attempt_observer=attempts.append,
    )

    class TimeLimitExceededLookAlike(Exception):
        pass

    TimeLimitExceededLookAlike.__name__ = "TimeLimitExceeded"
    event = make_event_dict("evt-hard")
    for task_id, exception in (
        ("t-fake", TimeLimitExceededLookAlike(20)),
        ("t-1", TimeLimitExceeded(20)),
        ("t-1", TimeLimitExceeded(20)),  # Celery sends it twice
    ):
        signals.task_failure.send(
            sender=task, task_id=task_id, exception=exception, args=[event], kwargs={}
        )
    assert [(d["event_id"], d["reason"], d["attempts"]) for d in letters] == [
        ("evt-hard", "permanent_failure", 1)
    ]
    assert [(a.task_id, a.outcome) for a in attempts] == [("t-1", "dead_lettered")]
