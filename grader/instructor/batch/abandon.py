"""What ``grade --broker`` does with the tasks of a run it stops waiting for: revoke them
(a worker that still receives one skips it) and take this run's messages off the queue,
so no worker grades them later and the next summary holds no surprise. Messages of other
runs sharing the queue are put back untouched."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from typing import Any

#: At most this many messages are looked at on the queue (each is put back or dropped).
SCAN_LIMIT = 100_000


def _run_of(message: Any) -> str | None:
    """The run id a task message carries as its first argument (protocol 2: the body is
    ``(args, kwargs, embed)``), or None for anything else."""
    try:
        body = message.decode()
        args = body[0] if isinstance(body, list | tuple) else None
    except Exception:  # not a task of ours: leave it alone
        return None
    if isinstance(args, list | tuple) and args and isinstance(args[0], str):
        return args[0]
    return None


def purge_run(app: Any, queue_name: str, run_id: str) -> int:
    """Drop this run's messages from ``queue_name``; return how many were dropped."""
    dropped, others = 0, []
    with app.connection_for_write() as connection:
        channel = connection.channel()
        try:
            queue = app.amqp.queues[queue_name].bind(channel)
            for _ in range(SCAN_LIMIT):
                message = queue.get(no_ack=False, accept=["json"])
                if message is None:
                    break
                if _run_of(message) == run_id:
                    message.ack()
                    dropped += 1
                else:
                    others.append(message)
            for message in others:
                message.reject(requeue=True)
        finally:
            channel.close()
    return dropped


def abandon(app: Any, queue_name: str, run_id: str, task_ids: Sequence[str]) -> tuple[int, int]:
    """Revoke ``task_ids`` and purge this run's queued messages: (revoked, purged)."""
    if task_ids:  # no worker to tell: the purge below still empties the queue
        with suppress(Exception):
            app.control.revoke(list(task_ids))
    try:
        purged = purge_run(app, queue_name, run_id)
    except Exception:  # the broker went away: nothing more can be done from here
        purged = 0
    return len(task_ids), purged
