"""Database helpers for tests: schema-ready engines and row counts."""

from __future__ import annotations

from sqlalchemy import Engine, func, select
from sqlalchemy.orm import Session

from ticketflow.db import BusinessTask, DeadLetter, NotificationReceipt, OutboxMessage
from ticketflow.db.engine import create_engine_from_url, create_schema


def ready_engine(url: str = "sqlite://") -> Engine:
    engine = create_engine_from_url(url)
    create_schema(engine)
    return engine


def counts(engine: Engine, event_id: str | None = None) -> dict[str, int]:
    """Rows per table, optionally for one event."""
    result: dict[str, int] = {}
    with Session(engine) as session:
        for name, model in (
            ("receipts", NotificationReceipt),
            ("business_tasks", BusinessTask),
            ("dead_letters", DeadLetter),
            ("outbox", OutboxMessage),
        ):
            query = select(func.count()).select_from(model)
            if event_id is not None:
                query = query.where(model.event_id == event_id)
            result[name] = session.scalar(query) or 0
    return result
