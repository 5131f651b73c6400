"""What the database says happened to each event: receipts, business tasks, dead letters.

This is the ground truth the timeline is checked against: "nothing lost, nothing doubled"
means one receipt and one business task per deliverable event, and exactly one dead
letter (with the original body) per event that cannot be delivered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ticketflow_lab.timeline import render_table

# What a plan expects to find at the end, per event.
EXPECT_EFFECT = "effect"


@dataclass(frozen=True)
class DeadLetterFact:
    reason: str
    body: str
    attempts: int
    error_type: str
    error: str


@dataclass(frozen=True)
class EventFacts:
    receipts: int = 0
    business_tasks: int = 0
    dead_letters: tuple[DeadLetterFact, ...] = ()

    def meets(self, expect: str) -> bool:
        if expect == EXPECT_EFFECT:
            return self.receipts == 1 and self.business_tasks == 1 and not self.dead_letters
        return (
            self.receipts == 0
            and self.business_tasks == 0
            and [letter.reason for letter in self.dead_letters] == [expect]
        )


def collect_facts(database_url: str, event_ids: Iterable[str]) -> dict[str, EventFacts]:
    """Count receipts, business tasks and dead letters per event id."""
    from sqlalchemy import func, select

    from ticketflow.db.engine import create_engine_from_url
    from ticketflow.db.models import BusinessTask, DeadLetter, NotificationReceipt

    wanted = list(event_ids)
    engine = create_engine_from_url(database_url)
    try:
        with engine.connect() as connection:

            def counts(model: Any) -> dict[str, int]:
                statement = (
                    select(model.event_id, func.count())
                    .where(model.event_id.in_(wanted))
                    .group_by(model.event_id)
                )
                return {event_id: count for event_id, count in connection.execute(statement)}

            receipts = counts(NotificationReceipt)
            tasks = counts(BusinessTask)
            letters: dict[str, list[DeadLetterFact]] = {}
            statement = (
                select(DeadLetter)
                .where(DeadLetter.event_id.in_(wanted))
                .order_by(DeadLetter.created_at)
            )
            for row in connection.execute(statement).mappings():
                letters.setdefault(row["event_id"], []).append(
                    DeadLetterFact(
                        reason=row["reason"],
                        body=row["body"],
                        attempts=row["attempts"],
                        error_type=row["error_type"],
                        error=row["error"],
                    )
                )
    finally:
        engine.dispose()
    return {
        event_id: EventFacts(
            receipts=receipts.get(event_id, 0),
            business_tasks=tasks.get(event_id, 0),
            dead_letters=tuple(letters.get(event_id, ())),
        )
        for event_id in wanted
    }


def render_facts(facts: Mapping[str, EventFacts], expectations: Sequence[tuple[str, str]]) -> str:
    """Per event: what was expected, what the database holds, and whether they match."""
    header = ["event", "expected", "receipts", "business tasks", "dead letters", "ok"]
    rows = []
    for event_id, expect in expectations:
        fact = facts.get(event_id, EventFacts())
        reasons = Counter(letter.reason for letter in fact.dead_letters)
        letters = ", ".join(f"{reason} x{count}" for reason, count in reasons.items()) or "-"
        rows.append(
            [
                event_id,
                expect,
                str(fact.receipts),
                str(fact.business_tasks),
                letters,
                "yes" if fact.meets(expect) else "NO",
            ]
        )
    return "\n".join(render_table(header, rows))
