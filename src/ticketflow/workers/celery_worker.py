"""The notification worker process: ``celery -A ticketflow.workers.celery_worker worker``.

Importing this module does nothing. The Celery ``app`` is built on first access (PEP 562
module ``__getattr__``), from the environment:

* ``TICKETFLOW_BROKER_URL`` (required) and ``TICKETFLOW_DATABASE_URL`` (required: a
  prefork worker needs a database every process can reach, not in-memory SQLite);
* ``TICKETFLOW_RETRY_BASE_DELAY_SECONDS`` — base of the retry backoff (default 5);
* ``TICKETFLOW_SOFT_TIME_LIMIT`` / ``TICKETFLOW_TIME_LIMIT`` — per-task limits, applied
  through Celery's ``task_annotations`` (the task's own registration stays 15 s / 20 s);
* ``TICKETFLOW_WORKER_LOST_WAIT`` — Celery's ``worker_lost_wait`` (default 10 s);
* ``TICKETFLOW_QUEUE`` — the queue to consume (default ``celery``).

This is the module students deploy: it has no test switches. The lab harness
(``ticketflow_lab.worker_app``) builds on ``build_worker_service`` to add its faults and
its attempt log, in its own package.

The log format carries the process id, so a driver can tell which pool process logged a
task's "started" line.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping

from celery import Celery, signals

from ticketflow.db.engine import DATABASE_URL_ENV
from ticketflow.workers.app import BROKER_URL_ENV
from ticketflow.workers.bootstrap import (
    HandlerWrapper,
    NotificationService,
    build_notification_service,
)
from ticketflow.workers.tasks import BASE_DELAY_SETTING, TASK_NAME, AttemptObserver

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


def __getattr__(name: str) -> Celery:
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


def task_annotations(env: Mapping[str, str]) -> dict[str, float | int]:
    """The per-deployment options of ``deliver_notification`` (its time limits)."""
    annotations: dict[str, float | int] = {}
    soft = _positive_number(env, SOFT_TIME_LIMIT_ENV)
    hard = _positive_number(env, TIME_LIMIT_ENV)
    if soft is not None:
        annotations["soft_time_limit"] = soft
    if hard is not None:
        annotations["time_limit"] = hard
    if soft is not None and hard is not None and soft >= hard:
        raise ValueError(f"{SOFT_TIME_LIMIT_ENV} must be below {TIME_LIMIT_ENV}")
    return annotations


def worker_settings(env: Mapping[str, str]) -> dict[str, object]:
    """Celery settings for this worker process, from ``env`` (pure: no side effects)."""
    settings: dict[str, object] = {
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
    annotations = task_annotations(env)
    if annotations:
        settings["task_annotations"] = {TASK_NAME: annotations}
    return settings


def check_urls(env: Mapping[str, str]) -> tuple[str, str]:
    """The broker and database URLs a worker process needs, or a clear error."""
    broker_url = env.get(BROKER_URL_ENV)
    database_url = env.get(DATABASE_URL_ENV)
    if not broker_url:
        raise RuntimeError(f"set {BROKER_URL_ENV} to the broker this worker consumes from")
    if not database_url or database_url in _MEMORY_SQLITE or "mode=memory" in database_url:
        raise RuntimeError(f"set {DATABASE_URL_ENV} to a database every worker process shares")
    return broker_url, database_url


def build_worker_service(
    env: Mapping[str, str],
    *,
    wrap_handler: HandlerWrapper | None = None,
    attempt_observer: AttemptObserver | None = None,
    settings: Mapping[str, object] | None = None,
) -> NotificationService:
    """App + engine + task for a worker process, plus the after-fork hook.

    ``settings`` defaults to ``worker_settings(env)``; the keyword hooks are for a caller
    that builds on this worker (the lab harness), never read from the environment.
    """
    broker_url, database_url = check_urls(env)
    service = build_notification_service(
        broker_url=broker_url,
        database_url=database_url,
        eager=False,
        attempt_observer=attempt_observer,
        wrap_handler=wrap_handler,
        **(worker_settings(env) if settings is None else dict(settings)),
    )
    _dispose_engine_after_fork(service)
    return service


def _dispose_engine_after_fork(service: NotificationService) -> None:
    def after_fork(**_: object) -> None:
        # The engine was created (and used, for the schema) before the fork: a pool
        # process must open its own connections, never reuse the parent's sockets.
        service.engine.dispose(close=False)

    signals.worker_process_init.connect(after_fork, weak=False)
