"""Test-only faults, injected around the real handler of a real worker, chosen by env.

The lab worker (``ticketflow_lab.worker_app``) reads these knobs; the demo and
the integration tests set them through ``FaultPlan.to_env()``. Nothing here is active
unless a ``TICKETFLOW_TEST_*`` variable is set, and the worker logs loudly when it is.

* hold gates: the handler of a chosen event waits — before or after the effect commits —
  until the driver creates a release file, so the driver can kill the worker at a known
  point before the late ACK;
* retryable events: the handler raises ``RetryableTaskError`` every time (a dependency
  that never comes back), which exercises the bounded retry and ``retries_exhausted``;
* a sink URL: the handler first POSTs to a small HTTP server the driver owns and can
  pause with SIGSTOP (a stalled dependency, for the time limits);
* broken variants (``TICKETFLOW_TEST_BREAK``): deliberately wrong configurations that the
  integration test must catch. Never set them outside such a check.
"""

from __future__ import annotations

import json
import logging
import os
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.policy import RetryableTaskError
from ticketflow_lab.attempt_log import AttemptLog

HOLD_BEFORE_EFFECT_ENV = "TICKETFLOW_TEST_HOLD_BEFORE_EFFECT"
HOLD_AFTER_EFFECT_ENV = "TICKETFLOW_TEST_HOLD_AFTER_EFFECT"
GATE_DIR_ENV = "TICKETFLOW_TEST_GATE_DIR"
RETRYABLE_EVENTS_ENV = "TICKETFLOW_TEST_RETRYABLE_EVENTS"
SINK_URL_ENV = "TICKETFLOW_TEST_SINK_URL"
BREAK_ENV = "TICKETFLOW_TEST_BREAK"

# Deliberately broken variants, for checking that the integration test catches them.
BROKEN_VARIANTS = {
    "acks_early": "acks_late=False: the message is ACKed when received, before the work",
    "no_receipts": "the handler writes the business task without the receipt check",
    "ack_on_worker_lost": "task_reject_on_worker_lost=False: a lost pool process ACKs",
}

HOLD_LIMIT_SECONDS = 120.0
SINK_TIMEOUT_SECONDS = 60.0

logger = logging.getLogger(__name__)

Handler = Callable[[EventEnvelope], bool]


def _ids(value: str | None) -> frozenset[str]:
    return frozenset(part.strip() for part in (value or "").split(",") if part.strip())


@dataclass(frozen=True)
class FaultPlan:
    hold_before_effect: frozenset[str] = frozenset()
    hold_after_effect: frozenset[str] = frozenset()
    retryable_events: frozenset[str] = frozenset()
    gate_dir: Path | None = None
    sink_url: str | None = None
    broken: str | None = None

    def __post_init__(self) -> None:
        if self.broken is not None and self.broken not in BROKEN_VARIANTS:
            raise ValueError(
                f"{BREAK_ENV}={self.broken!r} is not a known variant; "
                f"use one of {sorted(BROKEN_VARIANTS)}"
            )
        if (self.hold_before_effect or self.hold_after_effect) and self.gate_dir is None:
            raise ValueError(f"hold gates need {GATE_DIR_ENV}")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> FaultPlan:
        gate_dir = env.get(GATE_DIR_ENV)
        return cls(
            hold_before_effect=_ids(env.get(HOLD_BEFORE_EFFECT_ENV)),
            hold_after_effect=_ids(env.get(HOLD_AFTER_EFFECT_ENV)),
            retryable_events=_ids(env.get(RETRYABLE_EVENTS_ENV)),
            gate_dir=Path(gate_dir) if gate_dir else None,
            sink_url=env.get(SINK_URL_ENV) or None,
            broken=env.get(BREAK_ENV) or None,
        )

    def to_env(self) -> dict[str, str]:
        env = {
            HOLD_BEFORE_EFFECT_ENV: ",".join(sorted(self.hold_before_effect)),
            HOLD_AFTER_EFFECT_ENV: ",".join(sorted(self.hold_after_effect)),
            RETRYABLE_EVENTS_ENV: ",".join(sorted(self.retryable_events)),
            GATE_DIR_ENV: str(self.gate_dir) if self.gate_dir else "",
            SINK_URL_ENV: self.sink_url or "",
        }
        if self.broken:
            env[BREAK_ENV] = self.broken
        return env

    @property
    def wraps_handler(self) -> bool:
        return bool(
            self.hold_before_effect
            or self.hold_after_effect
            or self.retryable_events
            or self.sink_url
            or self.broken == "no_receipts"
        )

    def app_overrides(self) -> dict[str, Any]:
        """Celery settings the broken variants change (task options via annotations)."""
        if self.broken == "ack_on_worker_lost":
            return {"task_reject_on_worker_lost": False}
        return {}

    def task_annotations(self) -> dict[str, Any]:
        if self.broken == "acks_early":
            return {"acks_late": False}
        return {}


def release_path(gate_dir: Path, event_id: str) -> Path:
    """The file whose existence releases the hold gate of ``event_id``."""
    return gate_dir / f"release-{event_id}"


def make_handler_wrapper(
    plan: FaultPlan, *, database_url: str | None, attempt_log: AttemptLog | None
) -> Callable[[Handler], Handler]:
    """A ``wrap_handler`` for ``build_notification_service`` that injects ``plan``."""

    def wrap(real_handler: Handler) -> Handler:
        apply = real_handler
        if plan.broken == "no_receipts":
            apply = _effect_without_receipt_check(database_url)

        def handle(envelope: EventEnvelope) -> bool:
            event_id = envelope.event_id
            if plan.sink_url:
                _notify_sink(plan.sink_url, event_id)
            if event_id in plan.retryable_events:
                raise RetryableTaskError(f"injected: dependency unavailable for {event_id}")
            if event_id in plan.hold_before_effect:
                _hold(plan, event_id, "before_effect", attempt_log)
            applied = apply(envelope)
            if event_id in plan.hold_after_effect:
                _hold(plan, event_id, "after_effect", attempt_log)
            return applied

        return handle

    return wrap


def _hold(plan: FaultPlan, event_id: str, stage: str, attempt_log: AttemptLog | None) -> None:
    assert plan.gate_dir is not None  # checked in FaultPlan.__post_init__
    release = release_path(plan.gate_dir, event_id)
    if release.exists():
        return
    if attempt_log is not None:
        attempt_log.record("holding", event_id, note=stage)
    logger.warning("test gate holding event_id=%s stage=%s pid=%d", event_id, stage, os.getpid())
    deadline = time.monotonic() + HOLD_LIMIT_SECONDS
    while not release.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    logger.warning("test gate released event_id=%s stage=%s", event_id, stage)


def _notify_sink(url: str, event_id: str) -> None:
    """POST to the driver's sink; blocks for as long as the sink is paused."""
    body = json.dumps({"event_id": event_id}).encode("utf-8")
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=SINK_TIMEOUT_SECONDS) as response:
        response.read()


def _effect_without_receipt_check(database_url: str | None) -> Handler:
    """BROKEN on purpose: the effect is written whether or not the receipt already exists."""
    engine: Any = None

    def apply(envelope: EventEnvelope) -> bool:
        nonlocal engine
        from ticketflow.db.engine import create_engine_from_url
        from ticketflow.db.models import BusinessTask
        from ticketflow.notifications.effects import insert_receipt
        from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork

        if engine is None:  # created in the pool process that uses it
            engine = create_engine_from_url(database_url)
        with SqlAlchemyUnitOfWork(engine) as uow:
            insert_receipt(uow.session, envelope)  # result ignored: that is the bug
            uow.session.add(
                BusinessTask(
                    event_id=envelope.event_id,
                    event_type=envelope.event_type,
                    payload=dict(envelope.payload),
                )
            )
            uow.commit()
        return True

    return apply
