"""The worker app of lesson 14: ``celery -A ticketflow_lab.lesson14_app worker``.

The course's reliability settings (``reliability_settings()``: late ACK, reject on worker
lost, prefetch 1, JSON only) on whatever broker the driver chose, plus two small tasks
that write a journal (a JSON-lines file every process appends to):

* ``lesson14.hold(key)`` — its first run sleeps (up to ``HOLD_SECONDS``) so the driver can
  kill it or look at it; any later run of the same key finishes at once;
* ``lesson14.flaky(key)`` — fails once and retries itself after 1 s, then succeeds.

Configured from the environment of the worker process (the driver sets it):
``LESSON14_BROKER_URL``, ``LESSON14_QUEUE``, ``LESSON14_JOURNAL``, ``LESSON14_TRANSPORT``
(JSON: broker transport options, e.g. Redis' ``visibility_timeout``) and
``LESSON14_REJECT_ON_WORKER_LOST`` (``0`` turns it off) and ``LESSON14_DEAD_LETTER_EXCHANGE``
(RabbitMQ: the queue is declared with this ``x-dead-letter-exchange``) and
``LESSON14_ARTICLE_CONFIG`` (``1``: the article's ``worker_concurrency=4`` and 300 s / 360 s
time limits) and ``LESSON14_CANCEL_ON_CONNECTION_LOSS`` (``0``: Celery's default, off).
Importing this module does nothing; ``app`` is built on first access.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

BROKER_ENV = "LESSON14_BROKER_URL"
QUEUE_ENV = "LESSON14_QUEUE"
JOURNAL_ENV = "LESSON14_JOURNAL"
TRANSPORT_ENV = "LESSON14_TRANSPORT"
REJECT_ENV = "LESSON14_REJECT_ON_WORKER_LOST"
DEAD_LETTER_ENV = "LESSON14_DEAD_LETTER_EXCHANGE"
RESULT_BACKEND_ENV = "LESSON14_RESULT_BACKEND"
DATABASE_ENV = "LESSON14_DATABASE_URL"
ARTICLE_ENV = "LESSON14_ARTICLE_CONFIG"
CANCEL_ENV = "LESSON14_CANCEL_ON_CONNECTION_LOSS"
#: the article's production configuration where it differs from the course's
ARTICLE_SETTINGS = {"worker_concurrency": 4, "task_soft_time_limit": 300, "task_time_limit": 360}
RESULT_EXPIRES_SECONDS = 60
HOLD_SECONDS = 12.0

#: (name, acks_late, raises Reject(requeue=False) rather than ValueError)
FAILING_TASKS = (
    ("lesson14.reject_late", True, True),
    ("lesson14.fail_late", True, False),
    ("lesson14.reject_early", False, True),
)

_app: Any = None


def __getattr__(name: str) -> Any:
    if name == "app":
        return get_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get_app() -> Any:
    global _app
    if _app is None:
        _app = build_app(os.environ)
    return _app


def settings_from(env: Mapping[str, str]) -> dict[str, Any]:
    """The Celery settings the driver's environment asks for (pure)."""
    transport = json.loads(env.get(TRANSPORT_ENV) or "{}")
    queue = env.get(QUEUE_ENV) or "celery"
    routing: dict[str, Any] = {}
    dead_letter_exchange = env.get(DEAD_LETTER_ENV)
    if dead_letter_exchange:
        from kombu.entity import Exchange, Queue

        exchange = Exchange(queue, "direct")  # type: ignore[no-untyped-call]
        arguments = {
            "x-dead-letter-exchange": dead_letter_exchange,
            "x-dead-letter-routing-key": dead_letter_exchange,
        }
        routing = {
            "task_queues": [
                Queue(  # type: ignore[no-untyped-call]
                    queue, exchange, routing_key=queue, queue_arguments=arguments
                )
            ],
            "task_default_exchange": queue,
            "task_default_routing_key": queue,
        }
    backend: dict[str, Any] = {}
    if env.get(RESULT_BACKEND_ENV):
        backend = {
            "result_backend": env[RESULT_BACKEND_ENV],
            "result_backend_transport_options": transport,
            "result_expires": RESULT_EXPIRES_SECONDS,
        }
    article = ARTICLE_SETTINGS if env.get(ARTICLE_ENV) == "1" else {}
    return {
        **routing,
        **backend,
        **article,
        "broker_transport_options": transport,
        "task_default_queue": queue,
        "task_reject_on_worker_lost": env.get(REJECT_ENV, "1") != "0",
        "worker_cancel_long_running_tasks_on_connection_loss": env.get(CANCEL_ENV, "1") != "0",
        "task_send_sent_event": True,
        "worker_lost_wait": 1.0,
        "worker_hijack_root_logger": True,
    }


def build_app(env: Mapping[str, str]) -> Any:
    from ticketflow.workers.app import create_app

    broker = env.get(BROKER_ENV)
    if not broker:
        raise RuntimeError(f"{BROKER_ENV} is not set: the driver names the broker")
    app = create_app(broker, eager=False, main="lesson14", **settings_from(env))
    journal = Path(env[JOURNAL_ENV]) if env.get(JOURNAL_ENV) else None
    register(app, journal)
    if env.get(DATABASE_ENV):
        register_steps(app, journal, env[DATABASE_ENV])
    if env.get(RESULT_BACKEND_ENV):
        register_article_dedupe(app, journal)
    return app


def note(journal: Path | None, kind: str, /, **fields: Any) -> None:
    """Append one journal line (one ``write`` with ``O_APPEND``: lines never interleave)."""
    if journal is None:
        return
    line = json.dumps({"kind": kind, "pid": os.getpid(), "t": time.time(), **fields})
    descriptor = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(descriptor, (line + "\n").encode("utf-8"))
    finally:
        os.close(descriptor)


def read_journal(journal: Path) -> list[dict[str, Any]]:
    """Every complete line of the journal (a torn last line of a killed process is skipped)."""
    if not journal.exists():
        return []
    entries = []
    for line in journal.read_text(encoding="utf-8").splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return entries


def register(app: Any, journal: Path | None) -> None:
    def seen_marker(key: str) -> Path | None:
        return None if journal is None else journal.with_name(f"{journal.name}.{key}.seen")

    def describe(task: Any) -> dict[str, Any]:
        request = task.request
        return {
            "hostname": request.hostname,
            "task_id": request.id,
            "retries": int(request.retries or 0),
            "redelivered": (request.delivery_info or {}).get("redelivered"),
        }

    @app.task(name="lesson14.hold", bind=True, shared=False)  # type: ignore[untyped-decorator]
    def hold(task: Any, key: str) -> str:
        note(journal, "started", key=key, **describe(task))
        marker = seen_marker(key)
        first = marker is not None and not marker.exists()
        if marker is not None:
            marker.touch()
        if first:
            deadline = time.monotonic() + HOLD_SECONDS
            while time.monotonic() < deadline:
                time.sleep(0.05)
        note(journal, "finished", key=key, **describe(task))
        return key

    def failing(name: str, *, acks_late: bool, reject: bool) -> None:
        @app.task(name=name, bind=True, acks_late=acks_late, shared=False)  # type: ignore[untyped-decorator]
        def fail(task: Any, key: str) -> None:
            from celery.exceptions import Reject

            note(journal, "started", key=key, task=name, **describe(task))
            if reject:
                raise Reject("input_data is not a JSON object", requeue=False)
            raise ValueError("input_data is not a JSON object")

    for name, acks_late, reject in FAILING_TASKS:
        failing(name, acks_late=acks_late, reject=reject)

    @app.task(name="lesson14.echo", bind=True, shared=False)  # type: ignore[untyped-decorator]
    def echo(task: Any, key: str) -> dict[str, Any]:
        return {"key": key, "task_id": task.request.id}

    @app.task(name="lesson14.flaky", bind=True, shared=False)  # type: ignore[untyped-decorator]
    def flaky(task: Any, key: str) -> str:
        note(journal, "started", key=key, **describe(task))
        if not task.request.retries:
            note(journal, "retrying", key=key, **describe(task))
            raise task.retry(exc=ConnectionError("dependency unreachable"), countdown=1)
        note(journal, "finished", key=key, **describe(task))
        return key


def register_steps(app: Any, journal: Path | None, database_url: str) -> None:
    """``lesson14.step``: one canvas step whose effect goes through the receipt (apply once)."""
    handler: Any = None

    def apply_once(key: str, step: str) -> bool:
        nonlocal handler
        if handler is None:  # built in the pool process that uses it
            from ticketflow.db.engine import create_engine_from_url
            from ticketflow.notifications.effects import make_notification_handler
            from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork

            engine = create_engine_from_url(database_url)
            handler = make_notification_handler(SqlAlchemyUnitOfWork(engine))
        from ticketflow.messaging.envelope import EventEnvelope

        envelope = EventEnvelope(f"{key}:{step}", "order.step", {"order": key, "step": step})
        return bool(handler(envelope))

    @app.task(name="lesson14.step", shared=False)  # type: ignore[untyped-decorator]
    def step(key: str, name: str, fail: bool = False) -> dict[str, Any]:
        if fail:
            note(journal, "step_failed", key=key, step=name)
            raise ValueError(f"step {name} of {key} failed")
        applied = apply_once(key, name)
        note(journal, "step", key=key, step=name, applied=applied)
        return {"step": name, "applied": applied}

    @app.task(name="lesson14.summarize", shared=False)  # type: ignore[untyped-decorator]
    def summarize(results: list[dict[str, Any]], key: str) -> str:
        note(journal, "body_ran", key=key, seen=[r["step"] for r in results])
        return f"{key}: {len(results)} steps done"


def register_article_dedupe(app: Any, journal: Path | None) -> None:
    """``lesson14.idempotent_notify``: the article's ``IdempotentTask`` on this app's backend."""
    from ticketflow_lab.article_idempotent import IdempotentTask

    @app.task(name="lesson14.idempotent_notify", base=IdempotentTask, bind=True, shared=False)  # type: ignore[untyped-decorator]
    def idempotent_notify(task: Any, event_id: str, hold: float = 0.0) -> dict[str, Any]:
        note(journal, "notified", key=event_id, task_id=task.request.id)  # the side effect
        time.sleep(hold)  # hold: lets a second copy start before this one stores its result
        return {"event_id": event_id, "sent": True}
