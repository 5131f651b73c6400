"""The four tables of the course.

* ``NotificationReceipt`` — "this event has taken effect"; ``event_id`` is UNIQUE, and that
  constraint (not a cache, not the result backend) is what decides duplicates.
* ``BusinessTask`` — the auditable effect itself: one row per notified event. It has no
  unique key of its own on purpose, so a wrong implementation *can* duplicate it, and the
  lessons can show that happening.
* ``DeadLetter`` — a delivery we gave up on, with the original body kept verbatim.
* ``OutboxMessage`` — an event waiting to be published (transactional outbox).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import JSON, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ticketflow.db.base import Base


def _now() -> datetime:
    return datetime.now(UTC)


class NotificationReceipt(Base):
    __tablename__ = "notification_receipts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(200), unique=True, nullable=False)
    event_type: Mapped[str] = mapped_column(String(200), nullable=False)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"NotificationReceipt(event_id={self.event_id!r})"


class BusinessTask(Base):
    __tablename__ = "business_tasks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(200), index=True, nullable=False)
    event_type: Mapped[str] = mapped_column(String(200), nullable=False)
    payload: Mapped[dict[str, object]] = mapped_column(JSON, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"BusinessTask(id={self.id!r}, event_id={self.event_id!r})"


class DeadLetter(Base):
    __tablename__ = "dead_letters"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # One dead letter per (reason, event) — or per body when the body has no usable id —
    # so a redelivered poison message does not produce a second row.
    dedupe_key: Mapped[str] = mapped_column(String(64), unique=True, nullable=False)
    event_id: Mapped[str | None] = mapped_column(String(200), index=True)
    reason: Mapped[str] = mapped_column(String(40), nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False)
    attempts: Mapped[int] = mapped_column(Integer, nullable=False)
    error: Mapped[str] = mapped_column(Text, nullable=False)
    error_type: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"DeadLetter(reason={self.reason!r}, event_id={self.event_id!r})"


class OutboxMessage(Base):
    __tablename__ = "outbox_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(200), unique=True, nullable=False)
    event_type: Mapped[str] = mapped_column(String(200), nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, default=0)

    def __repr__(self) -> str:
        return f"OutboxMessage(event_id={self.event_id!r}, sent={self.sent_at is not None})"
