"""The late-ACK notification task with bounded retry and an explicit failure sink.

Imports neither Celery nor SQLAlchemy: the app is passed in (``register_tasks``), and the
policy lives in ``ticketflow.workers.policy`` (re-exported here under the names the course
uses).

Three ways the same event runs again, and how this task tells them apart:

* **broker redelivery** — the worker died before the late ACK; the broker hands the same
  delivery out again (``delivery_info["redelivered"]`` on RabbitMQ). ``request.retries`` is
  NOT increased: it is not a Celery retry.
* **task retry** — the handler raised ``RetryableTaskError``; the task itself schedules the
  next attempt with ``retry(countdown=...)``, bounded by ``max_retries``.
* **poison message** — the body does not parse; no amount of waiting fixes it, so it is
  dead-lettered at once with the original body.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError, RetryDecision

__all__ = [
    "TASK_NAME",
    "BoundedRetryPolicy",
    "DeliveryAttempt",
    "RetryDecision",
    "RetryableTaskError",
    "register_tasks",
]

TASK_NAME = "ticketflow.workers.tasks.deliver_notification"
DEFAULT_MAX_RETRIES = 3
DEFAULT_SOFT_TIME_LIMIT = 15
DEFAULT_TIME_LIMIT = 20
BASE_DELAY_SETTING = "ticketflow_retry_base_delay_seconds"

logger = logging.getLogger(__name__)

NotificationHandler = Callable[[EventEnvelope], object]
DeadLetterHandler = Callable[..., str]


@dataclass(frozen=True)
class DeliveryAttempt:
    """One run of the task, as an observer sees it (for timelines and tests)."""

    event_id: str
    task_id: str | None
    retries: int
    redelivered: bool | None
    delivery_tag: str | None
    outcome: str  # "dispatched" | "duplicate" | "retry" | "dead_lettered"
    reason: str | None = None  # the dead-letter reason
    countdown_seconds: int | None = None
    error: str | None = None


AttemptObserver = Callable[[DeliveryAttempt], object]


def register_tasks(
    app: Any,
    *,
    notification_handler: NotificationHandler | None = None,
    dead_letter_handler: DeadLetterHandler | None = None,
    attempt_observer: AttemptObserver | None = None,
) -> Any:
    """Register ``deliver_notification`` on ``app`` and return the task.

    Limits and the retry bound can be changed per deployment through Celery's own
    ``task_annotations`` (the same code path runs); the base delay of the backoff through
    ``app.conf.ticketflow_retry_base_delay_seconds`` (default 5).
    """
    if notification_handler is None:
        raise ValueError("notification_handler is required: it applies the event's effect")
    if dead_letter_handler is None:
        raise ValueError("dead_letter_handler is required: failed deliveries must go somewhere")

    def observe(attempt: DeliveryAttempt) -> None:
        if attempt_observer is None:
            return
        try:
            attempt_observer(attempt)
        except Exception:  # an observer must never change the delivery's outcome
            logger.exception("attempt observer failed for event %s", attempt.event_id)

    @app.task(  # type: ignore[untyped-decorator]
        name=TASK_NAME,
        bind=True,
        acks_late=True,
        max_retries=DEFAULT_MAX_RETRIES,
        soft_time_limit=DEFAULT_SOFT_TIME_LIMIT,
        time_limit=DEFAULT_TIME_LIMIT,
        # Registered on this app only: otherwise every app created later in the process
        # is offered this app's task (bound to this app's database) under the same name.
        shared=False,
    )
    def deliver_notification(task: Any, event: dict[str, Any]) -> dict[str, Any]:
        request = task.request
        retries = int(request.retries or 0)
        delivery_info = request.delivery_info or {}
        tag = delivery_info.get("delivery_tag")

        def attempt(event_id: str, outcome: str, **extra: Any) -> None:
            observe(
                DeliveryAttempt(
                    event_id=event_id,
                    task_id=request.id,
                    retries=retries,
                    redelivered=delivery_info.get("redelivered"),
                    delivery_tag=None if tag is None else str(tag),
                    outcome=outcome,
                    **extra,
                )
            )

        def dead_letter(event_id: str | None, reason: str, error: BaseException) -> dict[str, Any]:
            dead_letter_id = dead_letter_handler(
                event=event,
                event_id=event_id,
                reason=reason,
                attempts=retries + 1,
                error=str(error),
                cause=error,
            )
            shown_id = event_id or _raw_event_id(event)
            logger.warning(
                "deliver_notification dead-lettered event_id=%s reason=%s attempts=%d error=%s",
                shown_id,
                reason,
                retries + 1,
                error,
            )
            attempt(shown_id, "dead_lettered", reason=reason, error=str(error))
            return {
                "event_id": shown_id,
                "status": "dead_lettered",
                "dead_letter_id": dead_letter_id,
            }

        logger.info(
            "deliver_notification started event_id=%s task_id=%s retries=%d redelivered=%s",
            _raw_event_id(event),
            request.id,
            retries,
            delivery_info.get("redelivered"),
        )
        try:
            envelope = EventEnvelope.from_json_bytes(
                json.dumps(event, ensure_ascii=False, allow_nan=False).encode("utf-8")
            )
        except (TypeError, ValueError) as error:
            return dead_letter(None, "poison_message", error)

        try:
            applied = notification_handler(envelope)
        except Exception as error:
            classified = _classify(error)
            policy = BoundedRetryPolicy(
                max_retries=int(task.max_retries),
                base_delay_seconds=int(app.conf.get(BASE_DELAY_SETTING) or 5),
            )
            decision = policy.decision(classified, retries_so_far=retries)
            if decision.retry:
                attempt(
                    envelope.event_id,
                    "retry",
                    countdown_seconds=decision.countdown_seconds,
                    error=str(error),
                )
                raise task.retry(
                    exc=error, countdown=decision.countdown_seconds, max_retries=task.max_retries
                ) from error
            reason = (
                "retries_exhausted"
                if isinstance(classified, RetryableTaskError)
                else "permanent_failure"
            )
            return dead_letter(envelope.event_id, reason, error)

        status = "duplicate" if applied is False else "dispatched"
        logger.info("deliver_notification %s event_id=%s", status, envelope.event_id)
        attempt(envelope.event_id, status)
        return {"event_id": envelope.event_id, "status": status}

    _dead_letter_hard_time_limits(app, dead_letter_handler, observe)
    return deliver_notification


def _dead_letter_hard_time_limits(
    app: Any, dead_letter_handler: DeadLetterHandler, observe: AttemptObserver
) -> None:
    """Give a delivery killed by the hard time limit a dead letter instead of nothing.

    The hard limit kills the pool process, so none of the task's own code runs; and with
    ``acks_late`` Celery then ACKs the message (``task_acks_on_timeout`` defaults to True):
    no redelivery, no retry. Without this hook the event would vanish. The worker's main
    process sends ``task_failure`` (Celery 5.7 sends it twice; the first carries the
    request), and we record one ``permanent_failure`` dead letter with the original body.
    Requeueing instead (``task_acks_on_timeout=False``) would loop forever on an event
    that always hangs: redeliveries do not count as retries.
    """
    from celery import signals

    handled: dict[str, None] = {}

    def on_task_failure(
        sender: Any = None,
        task_id: str | None = None,
        exception: BaseException | None = None,
        args: Any = None,
        kwargs: Any = None,
        **_: Any,
    ) -> None:
        if getattr(sender, "name", None) != TASK_NAME or getattr(sender, "app", None) is not app:
            return
        if type(exception).__name__ != "TimeLimitExceeded" or task_id is None:
            return
        if task_id in handled:
            return
        handled[task_id] = None
        while len(handled) > 1024:
            handled.pop(next(iter(handled)))
        request = sender.request
        has_context = request is not None and request.id == task_id
        retries = int(request.retries or 0) if has_context else 0
        delivery_info = (request.delivery_info or {}) if has_context else {}
        event = args[0] if args else (kwargs or {}).get("event")
        event_id = _raw_event_id(event)
        error = f"hard time limit exceeded: {exception!r}"
        try:
            dead_letter_handler(
                event=event,
                event_id=None if event_id == "unknown" else event_id,
                reason="permanent_failure",
                attempts=retries + 1,
                error=error,
                cause=exception,
            )
        except Exception:
            logger.exception("could not dead-letter event %s after the hard time limit", event_id)
            return
        logger.warning(
            "deliver_notification dead-lettered event_id=%s reason=permanent_failure "
            "attempts=%d error=%s",
            event_id,
            retries + 1,
            error,
        )
        observe(
            DeliveryAttempt(
                event_id=event_id,
                task_id=task_id,
                retries=retries,
                redelivered=delivery_info.get("redelivered"),
                delivery_tag=None,
                outcome="dead_lettered",
                reason="permanent_failure",
                error=error,
            )
        )

    # Weakly connected, kept alive by the app: the receiver goes when the app goes.
    app._ticketflow_on_task_failure = on_task_failure
    signals.task_failure.connect(on_task_failure, weak=True)


def _classify(error: Exception) -> Exception:
    """A soft time limit means a dependency stalled: treat it as transient."""
    if type(error).__name__ == "SoftTimeLimitExceeded":
        logger.warning("deliver_notification soft time limit exceeded: %r", error)
        return RetryableTaskError(f"soft time limit exceeded: {error!r}")
    return error


def _raw_event_id(event: object) -> str:
    if isinstance(event, dict):
        candidate = event.get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return "unknown"
