"""The result backend in the normal flow, ``result_expires``, and why it is no dedupe store.

Live part (``run_result_backend``): a real worker on Redis with a Redis result backend
(``result_expires=60``). The caller sends a task, the worker stores its return value under
``celery-task-meta-<task id>``, ``AsyncResult.get()`` reads it back, and the key carries
a TTL: after ``result_expires`` the backend has forgotten the task ever ran.

Pure part (``key_comparison``): the article's ``idempotent_key()`` (a hash of the task's
arguments) against ticketflow's business key (the event id under a unique constraint).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from pathlib import Path
from typing import Any

from ticketflow_lab.lesson14_app import RESULT_BACKEND_ENV, RESULT_EXPIRES_SECONDS
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url
from ticketflow_lab.two_workers import redis_transport


def run_result_backend(folder: Path, *, timeout: float = 10.0) -> list[str]:
    import redis

    broker = url("Redis")
    transport = redis_transport(3600)
    with WorkerSet(
        folder,
        broker_url=broker,
        transport_options=transport,
        prefix="lesson14.results",
        extra_env={RESULT_BACKEND_ENV: broker},
    ) as workers:
        workers.start("results")
        first = workers.client.send_task("lesson14.echo", args=["evt-7"], queue=workers.queue)
        value = first.get(timeout=timeout)
        client = redis.Redis.from_url(broker)
        try:
            ttl = int(client.ttl(f"{transport['global_keyprefix']}celery-task-meta-{first.id}"))
        finally:
            client.close()
        again = workers.client.send_task("lesson14.echo", args=["evt-7"], queue=workers.queue)
        again.get(timeout=timeout)
        unknown = workers.client.AsyncResult(str(uuid.uuid4())).state
    return [
        f"get() returned what the worker stored: {value == {'key': 'evt-7', 'task_id': first.id}}"
        f" (state {first.state})",
        f"the stored result expires: 0 < TTL <= result_expires ({RESULT_EXPIRES_SECONDS} s): "
        f"{0 < ttl <= RESULT_EXPIRES_SECONDS}",
        f"the same event sent again got a new task id: {again.id != first.id} "
        "(a dedupe keyed by task id looks in the wrong place)",
        f"state of a task id the backend never saw: {unknown} "
        "(the same word as 'not run yet': absence proves nothing)",
    ]


def idempotent_key(*args: Any, **kwargs: Any) -> str:
    """The article's key: a hash of the arguments (reproduced as printed there)."""
    raw = json.dumps({"args": args, "kwargs": kwargs}, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def key_comparison() -> list[str]:
    """Pairs of deliveries, judged by two argument hashes and by the business key.

    A task ``notify(ticket_id, assignee[, sent_at])``; ``evt-9`` is a real second
    assignment of the same ticket to the same person (it went to someone else between).
    """
    first = {"event_id": "evt-7", "ticket_id": 7, "assignee": "alice", "sent_at": "09:00:00"}
    restamped = {**first, "sent_at": "09:00:05"}  # the producer re-sent evt-7
    later = {"event_id": "evt-9", "ticket_id": 7, "assignee": "alice", "sent_at": "09:30:00"}
    pairs = [
        ("evt-7 delivered twice", first, True),
        ("evt-7 re-sent with a new sent_at", restamped, True),
        ("evt-9: a new assignment, same args", later, False),
    ]
    lines = [
        f"{'second delivery':<36} {'hash(ticket,who)':<17} {'hash(+sent_at)':<15} "
        f"{'event_id':<10} truth"
    ]
    for label, second, same in pairs:
        short = _same(
            idempotent_key(first["ticket_id"], first["assignee"]),
            idempotent_key(second["ticket_id"], second["assignee"]),
        )
        full = _same(
            idempotent_key(first["ticket_id"], first["assignee"], first["sent_at"]),
            idempotent_key(second["ticket_id"], second["assignee"], second["sent_at"]),
        )
        by_key = first["event_id"] == second["event_id"]
        lines.append(
            f"{label:<36} {_word(short, same):<17} {_word(full, same):<15} "
            f"{_word(by_key, same):<10} {_word(same, same)}"
        )
    return lines


def _same(left: str, right: str) -> bool:
    return left == right


def _word(duplicate: bool, truth: bool) -> str:
    word = "duplicate" if duplicate else "new"
    return word if duplicate == truth else word + " (!)"
