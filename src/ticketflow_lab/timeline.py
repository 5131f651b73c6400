"""The delivery timeline: one row per attempt, with the driver's actions in between.

An attempt is a "started" record of a pool process, completed by the "received" record
before it (the broker's delivery tag, known only to the worker's main process) and by the
"outcome" after it. An attempt without an outcome is one whose process died before it
could report — the interesting rows of the worker-loss demo.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ticketflow_lab.attempt_log import AttemptRecord

TERMINAL_OUTCOMES = frozenset({"dispatched", "duplicate", "dead_lettered", "worker_lost_acked"})


@dataclass(frozen=True)
class Action:
    """Something the driver did or saw (kill, restart, pause...), shown between rows."""

    time: float
    text: str


@dataclass
class Attempt:
    time: float
    event_id: str
    task_id: str | None
    delivery_tag: str | None
    redelivered: bool | None
    retries: int | None
    pid: int | None
    outcome: str | None = None
    reason: str | None = None
    countdown_seconds: int | None = None
    error: str | None = None
    ended: float | None = None
    outcome_pid: int | None = None
    notes: list[str] = field(default_factory=list)

    def describe_outcome(self) -> str:
        if self.outcome is None:
            held = f" while {self.notes[-1]}" if self.notes else ""
            return f"— no outcome: process gone before ACK{held}"
        if self.outcome == "retry":
            return f"retry in {self.countdown_seconds}s ({self.error})"
        if self.outcome == "dead_lettered":
            where = (
                f", by main process {self.outcome_pid}"
                if self.outcome_pid not in (None, self.pid)
                else ""
            )
            return f"dead letter: {self.reason} ({self.error}{where})"
        if self.outcome == "worker_lost_acked":
            return f"pool process lost, message ACKed — not requeued ({self.error})"
        return self.outcome


def build_attempts(records: Iterable[AttemptRecord]) -> list[Attempt]:
    attempts: list[Attempt] = []
    received: dict[str, AttemptRecord] = {}
    open_by_task: dict[str, Attempt] = {}
    for record in sorted(records, key=lambda item: item.time):
        task_id = record.task_id or ""
        if record.kind == "received":
            received[task_id] = record
        elif record.kind == "started":
            delivery = received.get(task_id)
            attempt = Attempt(
                time=record.time,
                event_id=record.event_id,
                task_id=record.task_id,
                delivery_tag=delivery.delivery_tag if delivery else None,
                redelivered=record.redelivered,
                retries=record.retries,
                pid=record.pid,
            )
            attempts.append(attempt)
            open_by_task[task_id] = attempt
        elif record.kind == "holding":
            for attempt in reversed(attempts):
                if attempt.event_id == record.event_id and attempt.pid == record.pid:
                    attempt.notes.append(f"holding {(record.note or '').replace('_', ' ')}")
                    break
        elif record.kind == "outcome":
            opened = open_by_task.pop(task_id, None)
            attempt = opened or Attempt(
                time=record.time,
                event_id=record.event_id,
                task_id=record.task_id,
                delivery_tag=None,
                redelivered=record.redelivered,
                retries=record.retries,
                pid=record.pid,
            )
            if attempt not in attempts:
                attempts.append(attempt)
            attempt.outcome = record.outcome
            attempt.reason = record.reason
            attempt.countdown_seconds = record.countdown_seconds
            attempt.error = record.error
            attempt.ended = record.time
            attempt.outcome_pid = record.pid
    return attempts


def attempts_of(attempts: Iterable[Attempt], event_id: str) -> list[Attempt]:
    return [attempt for attempt in attempts if attempt.event_id == event_id]


def _cell(value: object) -> str:
    return "-" if value is None else str(value)


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [len(name) for name in header]
    for row in rows:
        for index, cell in enumerate(row[:-1]):
            widths[index] = max(widths[index], len(cell))

    def line(cells: Sequence[str]) -> str:
        padded = [cell.ljust(widths[index]) for index, cell in enumerate(cells[:-1])]
        return "  ".join([*padded, cells[-1]]).rstrip()

    rule = line(["-" * width for width in widths[:-1]] + ["-" * 7])
    return [line(header), rule, *map(line, rows)]


def render_timeline(
    attempts: Sequence[Attempt], actions: Sequence[Action], *, started_at: float
) -> str:
    """A readable table: time, event, delivery tag, redelivered, retries, pid, outcome.

    Rows are in the order things happened: an attempt at the time of its outcome (or of
    its start, when its process died before reporting one), a driver's action at the
    time it was done or seen.
    """
    header = ["time", "event", "tag", "redelivered", "retries", "pid", "outcome"]
    rows: list[tuple[float, int, list[str]]] = []
    for attempt in attempts:
        at = attempt.ended if attempt.ended is not None else attempt.time
        cells = [
            f"+{at - started_at:6.2f}s",
            attempt.event_id,
            _cell(attempt.delivery_tag),
            _cell(attempt.redelivered),
            _cell(attempt.retries),
            _cell(attempt.pid),
            attempt.describe_outcome(),
        ]
        rows.append((at, 1, cells))
    for action in actions:
        rows.append((action.time, 0, [f"+{action.time - started_at:6.2f}s", f">> {action.text}"]))
    rows.sort(key=lambda item: (item[0], item[1]))
    table_rows = [cells for _, kind, cells in rows if kind == 1]
    lines = render_table(header, table_rows)
    widths_line = lines[:2]
    body = iter(lines[2:])
    out = list(widths_line)
    for _, kind, cells in rows:
        out.append("  ".join(cells) if kind == 0 else next(body))
    return "\n".join(out)
