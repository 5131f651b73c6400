"""Real ``celery worker`` subprocesses of ``ticketflow_lab.lesson14_app``, for one cell run.

A ``WorkerSet`` owns a journal, one queue name on one broker and the workers it starts
(each in its own process group, killed with everything else when the set closes, after
which the queue and, on Redis, every key of the run are deleted). The client app that
publishes uses the very settings the workers use (``lesson14_app.settings_from``).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from ticketflow_lab import lesson14_app
from ticketflow_lab.live_services import unique_name
from ticketflow_lab.waiting import wait_until
from ticketflow_lab.worker_process import WorkerLog, WorkerProcess

READY_TIMEOUT_SECONDS = 30.0
Entry = dict[str, Any]


class WorkerSet:
    def __init__(
        self,
        folder: Path,
        *,
        broker_url: str,
        transport_options: dict[str, Any] | None = None,
        reject_on_worker_lost: bool = True,
        prefix: str = "lesson14",
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.folder = folder
        self.broker_url = broker_url
        self.queue = unique_name(prefix)
        self.journal = folder / "journal.jsonl"
        self.transport_options = dict(transport_options or {})
        self.env = {
            **os.environ,
            lesson14_app.BROKER_ENV: broker_url,
            lesson14_app.QUEUE_ENV: self.queue,
            lesson14_app.JOURNAL_ENV: str(self.journal),
            lesson14_app.TRANSPORT_ENV: json.dumps(self.transport_options),
            lesson14_app.REJECT_ENV: "1" if reject_on_worker_lost else "0",
            **(extra_env or {}),
        }
        self.workers: dict[str, WorkerProcess] = {}
        self._client: Any = None

    @property
    def client(self) -> Any:
        """A (non-eager) app with the workers' settings, to publish and to control."""
        if self._client is None:
            from ticketflow.workers.app import create_app

            self._client = create_app(
                self.broker_url,
                eager=False,
                main="lesson14-client",
                **lesson14_app.settings_from(self.env),
            )
        return self._client

    def start(
        self, *labels: str, extra_args: Sequence[str] = (), concurrency: int | None = 1
    ) -> list[str]:
        """Start one worker per label at once; wait until each says ``ready``.

        ``concurrency=None`` leaves ``--concurrency`` off the command line, so the app's
        ``worker_concurrency`` setting decides.
        """
        started = []
        for label in labels:
            nodename = f"{label}-{uuid.uuid4().hex[:6]}@lesson14"
            worker = WorkerProcess(
                env=self.env,
                log=WorkerLog(self.folder / f"worker-{label}.log"),
                nodename=nodename,
                queue=self.queue,
                app_module="ticketflow_lab.lesson14_app",
                extra_args=extra_args,
                concurrency=concurrency,
            )
            worker.start()
            self.workers[nodename] = worker
            started.append(nodename)
        for nodename in started:
            worker = self.workers[nodename]
            wait_until(
                _ready_or_exited(worker),
                timeout=READY_TIMEOUT_SECONDS,
                what=f"worker {nodename} to be ready",
            )
            if not worker.running():
                raise RuntimeError(f"worker {nodename} exited:\n{worker.log.tail(20)}")
        return started

    def send(self, task: str, key: str, **options: Any) -> str:
        result = self.client.send_task(task, args=[key], queue=self.queue, **options)
        return str(result.id)

    def signature(self, task: str, *args: Any, **kwargs: Any) -> Any:
        """An immutable signature of a worker task, routed to this set's queue."""
        return self.client.signature(task, args=args, kwargs=kwargs, immutable=True).set(
            queue=self.queue
        )

    def entries(self) -> list[Entry]:
        return lesson14_app.read_journal(self.journal)

    def wait_entry(self, predicate: Callable[[Entry], bool], *, timeout: float, what: str) -> Entry:
        def probe() -> Entry | None:
            return next((entry for entry in self.entries() if predicate(entry)), None)

        return wait_until(probe, timeout=timeout, what=what, interval=0.02)

    def kill(self, nodename: str) -> float:
        """SIGKILL the whole worker (main process and pool) at once; return the time."""
        killed_at = time.time()
        self.workers[nodename].kill_group()
        return killed_at

    def wait_settled(self, *, timeout: float) -> None:
        """Wait until no worker's main process holds a request: every message it received is
        ACKed, rejected or handed back. Celery drops a request from ``inspect().active()``
        in the same step that settles its message (``Request.on_failure``: ``task_ready``,
        then ``acknowledge``), and answers ``inspect`` from that same loop; a task's own
        log line comes from the pool process, before the main process has settled it."""
        nodes = list(self.workers)
        inspect = self.client.control.inspect(destination=nodes, timeout=1.0, limit=len(nodes))

        def settled() -> bool:
            active, reserved = inspect.active() or {}, inspect.reserved() or {}
            answered = set(active) >= set(nodes) and set(reserved) >= set(nodes)
            return answered and not any(active[n] or reserved[n] for n in nodes)

        wait_until(settled, timeout=timeout, what="every worker to settle its messages")

    def wait_log(self, nodename: str, pattern: str, *, timeout: float) -> None:
        """Wait until the worker's log matches ``pattern`` (a regular expression)."""
        log = self.workers[nodename].log
        wait_until(lambda: log.search(pattern), timeout=timeout, what=f"{pattern!r} in the log")

    def pool_children(self, nodename: str) -> list[int]:
        return self.workers[nodename].pool_children()

    def stop(self) -> None:
        """Warm shutdown of every worker: whatever is still unacknowledged goes back."""
        for worker in self.workers.values():
            worker.stop()

    def close(self) -> None:
        self.stop()
        if self._client is not None:
            self._client.close()
        delete_queue(self.broker_url, self.queue, self.transport_options)

    def __enter__(self) -> WorkerSet:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _ready_or_exited(worker: WorkerProcess) -> Callable[[], bool]:
    return lambda: bool(worker.log.search(r" ready\.")) or not worker.running()


def delete_queue(broker_url: str, queue: str, transport_options: dict[str, Any]) -> None:
    """Delete what a run left on the broker: the queue and its exchange; on Redis every key."""
    if broker_url.startswith("redis"):
        prefix = transport_options.get("global_keyprefix")
        if prefix:
            import redis

            client = redis.Redis.from_url(broker_url)
            try:
                keys = list(client.scan_iter(match=f"{prefix}*", count=500))
                if keys:
                    client.delete(*keys)
            finally:
                client.close()
        return
    from kombu.connection import Connection

    with Connection(broker_url, connect_timeout=5) as connection:  # type: ignore[no-untyped-call]
        channel = connection.channel()
        channel.queue_delete(queue)  # RabbitMQ: deleting what is not there is not an error
        channel.exchange_delete(queue)  # Celery names the queue's exchange after it
