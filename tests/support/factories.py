"""Factories for ticketflow inputs used across the test suite."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from ticketflow.messaging.envelope import EventEnvelope

_counter = itertools.count(1)


def make_envelope(
    event_id: str | None = None,
    *,
    event_type: str = "ticket.assigned",
    payload: dict[str, Any] | None = None,
    occurred_at: datetime | None = None,
) -> EventEnvelope:
    number = next(_counter)
    return EventEnvelope(
        event_id=event_id or f"evt-{number:06d}",
        event_type=event_type,
        payload=payload if payload is not None else {"ticket_id": number, "assignee": "li.lei"},
        occurred_at=occurred_at or datetime(2026, 11, 30, 8, 0, tzinfo=UTC),
    )


def make_event_dict(event_id: str | None = None, **kwargs: Any) -> dict[str, Any]:
    return make_envelope(event_id, **kwargs).to_dict()
