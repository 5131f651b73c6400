"""Wire the pieces together at the edge: app + database + task, for one process.

Lessons, the demo and the real worker all start here, so they run the same code.
Importing this module stays cheap: Celery and SQLAlchemy are imported when a service is
built (their types are for the type checker only).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.tasks import AttemptObserver

if TYPE_CHECKING:
    from celery import Celery, Task
    from sqlalchemy import Engine

    from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
    from ticketflow.notifications.unit_of_work import SqlAlchemyEffectTransaction

HandlerWrapper = Callable[[Callable[[EventEnvelope], bool]], Callable[[EventEnvelope], object]]


@dataclass
class NotificationService:
    """Everything a process needs to deliver notifications."""

    app: Celery
    engine: Engine
    transaction: SqlAlchemyEffectTransaction
    dead_letters: SqlAlchemyDeadLetterSink
    deliver_notification: Task


def build_notification_service(
    *,
    broker_url: str | None = None,
    database_url: str | None = None,
    eager: bool | None = None,
    attempt_observer: AttemptObserver | None = None,
    wrap_handler: HandlerWrapper | None = None,
    **app_settings: Any,
) -> NotificationService:
    """Create the app and the engine, create the schema, register the task.

    ``wrap_handler`` lets a demo or test put something between the task and the real
    effect (for example a dependency that fails transiently) without changing the task.
    """
    from ticketflow.db.engine import create_engine_from_url, create_schema
    from ticketflow.notifications.effects import (
        SqlAlchemyDeadLetterSink,
        SqlAlchemyEffectTransaction,
        make_notification_handler,
    )
    from ticketflow.workers.app import create_app
    from ticketflow.workers.tasks import register_tasks

    engine = create_engine_from_url(database_url)
    create_schema(engine)
    transaction = SqlAlchemyEffectTransaction(engine)
    handler: Callable[[EventEnvelope], object] = make_notification_handler(transaction)
    if wrap_handler is not None:
        handler = wrap_handler(make_notification_handler(transaction))
    dead_letters = SqlAlchemyDeadLetterSink(SqlAlchemyEffectTransaction(engine))
    app = create_app(broker_url, eager=eager, **app_settings)
    task = register_tasks(
        app,
        notification_handler=handler,
        dead_letter_handler=dead_letters,
        attempt_observer=attempt_observer,
    )
    return NotificationService(app, engine, transaction, dead_letters, task)
