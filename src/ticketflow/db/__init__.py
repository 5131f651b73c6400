"""Typed SQLAlchemy models and the engine/session factories.

Importing this package defines tables; it never creates an engine or connects.
"""

from ticketflow.db.base import Base
from ticketflow.db.engine import (
    create_engine_from_url,
    create_schema,
    create_session_factory,
    database_url,
)
from ticketflow.db.models import BusinessTask, DeadLetter, NotificationReceipt, OutboxMessage

__all__ = [
    "Base",
    "BusinessTask",
    "DeadLetter",
    "NotificationReceipt",
    "OutboxMessage",
    "create_engine_from_url",
    "create_schema",
    "create_session_factory",
    "database_url",
]
