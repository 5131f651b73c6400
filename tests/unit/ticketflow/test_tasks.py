"""deliver_notification through the eager app: all four ends of a delivery."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests.support.db import counts
from tests.support.factories import make_event_dict
from ticketflow.db import DeadLetter
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.app import create_app
from ticketflow.workers.bootstrap import NotificationService, build_notification_service
from ticketflow.workers.celery_task import register_tasks
from ticketflow.workers.tasks import TASK_NAME, DeliveryAttempt, RetryableTaskError


def _service(
    wrap: Callable[[Callable[[EventEnvelope], bool]], Callable[[EventEnvelope], object]]
    | None = None,
) -> tuple[NotificationService, list[DeliveryAttempt]]:
    attempts: list[DeliveryAttempt] = []
    service = build_notification_service(
        database_url="sqlite://", eager=True, attempt_observer=attempts.append, wrap_handler=wrap
    )
    return service, attempts


def _deliver(service: NotificationService, event: Any) -> dict[str, Any]:
    result: dict[str, Any] = service.deliver_notification.delay(event).get()
    return result


def test_task_is_registered_with_the_course_options() -> None:
    service, _ = _service()
    task = service.app.tasks[TASK_NAME]
    assert (task.acks_late, task.max_retries, task.soft_time_limit, task.time_limit) == (
        True,
        3,
        15,
        20,
    )


def test_dispatched_then_duplicate() -> None:
    service, attempts = _service()
    event = make_event_dict("evt-dup")
    assert _deliver(service, event) == {"event_id": "evt-dup", "status": "dispatched"}
    assert _deliver(service, event) == {"event_id": "evt-dup", "status": "duplicate"}
    assert [a.outcome for a in attempts] == ["dispatched", "duplicate"]
    assert counts(service.engine, "evt-dup") == {
        "receipts": 1,
        "business_tasks": 1,
        "dead_letters": 0,
        "outbox": 0,
    }


@pytest.mark.parametrize(
    "body",
    [
        {"event_id": "p1", "event_type": "ticket.created"},
        {"event_id": "p2", "event_type": "ticket.created", "payload": "oops"},
        {"event_id": "p3", "event_type": "ticket.created", "payload": {}, "extra": 1},
        ["not", "an", "object"],
        "plain text",
    ],
)
def test_poison_message_is_dead_lettered_with_its_body_verbatim(body: Any) -> None:
    import json

    service, attempts = _service()
    result = _deliver(service, body)
    assert result["status"] == "dead_lettered"
    with Session(service.engine) as session:
        letter = session.scalars(select(DeadLetter)).one()
    expected_body = body if isinstance(body, str) else json.dumps(body, separators=(",", ":"))
    assert (letter.id, letter.reason, letter.body, letter.attempts) == (
        result["dead_letter_id"],
        "poison_message",
        expected_body,
        1,
    )
    assert attempts[-1].reason == "poison_message"
    assert counts(service.engine)["receipts"] == 0


def test_retryable_error_retries_with_5_10_20_then_dead_letters_as_exhausted() -> None:
    calls: list[str] = []

    def always_down(_inner: Callable[[EventEnvelope], bool]) -> Callable[[EventEnvelope], object]:
        def handler(envelope: EventEnvelope) -> object:
            calls.append(envelope.event_id)
            raise RetryableTaskError("notification gateway timeout")

        return handler

    service, attempts = _service(always_down)
    result = _deliver(service, make_event_dict("evt-down"))

    assert result["status"] == "dead_lettered"
    assert len(calls) == 4  # the first run plus exactly max_retries (3) retries
    assert [(a.retries, a.outcome, a.countdown_seconds) for a in attempts] == [
        (0, "retry", 5),
        (1, "retry", 10),
        (2, "retry", 20),
        (3, "dead_lettered", None),
    ]
    with Session(service.engine) as session:
        letter = session.scalars(select(DeadLetter)).one()
    assert (letter.reason, letter.attempts, letter.event_id) == ("retries_exhausted", 4, "evt-down")


def test_transient_failure_then_success_dispatches_once() -> None:
    failures = iter([RetryableTaskError("blip")])

    def flaky(inner: Callable[[EventEnvelope], bool]) -> Callable[[EventEnvelope], object]:
        def handler(envelope: EventEnvelope) -> object:
            error = next(failures, None)
            if error:
                raise error
            return inner(envelope)

        return handler

    service, attempts = _service(flaky)
    assert _deliver(service, make_event_dict("evt-blip"))["status"] == "dispatched"
    assert [(a.retries, a.outcome) for a in attempts] == [(0, "retry"), (1, "dispatched")]
    assert counts(service.engine, "evt-blip")["business_tasks"] == 1


def test_permanent_failure_is_dead_lettered_without_retry() -> None:
    def broken(_inner: Callable[[EventEnvelope], bool]) -> Callable[[EventEnvelope], object]:
        def handler(envelope: EventEnvelope) -> object:
            raise KeyError("assignee")

        return handler

    service, attempts = _service(broken)
    result = _deliver(service, make_event_dict("evt-perm"))
    assert result["status"] == "dead_lettered"
    assert [(a.retries, a.outcome, a.reason) for a in attempts] == [
        (0, "dead_lettered", "permanent_failure")
    ]


def test_base_delay_comes_from_configuration() -> None:
    def down(_inner: Callable[[EventEnvelope], bool]) -> Callable[[EventEnvelope], object]:
        def handler(envelope: EventEnvelope) -> object:
            raise RetryableTaskError("down")

        return handler

    attempts: list[DeliveryAttempt] = []
    service = build_notification_service(
        eager=True,
        attempt_observer=attempts.append,
        wrap_handler=down,
        ticketflow_retry_base_delay_seconds=1,
        task_annotations={TASK_NAME: {"max_retries": 2}},
    )
    _deliver(service, make_event_dict())
    assert [a.countdown_seconds for a in attempts] == [1, 2, None]


def test_observer_failure_does_not_change_the_outcome() -> None:
    def bad_observer(_attempt: DeliveryAttempt) -> None:
        raise RuntimeError("observer bug")

    service = build_notification_service(eager=True, attempt_observer=bad_observer)
    assert _deliver(service, make_event_dict("evt-obs"))["status"] == "dispatched"


@pytest.mark.parametrize("missing", ["notification_handler", "dead_letter_handler"])
def test_both_handlers_are_required(missing: str) -> None:
    handlers: dict[str, Any] = {
        "notification_handler": lambda envelope: True,
        "dead_letter_handler": lambda **details: "dl-1",
    }
    del handlers[missing]
    with pytest.raises(TypeError, match=missing):
        register_tasks(create_app(eager=True), **handlers)
