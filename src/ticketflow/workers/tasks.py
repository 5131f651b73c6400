"""The notification task: late ACK, bounded retry, dead letter.

Read this module from the top:

1. ``deliver`` is one delivery attempt as a plain function. The event as the broker handed
   it over, the handler that applies its effect, the retry policy and the number of retries
   already done go in; a ``DeliveryOutcome`` comes out: ``Dispatched``, ``Duplicate``,
   ``RetryLater`` (with its countdown) or ``DeadLettered`` (with its reason). It knows
   nothing about Celery, so every branch is a one-line unit test.
2. ``register_tasks`` registers the Celery task, which only translates that outcome:
   ``acks_late=True`` (the broker keeps the message until the task returns), ``RetryLater``
   becomes ``task.retry(countdown=...)`` bounded by ``max_retries``, ``DeadLettered`` goes
   to the dead-letter sink.
3. ``_dead_letter_hard_time_limits`` covers the one failure no code of the task sees: the
   hard time limit kills the process running it.

Three ways the same event runs again, and how the task tells them apart:

* **broker redelivery**: the worker died before the late ACK; the broker hands the same
  delivery out again (``delivery_info["redelivered"]`` on RabbitMQ). ``request.retries`` is
  NOT increased: it is not a Celery retry.
* **task retry**: the handler raised ``RetryableTaskError``; the task itself schedules the
  next attempt with ``retry(countdown=...)``, bounded by ``max_retries``.
* **poison message**: the body is not a valid envelope; no amount of waiting fixes it, so
  it is dead-lettered at once with the original body.

Importing this module imports neither Celery nor SQLAlchemy (their types are for the type
checker only): the app is passed in, and a probe that only needs the policy, re-exported
here under the names the course uses, starts in milliseconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError, RetryDecision

if TYPE_CHECKING:
    from celery import Celery, Task

__all__ = [
    "TASK_NAME",
    "BoundedRetryPolicy",
    "DeadLettered",
    "DeliveryAttempt",
    "DeliveryOutcome",
    "Dispatched",
    "Duplicate",
    "RetryDecision",
    "RetryLater",
    "RetryableTaskError",
    "deliver",
    "register_tasks",
]

TASK_NAME = "ticketflow.workers.tasks.deliver_notification"
DEFAULT_MAX_RETRIES = 3
DEFAULT_SOFT_TIME_LIMIT = 15
DEFAULT_TIME_LIMIT = 20
BASE_DELAY_SETTING = "ticketflow_retry_base_delay_seconds"
DEFAULT_BASE_DELAY = 5

logger = logging.getLogger(__name__)

#: Applies the event's effect; returns False when the event had already taken effect.
NotificationHandler = Callable[[EventEnvelope], object]
DeadLetterReason = Literal["poison_message", "permanent_failure", "retries_exhausted"]


class DeadLetterHandler(Protocol):
    """Records a delivery we gave up on and returns the dead letter's id."""

    def __call__(
        self,
        *,
        event: Any,
        event_id: str | None,
        reason: str,
        attempts: int,
        error: str,
        cause: BaseException | None,
    ) -> str: ...


# -- 1. one delivery attempt, without Celery ---------------------------------------------
@dataclass(frozen=True)
class Dispatched:
    """The effect was applied, now, for the first time."""

    event_id: str
    status: ClassVar[str] = "dispatched"


@dataclass(frozen=True)
class Duplicate:
    """The event had already taken effect: nothing changed (a redelivery or a retry)."""

    event_id: str
    status: ClassVar[str] = "duplicate"


@dataclass(frozen=True)
class RetryLater:
    """A transient failure: try again in ``countdown_seconds``."""

    event_id: str
    countdown_seconds: int
    error: Exception
    status: ClassVar[str] = "retry"


@dataclass(frozen=True)
class DeadLettered:
    """We stop trying: the event goes to the dead-letter sink, for a person to look at.

    ``event_id`` is None for a poison message (its body has no usable id).
    """

    event_id: str | None
    reason: DeadLetterReason
    error: Exception
    status: ClassVar[str] = "dead_lettered"


DeliveryOutcome = Dispatched | Duplicate | RetryLater | DeadLettered


def deliver(
    event: object,
    *,
    handler: NotificationHandler,
    policy: BoundedRetryPolicy,
    retries_so_far: int,
    soft_time_limit: tuple[type[BaseException], ...] = (),
) -> DeliveryOutcome:
    """Deliver ``event`` once and say what should happen next.

    ``event`` is the task's argument as it arrived (a dict, if the producer behaved).
    ``soft_time_limit``: the exception types that announce the soft time limit (the task
    passes Celery's ``SoftTimeLimitExceeded``). Reaching it means a dependency stalled:
    waiting may fix that, so it counts as a ``RetryableTaskError``.
    """
    try:
        envelope = EventEnvelope.from_dict(event)
    except (TypeError, ValueError) as error:
        return DeadLettered(None, "poison_message", error)
    try:
        applied = handler(envelope)
    except Exception as error:
        if isinstance(error, soft_time_limit):
            logger.warning("deliver_notification soft time limit exceeded: %r", error)
            judged: BaseException = RetryableTaskError(f"soft time limit exceeded: {error!r}")
        else:
            judged = error
        decision = policy.decision(judged, retries_so_far=retries_so_far)
        if decision.retry:
            assert decision.countdown_seconds is not None  # RetryDecision guarantees it
            return RetryLater(envelope.event_id, decision.countdown_seconds, error)
        exhausted = isinstance(judged, RetryableTaskError)
        reason: DeadLetterReason = "retries_exhausted" if exhausted else "permanent_failure"
        return DeadLettered(envelope.event_id, reason, error)
    if applied is False:
        return Duplicate(envelope.event_id)
    return Dispatched(envelope.event_id)


# -- 2. the Celery task --------------------------------------------------------------------
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
    app: Celery,
    *,
    notification_handler: NotificationHandler | None = None,
    dead_letter_handler: DeadLetterHandler | None = None,
    attempt_observer: AttemptObserver | None = None,
) -> Task:
    """Register ``deliver_notification`` on ``app`` and return the task.

    Limits and the retry bound can be changed per deployment through Celery's own
    ``task_annotations`` (the same code path runs); the base delay of the backoff through
    ``app.conf.ticketflow_retry_base_delay_seconds`` (default 5).
    """
    if notification_handler is None:
        raise ValueError("notification_handler is required: it applies the event's effect")
    if dead_letter_handler is None:
        raise ValueError("dead_letter_handler is required: failed deliveries must go somewhere")
    # Celery is loaded here (the caller built ``app``); importing this module never loads it.
    from celery.exceptions import SoftTimeLimitExceeded

    handler, dead_letters = notification_handler, dead_letter_handler
    observe = _safe_observer(attempt_observer)

    @app.task(  # type: ignore[untyped-decorator]
        name=TASK_NAME,
        bind=True,
        acks_late=True,  # ACK after the task returns: a worker that dies loses nothing
        max_retries=DEFAULT_MAX_RETRIES,
        soft_time_limit=DEFAULT_SOFT_TIME_LIMIT,
        time_limit=DEFAULT_TIME_LIMIT,
        # Registered on this app only: otherwise every app created later in the process
        # is offered this app's task (bound to this app's database) under the same name.
        shared=False,
    )
    def deliver_notification(task: Task, event: dict[str, Any]) -> dict[str, Any]:
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
            base_delay_seconds=int(app.conf.get(BASE_DELAY_SETTING) or DEFAULT_BASE_DELAY),
        )
        outcome = deliver(
            event,
            handler=handler,
            policy=policy,
            retries_so_far=run.retries,
            soft_time_limit=(SoftTimeLimitExceeded,),
        )
        match outcome:
            case RetryLater(event_id, countdown, error):
                observe(run.attempt(event_id, outcome, countdown_seconds=countdown, error=error))
                raise task.retry(exc=error, countdown=countdown, max_retries=task.max_retries)
            case DeadLettered(event_id, reason, error):
                letter_id = dead_letters(
                    event=event,
                    event_id=event_id,
                    reason=reason,
                    attempts=run.retries + 1,
                    error=str(error),
                    cause=error,
                )
                shown_id = event_id or _raw_event_id(event)
                logger.warning(
                    "deliver_notification dead-lettered event_id=%s reason=%s attempts=%d error=%s",
                    shown_id,
                    reason,
                    run.retries + 1,
                    error,
                )
                observe(run.attempt(shown_id, outcome, reason=reason, error=error))
                return {"event_id": shown_id, "status": outcome.status, "dead_letter_id": letter_id}
            case Dispatched(event_id) | Duplicate(event_id):
                logger.info("deliver_notification %s event_id=%s", outcome.status, event_id)
                observe(run.attempt(event_id, outcome))
                return {"event_id": event_id, "status": outcome.status}

    _dead_letter_hard_time_limits(app, dead_letters, observe)
    return deliver_notification


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
        event_id: str,
        outcome: DeliveryOutcome,
        *,
        reason: str | None = None,
        countdown_seconds: int | None = None,
        error: BaseException | str | None = None,
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


def _safe_observer(observer: AttemptObserver | None) -> Callable[[DeliveryAttempt], None]:
    """``observer``, made harmless: an observer must never change the delivery's outcome."""

    def observe(attempt: DeliveryAttempt) -> None:
        if observer is None:
            return
        try:
            observer(attempt)
        except Exception:
            logger.exception("attempt observer failed for event %s", attempt.event_id)

    return observe


# -- 3. the hard time limit ----------------------------------------------------------------
def _dead_letter_hard_time_limits(
    app: Celery, dead_letters: DeadLetterHandler, observe: Callable[[DeliveryAttempt], None]
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
    from celery import signals  # loaded already: ``app`` is a Celery app
    from celery.exceptions import TimeLimitExceeded

    handled: dict[str, None] = {}

    def on_task_failure(
        sender: Task | None = None,
        task_id: str | None = None,
        exception: BaseException | None = None,
        args: Any = None,
        kwargs: Any = None,
        **_: Any,
    ) -> None:
        if getattr(sender, "name", None) != TASK_NAME or getattr(sender, "app", None) is not app:
            return
        if not isinstance(exception, TimeLimitExceeded) or task_id is None:
            return
        if task_id in handled:
            return
        handled[task_id] = None
        while len(handled) > 1024:
            handled.pop(next(iter(handled)))
        request = sender.request  # type: ignore[union-attr]  # the name check found a task
        has_context = request is not None and request.id == task_id
        retries = int(request.retries or 0) if has_context else 0
        delivery_info = (request.delivery_info or {}) if has_context else {}
        event = args[0] if args else (kwargs or {}).get("event")
        event_id = _raw_event_id(event)
        error = f"hard time limit exceeded: {exception!r}"
        try:
            dead_letters(
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
                outcome=DeadLettered.status,
                reason="permanent_failure",
                error=error,
            )
        )

    # Weakly connected, kept alive by the app: the receiver goes when the app goes.
    app._ticketflow_on_task_failure = on_task_failure
    signals.task_failure.connect(on_task_failure, weak=True)


def _raw_event_id(event: object) -> str:
    """The event's id for a log line, even from a body that is not a valid envelope."""
    if isinstance(event, dict):
        candidate = event.get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return "unknown"


def _text(value: object) -> str | None:
    return None if value is None else str(value)
