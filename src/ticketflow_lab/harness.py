"""The driver's side of one real worker: start it, watch it, publish to it, kill it.

A ``Harness`` owns one worker subprocess on one vhost and one database, the worker's log
file, its attempt log and the gate directory, and remembers every action it takes (for
the timeline). Both scenarios (worker loss, time limits) are written against it.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from ticketflow_lab.attempt_log import ATTEMPT_LOG_ENV, AttemptLog, AttemptRecord
from ticketflow_lab.fault_injection import FaultPlan, release_path
from ticketflow_lab.namespaces import QueueCounts, RabbitMQVhost
from ticketflow_lab.timeline import TERMINAL_OUTCOMES, Action, build_attempts, render_timeline
from ticketflow_lab.waiting import wait_until
from ticketflow_lab.worker_process import WorkerLog, WorkerProcess

QUEUE = "celery"
READY_TIMEOUT_SECONDS = 60.0
STARTED_TIMEOUT_SECONDS = 60.0
PID_IN_LINE = r"pid=(?P<pid>\d+)\]"


PROGRESS_EVERY_SECONDS = 5.0


class Harness:
    def __init__(
        self,
        *,
        vhost: RabbitMQVhost,
        database_url: str,
        workdir: Path,
        faults: FaultPlan,
        worker_env: Mapping[str, str],
        say: Callable[[str], None] | None = None,
    ) -> None:
        from ticketflow.db.engine import DATABASE_URL_ENV
        from ticketflow.workers.app import BROKER_URL_ENV, create_app

        self.vhost = vhost
        self.database_url = database_url
        self.workdir = workdir
        self.faults = faults
        self.say = say or (lambda _text: None)
        self.started_at = time.time()
        self.actions: list[Action] = []
        self.attempt_log = AttemptLog(workdir / "attempts.jsonl")
        self.log = WorkerLog(workdir / "worker.log")
        env = dict(os.environ)
        env.update(worker_env)
        env.update(faults.to_env())
        env[BROKER_URL_ENV] = vhost.url
        env[DATABASE_URL_ENV] = database_url
        env[ATTEMPT_LOG_ENV] = str(self.attempt_log.path)
        self.nodename = f"ticketflow-{uuid.uuid4().hex[:8]}@localhost"
        self.worker = WorkerProcess(env=env, log=self.log, nodename=self.nodename, queue=QUEUE)
        self.app: Any = create_app(vhost.url, eager=False)
        self.task_ids: dict[str, str] = {}

    # -- bookkeeping ------------------------------------------------------------------
    def note(self, text: str) -> None:
        now = time.time()
        self.actions.append(Action(now, text))
        self.say(f"[+{now - self.started_at:6.2f}s] {text}")

    def records(self) -> list[AttemptRecord]:
        return self.attempt_log.read()

    def timeline(self) -> str:
        return render_timeline(
            build_attempts(self.records()), self.actions, started_at=self.started_at
        )

    # -- the worker ------------------------------------------------------------------
    def ping(self, timeout: float = 0.5) -> dict[str, Any] | None:
        replies = self.app.control.ping(destination=[self.nodename], timeout=timeout)
        for reply in replies or []:
            if self.nodename in reply:
                return dict(reply[self.nodename])
        return None

    def start_worker(self, timeout: float = READY_TIMEOUT_SECONDS) -> float:
        """Start the worker and wait until it answers a ping; return how long it took."""
        began = time.monotonic()
        pid = self.worker.start()
        wait_until(
            self._ping_unless_exited,
            timeout=timeout,
            what=f"worker {self.nodename} (pid {pid}) to answer a ping",
        )
        seconds = time.monotonic() - began
        self.note(
            f"worker up (pid {pid}, pool {self.worker.pool_children()}): ping answered "
            f"after {seconds:.1f}s"
        )
        return seconds

    def _ping_unless_exited(self) -> dict[str, Any] | None:
        if not self.worker.running():
            raise RuntimeError("the worker exited while starting:\n" + self.log.tail(30))
        return self.ping()

    def baseline(self) -> dict[str, Any]:
        """A healthy baseline: a ping answer and the queues the worker consumes."""
        inspect = self.app.control.inspect(destination=[self.nodename], timeout=2.0)
        active_queues = (inspect.active_queues() or {}).get(self.nodename) or []
        return {
            "ping": self.ping(timeout=2.0),
            "queues": sorted(queue["name"] for queue in active_queues),
            "pool": self.worker.pool_children(),
        }

    def sole_pool_process(self) -> int:
        children = self.worker.pool_children()
        if len(children) != 1:
            raise RuntimeError(f"expected exactly one prefork pool process, found {children}")
        return children[0]

    # -- messages --------------------------------------------------------------------
    def publish(self, event_id: str, body: object) -> str:
        from ticketflow.workers.tasks import TASK_NAME

        task_id = f"{event_id}.{uuid.uuid4().hex[:8]}"
        self.task_ids[event_id] = task_id
        self.app.send_task(TASK_NAME, args=[body], task_id=task_id, queue=QUEUE)
        return task_id

    def counts(self) -> QueueCounts:
        return self.vhost.counts(QUEUE)

    def release(self, event_id: str) -> None:
        if self.faults.gate_dir is None:
            raise RuntimeError("this harness has no gate directory")
        release_path(self.faults.gate_dir, event_id).touch()

    # -- waiting ---------------------------------------------------------------------
    def wait_log(self, pattern: str, *, since: int = 0, timeout: float, what: str) -> re.Match[str]:
        return wait_until(
            lambda: self.log.search(pattern, since), timeout=timeout, what=what, interval=0.02
        )

    def started_line(self, event_id: str) -> str:
        return PID_IN_LINE + rf" deliver_notification started event_id={re.escape(event_id)} "

    def wait_started_and_unacked(
        self, event_id: str, *, since: int, holding: str | None = None
    ) -> int:
        """Wait until the event's "started" line (and, if asked, its gate) is in the log
        AND the broker counts an unacked message; return the pid that logged the start.

        Each broker sample is taken after the event was published, so an unacked count
        in it is this delivery (the worker holds at most one message).
        """
        patterns = [self.started_line(event_id)]
        if holding:
            patterns.append(
                rf"test gate holding event_id={re.escape(event_id)} stage={holding} pid=\d+"
            )
        last: list[object] = []

        def probe() -> int | None:
            counts = self.counts()
            matches = [self.log.search(pattern, since) for pattern in patterns]
            last[:] = [counts, [bool(match) for match in matches]]
            first = matches[0]
            if first is None or not all(matches) or counts.unacked < 1:
                return None
            return int(first.group("pid"))

        pid = wait_until(
            probe,
            timeout=STARTED_TIMEOUT_SECONDS,
            what=f"{event_id}: started line{' + gate' if holding else ''} and unacked > 0",
            interval=0.0,
            describe=lambda: last,
        )
        counts = last[0]
        self.note(f"{event_id} is running in pool process {pid}; broker: {counts}")
        return pid

    def terminal_events(self) -> set[str]:
        return {
            record.event_id
            for record in self.records()
            if record.kind == "outcome" and record.outcome in TERMINAL_OUTCOMES
        }

    def wait_terminal(self, event_ids: set[str], *, timeout: float) -> bool:
        """Wait until every event reached an outcome and the queue is drained."""

        next_progress = time.monotonic() + PROGRESS_EVERY_SECONDS

        def probe() -> bool:
            nonlocal next_progress
            finished = event_ids & self.terminal_events()
            if time.monotonic() >= next_progress:  # long waits show they are alive
                next_progress += PROGRESS_EVERY_SECONDS
                self.say(
                    f"[+{time.time() - self.started_at:6.2f}s] waiting: "
                    f"{len(finished)}/{len(event_ids)} events finished; broker: {self.counts()}"
                )
            if finished != event_ids:
                return False
            counts = self.counts()  # a rabbitmqctl call: only once every event finished
            return counts.ready == 0 and counts.unacked == 0

        try:
            wait_until(probe, timeout=timeout, what="every event to finish", interval=0.2)
        except TimeoutError:
            return False
        return True

    # -- lifetime --------------------------------------------------------------------
    def close(self) -> None:
        try:
            self.worker.stop()
        finally:
            pool = getattr(self.app, "_pool", None)
            if pool is not None:
                pool.force_close_all()
            self.app.close()

    def __enter__(self) -> Harness:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
