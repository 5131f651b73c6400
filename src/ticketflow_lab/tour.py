"""``python -m ticketflow_lab tour``: the embedded default, end to end, no server.

An eager Celery app and an in-memory SQLite database: every path of
``deliver_notification`` once (dispatched, duplicate, poison message, permanent failure,
retries exhausted), the attempts the task made, and the rows left behind. Eager mode runs
retries at once (the countdowns are recorded, not waited for) and has no broker, so it
cannot show redelivery or time limits: ``worker-loss`` and ``time-limits`` show those on a
real worker.
"""

from __future__ import annotations

from collections.abc import Callable

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.tasks import DeliveryAttempt, RetryableTaskError

Handler = Callable[[EventEnvelope], bool]


def _failing_for(event_ids: dict[str, Exception]) -> Callable[[Handler], Handler]:
    """Wrap the real handler so chosen events fail the way a broken dependency would."""

    def wrap(real: Handler) -> Handler:
        def handler(envelope: EventEnvelope) -> bool:
            error = event_ids.get(envelope.event_id)
            if error is not None:
                raise error
            return real(envelope)

        return handler

    return wrap


def run_tour(say: Callable[[str], object] = print) -> int:
    import logging

    # The task's log lines say the same as the tables below; keep the terminal readable.
    logger = logging.getLogger("ticketflow")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        return _tour(say)
    finally:
        logger.setLevel(level)


def _tour(say: Callable[[str], object]) -> int:
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from ticketflow.db import BusinessTask, DeadLetter, NotificationReceipt
    from ticketflow.workers.bootstrap import build_notification_service

    attempts: list[DeliveryAttempt] = []
    service = build_notification_service(
        broker_url=None,
        database_url="sqlite://",
        eager=True,
        attempt_observer=attempts.append,
        wrap_handler=_failing_for(
            {
                "evt-gateway-down": RetryableTaskError("notification gateway timed out"),
                "evt-bad-assignee": LookupError("assignee 'nobody' does not exist"),
            }
        ),
    )
    ticket = EventEnvelope("evt-1001", "ticket.assigned", {"ticket_id": 1001, "to": "li.lei"})
    deliveries: list[tuple[str, object]] = [
        ("first delivery", ticket.to_dict()),
        ("same event again (a redelivery)", ticket.to_dict()),
        ("a body that is not an envelope", {"event_id": "evt-poison", "payload": "??"}),
        (
            "handler raises a permanent error",
            EventEnvelope("evt-bad-assignee", "ticket.assigned", {"ticket_id": 7}).to_dict(),
        ),
        (
            "dependency keeps timing out",
            EventEnvelope("evt-gateway-down", "ticket.assigned", {"ticket_id": 8}).to_dict(),
        ),
    ]
    say("ticketflow tour — eager Celery app + in-memory SQLite (no server)\n")
    for label, body in deliveries:
        result = service.deliver_notification.delay(body).get()
        say(f"{label:<36} -> {result['status']:<14} {result.get('dead_letter_id', '')}")
    say("\nattempts (eager mode records each countdown but runs the retry at once):")
    say(f"  {'event':<18} {'retries':>7}  {'outcome':<14} {'reason / countdown'}")
    for attempt in attempts:
        detail = attempt.reason or (
            f"retry in {attempt.countdown_seconds}s" if attempt.countdown_seconds else ""
        )
        say(f"  {attempt.event_id:<18} {attempt.retries:>7}  {attempt.outcome:<14} {detail}")
    with Session(service.engine) as session:
        receipts = session.scalar(select(func.count()).select_from(NotificationReceipt))
        tasks = session.scalar(select(func.count()).select_from(BusinessTask))
        letters = session.execute(
            select(
                DeadLetter.reason, DeadLetter.event_id, DeadLetter.attempts, DeadLetter.body
            ).order_by(DeadLetter.created_at)
        ).all()
    say(f"\nreceipts: {receipts}   business tasks: {tasks}   dead letters: {len(letters)}")
    for reason, event_id, count, body in letters:
        say(f"  {reason:<18} event={event_id or '-':<18} attempts={count}  body={body}")
    say(
        "\nnext: the lessons in lessons/, `grader list`, and on real services "
        "`python -m ticketflow_lab worker-loss`."
    )
    service.engine.dispose()
    return 0
