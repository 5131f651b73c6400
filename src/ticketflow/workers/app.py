"""``create_app()``: the reliability configuration of the course in one place.

With no broker URL (argument or ``$TICKETFLOW_BROKER_URL``) the app is the embedded
default: eager, in-process, no server. Eager mode has no broker, so late ACK, prefetch,
redelivery, countdown delays and time limits do not exist there — the lessons say so
where it matters and show the real behaviour with a real worker.
"""

from __future__ import annotations

import os

from celery import Celery

BROKER_URL_ENV = "TICKETFLOW_BROKER_URL"
RESULT_BACKEND_ENV = "TICKETFLOW_RESULT_BACKEND"


def reliability_settings(*, soft_time_limit: int = 15, time_limit: int = 20) -> dict[str, object]:
    """The settings lessons 11 and 12 teach, as a plain dict (printable, testable).

    Note: ``task_default_retry_delay``, ``task_default_max_retries`` and
    ``task_delivery_mode`` — seen in many blog posts — are not Celery settings and are
    silently ignored. Retry bounds are task options; the delivery mode setting is
    ``task_default_delivery_mode``.
    """
    return {
        # ACK after the task returns, not when the message is received ...
        "task_acks_late": True,
        # ... and if the worker process dies mid-task, give the message back to the broker.
        "task_reject_on_worker_lost": True,
        # A worker holds at most one un-ACKed message per process: long tasks spread out.
        "worker_prefetch_multiplier": 1,
        # If the broker connection drops, running late-ACK tasks will be redelivered
        # anyway: cancel them instead of finishing a second copy.
        "worker_cancel_long_running_tasks_on_connection_loss": True,
        "task_serializer": "json",
        "result_serializer": "json",
        "accept_content": ["json"],
        "result_accept_content": ["json"],
        "task_default_delivery_mode": "persistent",
        "task_soft_time_limit": soft_time_limit,
        "task_time_limit": time_limit,
        "broker_connection_retry_on_startup": True,
    }


def create_app(
    broker_url: str | None = None,
    *,
    eager: bool | None = None,
    result_backend: str | None = None,
    main: str = "ticketflow",
    **overrides: object,
) -> Celery:
    """Build a Celery app: the course's settings, then ``overrides`` (Celery setting names)."""
    given = broker_url or os.environ.get(BROKER_URL_ENV) or None
    url = given or "memory://"
    backend = result_backend or os.environ.get(RESULT_BACKEND_ENV) or None
    if eager is None:
        eager = given is None
    app = Celery(main, set_as_current=False)
    settings = reliability_settings()
    settings["broker_url"] = url
    if backend:
        settings["result_backend"] = backend
    if url.startswith(("redis://", "rediss://")):
        # Redis re-delivers an un-ACKed message after the visibility timeout: keep it
        # well above the hard time limit, or long late-ACK tasks run twice.
        settings["broker_transport_options"] = {"visibility_timeout": 3600}
    if eager:
        settings["task_always_eager"] = True
        settings["task_eager_propagates"] = False
        settings["task_store_eager_result"] = False
    settings.update(overrides)
    app.conf.update(settings)
    return app
