"""Wire the pieces together at the edge: app + database + task, for one process.

Lessons, the demo and the real worker all start here, so they run the same code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from celery import Celery, Task
from sqlalchemy import Engine

from ticketflow.db.engine import create_engine_from_url, create_schema
from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
from ticketflow.notifications.effects import make_notification_handler
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork
from ticketflow.workers.app import create_app
from ticketflow.workers.celery_task import register_tasks
from ticketflow.workers.tasks import AttemptObserver, NotificationHandler

__all__ = ["HandlerWrapper", "NotificationService", "build_notification_service"]

#: Puts something between the task and the real effect (a demo's failing dependency).
HandlerWrapper = Callable[[NotificationHandler], NotificationHandler]


@dataclass
class NotificationService:
    """Everything a process needs to deliver notifications."""

    app: Celery
    engine: Engine
    transaction: SqlAlchemyUnitOfWork
    dead_letters: SqlAlchemyDeadLetterSink
    deliver_notification: Task


def build_notification_service(
    *,
    broker_url: str | None = None,
    database_url: str | None = None,
    eager: bool | None = None,
    attempt_observer: AttemptObserver | None = None,
    wrap_handler: HandlerWrapper | None = None,
    **app_settings: object,
) -> NotificationService:
    """Create the app and the engine, create the schema, register the task.

    ``wrap_handler`` lets a demo or test put something between the task and the real
    effect (for example a dependency that fails transiently) without changing the task.
    """
    engine = create_engine_from_url(database_url)
    create_schema(engine)
    transaction = SqlAlchemyUnitOfWork(engine)
    handler = make_notification_handler(transaction)
    if wrap_handler is not None:
        handler = wrap_handler(handler)
    dead_letters = SqlAlchemyDeadLetterSink(SqlAlchemyUnitOfWork(engine))
    app = create_app(broker_url, eager=eager)
    app.conf.update(app_settings)  # Celery settings by name, after the course's own
    task = register_tasks(
        app,
        notification_handler=handler,
        dead_letter_handler=dead_letters,
        attempt_observer=attempt_observer,
    )
    return NotificationService(app, engine, transaction, dead_letters, task)
