"""The notification worker process: ``celery -A ticketflow.workers.celery_worker worker``.

Importing this module does nothing. The Celery ``app`` is built on first access (PEP 562
module ``__getattr__``), from the environment:

* ``TICKETFLOW_BROKER_URL`` (required) and ``TICKETFLOW_DATABASE_URL`` (required: a
  prefork worker needs a database every process can reach, not in-memory SQLite);
* ``TICKETFLOW_RETRY_BASE_DELAY_SECONDS`` — base of the retry backoff (default 5);
* ``TICKETFLOW_SOFT_TIME_LIMIT`` / ``TICKETFLOW_TIME_LIMIT`` — per-task limits, applied
  through Celery's ``task_annotations`` (the task's own registration stays 15 s / 20 s);
* ``TICKETFLOW_WORKER_LOST_WAIT`` — Celery's ``worker_lost_wait`` (default 10 s);
* ``TICKETFLOW_QUEUE`` — the queue to consume (default ``celery``);
* ``TICKETFLOW_ATTEMPT_LOG`` — a JSON-lines file for the attempt history (demo/tests);
* ``TICKETFLOW_TEST_*`` — test-only fault injection, see ``ticketflow.demo.fault_injection``.

The log format carries the process id, so a driver can tell which pool process logged a
task's "started" line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ticketflow.demo.attempt_log import AttemptLog
    from ticketflow.workers.bootstrap import NotificationService

RETRY_BASE_DELAY_ENV = "TICKETFLOW_RETRY_BASE_DELAY_SECONDS"
SOFT_TIME_LIMIT_ENV = "TICKETFLOW_SOFT_TIME_LIMIT"
TIME_LIMIT_ENV = "TICKETFLOW_TIME_LIMIT"
WORKER_LOST_WAIT_ENV = "TICKETFLOW_WORKER_LOST_WAIT"
QUEUE_ENV = "TICKETFLOW_QUEUE"

LOG_FORMAT = "[%(asctime)s: %(levelname)s/%(processName)s pid=%(process)d] %(message)s"
TASK_LOG_FORMAT = (
    "[%(asctime)s: %(levelname)s/%(processName)s pid=%(process)d] "
    "%(task_name)s[%(task_id)s]: %(message)s"
)

logger = logging.getLogger(__name__)

_MEMORY_SQLITE = ("sqlite://", "sqlite:///:memory:", "sqlite+pysqlite://")

_service: NotificationService | None = None


def __getattr__(name: str) -> Any:
    if name == "app":
        return get_service().app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_service() -> NotificationService:
    """The process-wide service, built from ``os.environ`` on first use."""
    global _service
    if _service is None:
        _service = build_worker_service(os.environ)
    return _service


def _positive_number(env: Mapping[str, str], name: str) -> float | int | None:
    """The variable as a positive number (an int when integral: Celery logs "2s")."""
    raw = env.get(name)
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {raw!r}")
    return int(value) if value.is_integer() else value


def worker_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """Celery settings for this worker process, from ``env`` (pure: no side effects)."""
    from ticketflow.demo.fault_injection import FaultPlan
    from ticketflow.workers.tasks import BASE_DELAY_SETTING, TASK_NAME

    settings: dict[str, Any] = {
        "worker_log_format": LOG_FORMAT,
        "worker_task_log_format": TASK_LOG_FORMAT,
    }
    base_delay = _positive_number(env, RETRY_BASE_DELAY_ENV)
    if base_delay is not None:
        settings[BASE_DELAY_SETTING] = int(base_delay)
    lost_wait = _positive_number(env, WORKER_LOST_WAIT_ENV)
    if lost_wait is not None:
        settings["worker_lost_wait"] = lost_wait
    if env.get(QUEUE_ENV):
        settings["task_default_queue"] = env[QUEUE_ENV]

    annotations: dict[str, Any] = {}
    soft = _positive_number(env, SOFT_TIME_LIMIT_ENV)
    hard = _positive_number(env, TIME_LIMIT_ENV)
    if soft is not None:
        annotations["soft_time_limit"] = soft
    if hard is not None:
        annotations["time_limit"] = hard
    if soft is not None and hard is not None and soft >= hard:
        raise ValueError(f"{SOFT_TIME_LIMIT_ENV} must be below {TIME_LIMIT_ENV}")
    faults = FaultPlan.from_env(env)
    annotations.update(faults.task_annotations())
    if annotations:
        settings["task_annotations"] = {TASK_NAME: annotations}
    settings.update(faults.app_overrides())
    return settings


def build_worker_service(env: Mapping[str, str]) -> NotificationService:
    """App + engine + task for a worker process, plus the process-level hooks."""
    from ticketflow.db.engine import DATABASE_URL_ENV
    from ticketflow.demo.attempt_log import ATTEMPT_LOG_ENV, AttemptLog
    from ticketflow.demo.fault_injection import BROKEN_VARIANTS, FaultPlan, make_handler_wrapper
    from ticketflow.workers.app import BROKER_URL_ENV
    from ticketflow.workers.bootstrap import build_notification_service

    broker_url = env.get(BROKER_URL_ENV)
    database_url = env.get(DATABASE_URL_ENV)
    if not broker_url:
        raise RuntimeError(f"set {BROKER_URL_ENV} to the broker this worker consumes from")
    if not database_url or database_url in _MEMORY_SQLITE or "mode=memory" in database_url:
        raise RuntimeError(f"set {DATABASE_URL_ENV} to a database every worker process shares")
    attempt_log = AttemptLog(env[ATTEMPT_LOG_ENV]) if env.get(ATTEMPT_LOG_ENV) else None
    faults = FaultPlan.from_env(env)
    wrapper = (
        make_handler_wrapper(faults, database_url=database_url, attempt_log=attempt_log)
        if faults.wraps_handler
        else None
    )
    service = build_notification_service(
        broker_url=broker_url,
        database_url=database_url,
        eager=False,
        attempt_observer=attempt_log.observe if attempt_log else None,
        wrap_handler=wrapper,
        **worker_settings(env),
    )
    if faults.broken:
        logger.warning(
            "TEST-ONLY BROKEN VARIANT ACTIVE: %s (%s)",
            faults.broken,
            BROKEN_VARIANTS[faults.broken],
        )
    _connect_process_hooks(service, attempt_log)
    return service


def _connect_process_hooks(service: NotificationService, attempt_log: AttemptLog | None) -> None:
    from celery import signals

    from ticketflow.workers.tasks import TASK_NAME

    def after_fork(**_: Any) -> None:
        # The engine was created (and used, for the schema) before the fork: a pool
        # process must open its own connections, never reuse the parent's sockets.
        service.engine.dispose(close=False)

    signals.worker_process_init.connect(after_fork, weak=False)
    if attempt_log is None:
        return

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
