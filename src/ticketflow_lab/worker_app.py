"""The lab's worker: ``celery -A ticketflow_lab.worker_app worker``.

The production worker (``ticketflow.workers.celery_worker``) plus what only a lab needs,
read from the environment of the worker process the driver starts:

* ``TICKETFLOW_ATTEMPT_LOG`` — a JSON-lines file for the attempt history
  (``ticketflow_lab.attempt_log``): received / started / outcome records from the main
  process and the pool processes;
* ``TICKETFLOW_TEST_*`` — fault injection (``ticketflow_lab.fault_injection``): hold
  gates, retryable events, a pausable sink, and the deliberately broken variants.

Importing this module does nothing; ``app`` is built on first access, like the
production module's.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from ticketflow.workers.bootstrap import NotificationService
from ticketflow.workers.celery_worker import build_worker_service, check_urls, worker_settings
from ticketflow_lab.attempt_log import ATTEMPT_LOG_ENV, AttemptLog
from ticketflow_lab.fault_injection import BROKEN_VARIANTS, FaultPlan, make_handler_wrapper

logger = logging.getLogger(__name__)

_service: NotificationService | None = None


def __getattr__(name: str) -> Any:
    if name == "app":
        return get_service().app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_service() -> NotificationService:
    """The process-wide lab service, built from ``os.environ`` on first use."""
    global _service
    if _service is None:
        _service = build_lab_worker_service(os.environ)
    return _service


def lab_worker_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The production settings with the fault plan's overrides merged in (pure)."""
    from ticketflow.workers.tasks import TASK_NAME

    settings = worker_settings(env)
    faults = FaultPlan.from_env(env)
    fault_annotations = faults.task_annotations()
    if fault_annotations:
        current = settings.get("task_annotations")
        by_task = current.get(TASK_NAME, {}) if isinstance(current, dict) else {}
        annotations = dict(by_task)
        annotations.update(fault_annotations)
        settings["task_annotations"] = {TASK_NAME: annotations}
    settings.update(faults.app_overrides())
    return settings


def build_lab_worker_service(env: Mapping[str, str]) -> NotificationService:
    """The production worker service, with the attempt log and the fault plan of ``env``."""
    _, database_url = check_urls(env)
    attempt_log = AttemptLog(env[ATTEMPT_LOG_ENV]) if env.get(ATTEMPT_LOG_ENV) else None
    faults = FaultPlan.from_env(env)
    wrapper = (
        make_handler_wrapper(faults, database_url=database_url, attempt_log=attempt_log)
        if faults.wraps_handler
        else None
    )
    service = build_worker_service(
        env,
        wrap_handler=wrapper,
        attempt_observer=attempt_log.observe if attempt_log else None,
        settings=lab_worker_settings(env),
    )
    if faults.broken:
        logger.warning(
            "TEST-ONLY BROKEN VARIANT ACTIVE: %s (%s)",
            faults.broken,
            BROKEN_VARIANTS[faults.broken],
        )
    if attempt_log is not None:
        _record_deliveries(attempt_log)
    return service


def _record_deliveries(attempt_log: AttemptLog) -> None:
    """Log what the broker delivered and what a pool process started, per event."""
    from celery import signals

    from ticketflow.workers.tasks import TASK_NAME

    def on_received(request: Any = None, **_: Any) -> None:  # main process
        if getattr(request, "name", None) != TASK_NAME:
            return
        message = getattr(request, "message", None)
        tag = getattr(message, "delivery_tag", None)
        attempt_log.record(
            "received",
            _event_id(request.args),
            task_id=request.id,
            delivery_tag=None if tag is None else str(tag),
            redelivered=(request.delivery_info or {}).get("redelivered"),
            retries=int(request.request_dict.get("retries") or 0),
        )

    def on_prerun(task: Any = None, task_id: str | None = None, args: Any = None, **_: Any) -> None:
        if getattr(task, "name", None) != TASK_NAME:
            return
        request = task.request
        attempt_log.record(
            "started",
            _event_id(args),
            task_id=task_id,
            redelivered=(request.delivery_info or {}).get("redelivered"),
            retries=int(request.retries or 0),
        )

    def on_failure(
        sender: Any = None,
        task_id: str | None = None,
        exception: Any = None,
        args: Any = None,
        **_: Any,
    ) -> None:
        # Only the main process reports a lost pool process; the message was then ACKed
        # (with reject_on_worker_lost it is requeued instead, and this signal is not sent).
        if getattr(sender, "name", None) != TASK_NAME:
            return
        if type(exception).__name__ == "WorkerLostError":
            attempt_log.record(
                "outcome",
                _event_id(args),
                task_id=task_id,
                outcome="worker_lost_acked",
                error=repr(exception),
            )

    signals.task_received.connect(on_received, weak=False)
    signals.task_prerun.connect(on_prerun, weak=False)
    signals.task_failure.connect(on_failure, weak=False)


def _event_id(args: Any) -> str:
    if isinstance(args, list | tuple) and args and isinstance(args[0], dict):
        candidate = args[0].get("event_id")
        if isinstance(candidate, str) and candidate.strip():
            return candidate
    return "unknown"
