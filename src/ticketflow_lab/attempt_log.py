"""The attempt history as JSON lines: worker processes append, the driver reads.

Every process of the worker (the main process and its pool children) appends to one file
with ``O_APPEND`` and one ``write`` per record, so lines from different processes never
interleave. A process killed mid-write leaves at most a torn last line, which ``read``
skips. A file (not a database table) on purpose: the history must survive exactly the
failures the demo provokes, including a database that is unreachable.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ticketflow.workers.tasks import DeliveryAttempt

ATTEMPT_LOG_ENV = "TICKETFLOW_ATTEMPT_LOG"
_MAX_TEXT = 300

# What a record says happened. "received": the worker's main process got a delivery from
# the broker (the only place the broker's delivery tag is known). "started": a pool
# process began running the task. "holding": a test gate is holding the handler.
# "outcome": how the attempt ended, as the task (or the main process) reported it.
RECORD_KINDS = ("received", "started", "holding", "outcome")


@dataclass(frozen=True)
class AttemptRecord:
    kind: str
    time: float
    pid: int
    event_id: str
    task_id: str | None = None
    delivery_tag: str | None = None
    redelivered: bool | None = None
    retries: int | None = None
    outcome: str | None = None
    reason: str | None = None
    countdown_seconds: int | None = None
    error: str | None = None
    note: str | None = None

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> AttemptRecord:
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in document.items() if key in known})


class AttemptLog:
    """Append-only JSON-lines file of ``AttemptRecord``s."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def append(self, record: AttemptRecord) -> None:
        data = (json.dumps(asdict(record), ensure_ascii=False) + "\n").encode("utf-8")
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, data)
        finally:
            os.close(descriptor)

    def record(self, kind: str, event_id: str, **details: Any) -> None:
        if kind not in RECORD_KINDS:
            raise ValueError(f"unknown record kind {kind!r}; use one of {RECORD_KINDS}")
        for key in ("error", "note"):
            if isinstance(details.get(key), str):
                details[key] = details[key][:_MAX_TEXT]
        record = AttemptRecord(
            kind=kind, time=time.time(), pid=os.getpid(), event_id=event_id, **details
        )
        self.append(record)

    def observe(self, attempt: DeliveryAttempt) -> None:
        """An ``attempt_observer`` for ``register_tasks``: one "outcome" record."""
        self.record(
            "outcome",
            attempt.event_id or "",  # "": the body had no usable event id
            task_id=attempt.task_id,
            delivery_tag=attempt.delivery_tag,
            redelivered=attempt.redelivered,
            retries=attempt.retries,
            outcome=attempt.outcome,
            reason=attempt.reason,
            countdown_seconds=attempt.countdown_seconds,
            error=attempt.error,
        )

    def read(self) -> list[AttemptRecord]:
        """Every complete record, in file order (a torn last line is skipped)."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        records = []
        for line in raw.splitlines():
            try:
                document = json.loads(line)
            except ValueError:
                continue
            if isinstance(document, dict):
                records.append(AttemptRecord.from_dict(document))
        return records
