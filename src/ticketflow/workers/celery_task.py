"""The Celery task: ``deliver_notification``, a module-level function, at the edge.

``register_tasks`` registers it on an app with ``acks_late=True`` (the broker keeps the
message until the task returns) and the course's limits, and hands it its
``DeliveryPorts``. The task only translates what ``deliver``
(``ticketflow.workers.tasks``) decides: ``RetryLater`` becomes
``task.retry(countdown=...)`` bounded by ``max_retries``, ``DeadLettered`` goes to the
dead-letter sink, ``Dispatched`` and ``Duplicate`` become the task's result.

``dead_letter_hard_time_limit`` covers the one failure no code of the task sees: the hard
time limit kills the process running it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from celery import Celery, Task, signals
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded

from ticketflow.workers.policy import BoundedRetryPolicy, DeadLetterReason
from ticketflow.workers.tasks import (
    BASE_DELAY_SETTING,
    DEFAULT_BASE_DELAY,
    DEFAULT_MAX_RETRIES,
    DEFAULT_SOFT_TIME_LIMIT,
    DEFAULT_TIME_LIMIT,
    TASK_NAME,
    AttemptObserver,
    DeadLettered,
    DeadLetterHandler,
    DeliveryAttempt,
    DeliveryOutcome,
    DeliveryPorts,
    DeliveryResult,
    Dispatched,
    Duplicate,
    NotificationHandler,
    RetryLater,
    deliver,
)

__all__ = ["dead_letter_hard_time_limit", "deliver_notification", "register_tasks"]

logger = logging.getLogger(__name__)


def deliver_notification(task: Task, event: object) -> DeliveryResult:
    """The task (registered with ``bind=True``: ``task`` is the running task).

    ``task.ports`` is the ``DeliveryPorts`` that ``register_tasks`` gave this app's task.
    """
    ports: DeliveryPorts = task.ports
    run = _Run.of(task)
    logger.info(
        "deliver_notification started event_id=%s task_id=%s retries=%d redelivered=%s",
        _raw_event_id(event),
        run.task_id,
        run.retries,
        run.redelivered,
    )
    policy = BoundedRetryPolicy(
        max_retries=int(task.max_retries),
        base_delay_seconds=int(task.app.conf.get(BASE_DELAY_SETTING) or DEFAULT_BASE_DELAY),
    )
    outcome = deliver(
        event,
        handler=ports.handler,
        policy=policy,
        retries_so_far=run.retries,
        soft_time_limit=(SoftTimeLimitExceeded,),
    )
    match outcome:
        case RetryLater(event_id, countdown, error):
            ports.observe(run.attempt(event_id, outcome, countdown_seconds=countdown, error=error))
            raise task.retry(exc=error, countdown=countdown, max_retries=task.max_retries)
        case DeadLettered(event_id, reason, error):
            shown_id = event_id or _raw_event_id(event)
            letter_id = ports.dead_letters(
                event=event,
                event_id=event_id,
                reason=reason,
                attempts=run.retries + 1,
                error=str(error),
                cause=error,
            )
            logger.warning(
                "deliver_notification dead-lettered event_id=%s reason=%s attempts=%d error=%s",
                shown_id,
                reason,
                run.retries + 1,
                error,
            )
            ports.observe(run.attempt(shown_id, outcome, reason=reason, error=error))
            return {"event_id": shown_id, "status": outcome.status, "dead_letter_id": letter_id}
        case Dispatched(event_id) | Duplicate(event_id):
            logger.info("deliver_notification %s event_id=%s", outcome.status, event_id)
            ports.observe(run.attempt(event_id, outcome))
            return {"event_id": event_id, "status": outcome.status}


def register_tasks(
    app: Celery,
    *,
    notification_handler: NotificationHandler,
    dead_letter_handler: DeadLetterHandler,
    attempt_observer: AttemptObserver | None = None,
) -> Task:
    """Register ``deliver_notification`` on ``app`` and return the task.

    Limits and the retry bound can be changed per deployment through Celery's own
    ``task_annotations`` (the same code path runs); the base delay of the backoff through
    ``app.conf.ticketflow_retry_base_delay_seconds`` (default 5).
    """
    ports = DeliveryPorts(notification_handler, dead_letter_handler, attempt_observer)
    # One receiver for every app's task (``dispatch_uid``): it finds the ports on the sender.
    signals.task_failure.connect(dead_letter_hard_time_limit, weak=False, dispatch_uid=TASK_NAME)
    task: Task = app.task(
        name=TASK_NAME,
        bind=True,
        acks_late=True,  # ACK after the task returns: a worker that dies loses nothing
        max_retries=DEFAULT_MAX_RETRIES,
        soft_time_limit=DEFAULT_SOFT_TIME_LIMIT,
        time_limit=DEFAULT_TIME_LIMIT,
        # Registered on this app only: otherwise every app created later in the process
        # is offered this app's task (bound to this app's database) under the same name.
        shared=False,
        ports=ports,  # Celery makes an unknown option an attribute of the task
    )(deliver_notification)
    return task


@dataclass(frozen=True)
class _Run:
    """What the task's request says about this run (for the log and the observer)."""

    task_id: str | None
    retries: int
    redelivered: bool | None
    delivery_tag: str | None

    @classmethod
    def of(cls, task: Task) -> _Run:
        request = task.request
        info = request.delivery_info or {}
        tag = info.get("delivery_tag")
        return cls(request.id, int(request.retries or 0), info.get("redelivered"), _text(tag))

    def attempt(
        self,
        event_id: str | None,
        outcome: DeliveryOutcome,
        *,
        reason: DeadLetterReason | None = None,
        countdown_seconds: int | None = None,
        error: BaseException | None = None,
    ) -> DeliveryAttempt:
        return DeliveryAttempt(
            event_id=event_id,
            task_id=self.task_id,
            retries=self.retries,
            redelivered=self.redelivered,
            delivery_tag=self.delivery_tag,
            outcome=outcome.status,
            reason=reason,
            countdown_seconds=countdown_seconds,
            error=_text(error),
        )


# -- the hard time limit ----------------------------------------------------------------
#: The tasks whose hard time limit was handled already (Celery 5.7 sends ``task_failure``
#: twice for one timeout), oldest first, at most ``_HANDLED_LIMIT`` of them.
_handled_time_limits: dict[str, None] = {}
_HANDLED_LIMIT = 1024


def dead_letter_hard_time_limit(
    sender: Task | None = None,
    task_id: str | None = None,
    exception: BaseException | None = None,
    args: Sequence[object] | None = None,
    kwargs: Mapping[str, object] | None = None,
    **_: object,
) -> None:
    """Give a delivery killed by the hard time limit a dead letter instead of nothing.

    The hard limit kills the pool process, so none of the task's own code runs; and with
    ``acks_late`` Celery then ACKs the message (``task_acks_on_timeout`` defaults to True):
    no redelivery, no retry. Without this receiver the event would vanish. The worker's
    main process sends ``task_failure`` (Celery 5.7 sends it twice; the first carries the
    request), and we record one ``permanent_failure`` dead letter with the original body.
    Requeueing instead (``task_acks_on_timeout=False``) would loop forever on an event
    that always hangs: redeliveries do not count as retries.
    """
    ports = getattr(sender, "ports", None)
    if sender is None or not isinstance(ports, DeliveryPorts):
        return  # another task
    if not isinstance(exception, TimeLimitExceeded):
        return  # a failure the task itself saw and handled
    if task_id is None or task_id in _handled_time_limits:
        return
    _handled_time_limits[task_id] = None
    while len(_handled_time_limits) > _HANDLED_LIMIT:
        _handled_time_limits.pop(next(iter(_handled_time_limits)))
    request = sender.request
    has_context = request is not None and request.id == task_id
    retries = int(request.retries or 0) if has_context else 0
    delivery_info = (request.delivery_info or {}) if has_context else {}
    event = args[0] if args else (kwargs or {}).get("event")
    event_id = _raw_event_id(event)
    error = f"hard time limit exceeded: {exception!r}"
    try:
        ports.dead_letters(
            event=event,
            event_id=event_id,
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
    ports.observe(
        DeliveryAttempt(
            event_id=event_id,
            task_id=task_id,
            retries=retries,
            redelivered=delivery_info.get("redelivered"),
            delivery_tag=None,
            outcome=DeadLettered.status,
            reason="permanent_failure",
            error=error,
        )
    )


def _raw_event_id(event: object) -> str | None:
    """The event's id for a log line, even from a body that is not a valid envelope."""
    if isinstance(event, dict):
        candidate = event.get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return None


def _text(value: object) -> str | None:
    return None if value is None else str(value)
