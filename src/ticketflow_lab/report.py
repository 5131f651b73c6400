"""What a scenario hands back: the plan, the history, the facts, and a readable report."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ticketflow_lab.attempt_log import AttemptRecord
from ticketflow_lab.namespaces import QueueCounts
from ticketflow_lab.outcomes import EventFacts, render_facts
from ticketflow_lab.timeline import Action, Attempt, attempts_of, build_attempts, render_timeline

LEGEND = """\
  time         seconds since the demo started, in the order things happened: an attempt's
               row is at its outcome (or at its start when its process died first); a '>>'
               row is when the driver did or saw it
  tag          the broker's delivery tag (per channel: it starts again at 1 after a reconnect)
  redelivered  RabbitMQ's flag: this message was delivered before and not ACKed
  retries      Celery's request.retries: task retries only, a redelivery does not count
  pid          the pool process that ran the attempt; '>>' rows are what the driver did
"""


@dataclass(frozen=True)
class EventPlan:
    """One event of a scenario: its body and what must happen to it (its part in the story
    is a comment where the plan is written)."""

    event_id: str
    body: Any
    expect: str

    def compact_body(self) -> str:
        """The body as the dead-letter sink stores it (compact JSON)."""
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":"))


def envelope_body(event_id: str, **payload: Any) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "event_type": "ticket.assigned",
        "payload": {"ticket": event_id, **payload},
        "occurred_at": "2026-01-05T09:30:00+00:00",
        "schema_version": 1,
    }


@dataclass
class ScenarioResult:
    name: str
    plan: list[EventPlan]
    started_at: float
    records: list[AttemptRecord] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    facts: dict[str, EventFacts] = field(default_factory=dict)
    baseline: dict[str, Any] = field(default_factory=dict)
    readiness_seconds: list[float] = field(default_factory=list)
    queue_after: QueueCounts | None = None
    converged: bool = False
    task_ids: dict[str, str] = field(default_factory=dict)
    broken: str | None = None
    log_tail: str = ""
    log_path: Path | None = None
    error: str | None = None

    @property
    def attempts(self) -> list[Attempt]:
        return build_attempts(self.records)

    def attempts_of(self, event_id: str) -> list[Attempt]:
        return attempts_of(self.attempts, event_id)

    def timeline(self) -> str:
        return render_timeline(self.attempts, self.actions, started_at=self.started_at)

    def summary(self) -> str:
        return render_facts(self.facts, [(event.event_id, event.expect) for event in self.plan])

    def report(self, *, log_lines: int = 40, legend: bool = False) -> str:
        """Timeline, per-event facts and the worker log tail: for failure messages."""
        parts = [f"== {self.name}: timeline =="]
        if legend:
            parts.append(LEGEND)
        if self.broken:
            parts.append(f"(TEST-ONLY BROKEN VARIANT: {self.broken})")
        if self.error:
            parts.append(f"scenario stopped early: {self.error}")
        parts += [self.timeline(), "", "== database, per event ==", self.summary()]
        parts += [f"converged: {self.converged}; queue afterwards: {self.queue_after}"]
        if log_lines and self.log_tail:
            tail = "\n".join(self.log_tail.splitlines()[-log_lines:])
            parts += ["", f"== worker log (last {log_lines} lines) ==", tail]
        return "\n".join(parts)


class ScenarioFailed(RuntimeError):
    """A step of the scenario did not happen in time; ``result`` holds what did."""

    def __init__(self, message: str, result: ScenarioResult) -> None:
        super().__init__(message)
        self.result = result
