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
(RabbitMQ: the queue is declared with this ``x-dead-letter-exchange``). Importing this module does
nothing; ``app`` is built on first access.
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
    return {
        **routing,
        "broker_transport_options": transport,
        "task_default_queue": queue,
        "task_reject_on_worker_lost": env.get(REJECT_ENV, "1") != "0",
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
    register(app, Path(env[JOURNAL_ENV]) if env.get(JOURNAL_ENV) else None)
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

    @app.task(name="lesson14.flaky", bind=True, shared=False)  # type: ignore[untyped-decorator]
    def flaky(task: Any, key: str) -> str:
        note(journal, "started", key=key, **describe(task))
        if not task.request.retries:
            note(journal, "retrying", key=key, **describe(task))
            raise task.retry(exc=ConnectionError("dependency unreachable"), countdown=1)
        note(journal, "finished", key=key, **describe(task))
        return key
