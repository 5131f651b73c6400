"""One delivery of a notification, without Celery: the pure part of the task.

Read this module from the top:

1. ``deliver`` is one delivery attempt as a plain function. The event as the broker handed
   it over, the handler that applies its effect, the retry policy and the number of retries
   already done go in; a ``DeliveryOutcome`` comes out: ``Dispatched``, ``Duplicate``,
   ``RetryLater`` (with its countdown) or ``DeadLettered`` (with its reason). It knows
   nothing about Celery, so every branch is a one-line unit test.
2. ``DeliveryPorts`` is what the Celery task talks to (the handler, the dead-letter sink,
   an observer), and ``DeliveryAttempt`` what an observer sees of one run.

The Celery task itself, ``deliver_notification``, is at the edge, in
``ticketflow.workers.celery_task``: it only translates a ``DeliveryOutcome`` into
``task.retry(countdown=...)``, a dead letter or a result.

Three ways the same event runs again, and how the task tells them apart:

* **broker redelivery**: the worker died before the late ACK; the broker hands the same
  delivery out again (``delivery_info["redelivered"]`` on RabbitMQ). ``request.retries`` is
  NOT increased: it is not a Celery retry.
* **task retry**: the handler raised ``RetryableTaskError``; the task itself schedules the
  next attempt with ``retry(countdown=...)``, bounded by ``max_retries``.
* **poison message**: the body is not a valid envelope; no amount of waiting fixes it, so
  it is dead-lettered at once with the original body.

Light like the policy it re-exports: only the standard library, the envelope and the policy
are imported, so a probe that imports the course's names from here starts in milliseconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal, NotRequired, Protocol, TypedDict

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.policy import (
    BoundedRetryPolicy,
    DeadLetterReason,
    RetryableTaskError,
    RetryDecision,
)

# The course imports the policy's names from here (EX-11-01): they are defined in
# ``ticketflow.workers.policy``.
__all__ = [
    "TASK_NAME",
    "AttemptObserver",
    "BoundedRetryPolicy",
    "DeadLetterHandler",
    "DeadLettered",
    "DeliveryAttempt",
    "DeliveryOutcome",
    "DeliveryPorts",
    "DeliveryResult",
    "DeliveryStatus",
    "Dispatched",
    "Duplicate",
    "NotificationHandler",
    "RetryDecision",
    "RetryLater",
    "RetryableTaskError",
    "deliver",
]

#: The name the task is registered under, the course's (its function is in ``celery_task``).
TASK_NAME = "ticketflow.workers.tasks.deliver_notification"
DEFAULT_MAX_RETRIES = 3
DEFAULT_SOFT_TIME_LIMIT = 15
DEFAULT_TIME_LIMIT = 20
BASE_DELAY_SETTING = "ticketflow_retry_base_delay_seconds"
DEFAULT_BASE_DELAY = 5

logger = logging.getLogger(__name__)

#: Applies the event's effect: True the first time, False when it had already taken effect.
NotificationHandler = Callable[[EventEnvelope], bool]

#: What became of one delivery (``DeliveryAttempt.outcome``, the task's ``"status"``).
DeliveryStatus = Literal["dispatched", "duplicate", "retry", "dead_lettered"]


class DeadLetterHandler(Protocol):
    """Records a delivery we gave up on and returns the dead letter's id."""

    def __call__(
        self,
        *,
        event: object,
        event_id: str | None,
        reason: DeadLetterReason,
        attempts: int,
        error: str,
        cause: BaseException | None,
    ) -> str: ...


# -- 1. one delivery attempt ------------------------------------------------------------
@dataclass(frozen=True)
class Dispatched:
    """The effect was applied, now, for the first time."""

    event_id: str
    status: ClassVar[DeliveryStatus] = "dispatched"


@dataclass(frozen=True)
class Duplicate:
    """The event had already taken effect: nothing changed (a redelivery or a retry)."""

    event_id: str
    status: ClassVar[DeliveryStatus] = "duplicate"


@dataclass(frozen=True)
class RetryLater:
    """A transient failure: try again in ``countdown_seconds``."""

    event_id: str
    countdown_seconds: int
    error: Exception
    status: ClassVar[DeliveryStatus] = "retry"


@dataclass(frozen=True)
class DeadLettered:
    """We stop trying: the event goes to the dead-letter sink, for a person to look at.

    ``event_id`` is None for a poison message (its body has no usable id).
    """

    event_id: str | None
    reason: DeadLetterReason
    error: Exception
    status: ClassVar[DeliveryStatus] = "dead_lettered"


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

    A ``RetryDecision`` carries a countdown exactly when it retries (see its docstring), so
    the countdown is what decides between ``RetryLater`` and ``DeadLettered``.
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
        if decision.countdown_seconds is not None:  # exactly when decision.retry
            return RetryLater(envelope.event_id, decision.countdown_seconds, error)
        exhausted = isinstance(judged, RetryableTaskError)
        reason: DeadLetterReason = "retries_exhausted" if exhausted else "permanent_failure"
        return DeadLettered(envelope.event_id, reason, error)
    return Duplicate(envelope.event_id) if applied is False else Dispatched(envelope.event_id)


# -- 2. what the Celery task talks to -----------------------------------------------------
@dataclass(frozen=True)
class DeliveryAttempt:
    """One run of the task, as an observer sees it (for timelines and tests).

    ``event_id`` is None when the body carried no usable id (a poison message).
    """

    event_id: str | None
    task_id: str | None
    retries: int
    redelivered: bool | None
    delivery_tag: str | None
    outcome: DeliveryStatus
    reason: DeadLetterReason | None = None
    countdown_seconds: int | None = None
    error: str | None = None


AttemptObserver = Callable[[DeliveryAttempt], object]


class DeliveryResult(TypedDict):
    """What the task returns (its result, when a result backend keeps one)."""

    event_id: str | None
    status: DeliveryStatus
    dead_letter_id: NotRequired[str]


@dataclass(frozen=True)
class DeliveryPorts:
    """What ``deliver_notification`` talks to, handed over when the task is registered."""

    handler: NotificationHandler
    dead_letters: DeadLetterHandler
    observer: AttemptObserver | None = None

    def observe(self, attempt: DeliveryAttempt) -> None:
        """Tell the observer, if any; an observer never changes the delivery's outcome."""
        if self.observer is None:
            return
        try:
            self.observer(attempt)
        except Exception:
            logger.exception("attempt observer failed for event %s", attempt.event_id)
