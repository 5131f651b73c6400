"""A pool process killed mid-task, with and without ``task_reject_on_worker_lost``.

One real worker (``lesson14_app`` on RabbitMQ, prefork, concurrency 1, late ACK) starts
``lesson14.hold``; the driver SIGKILLs that pool process (the main process stays up and
notices: ``WorkerLostError``). Then the driver waits a few seconds for a second run and
stops the worker warmly: a message still unacknowledged would now be back in the queue.

* ``task_reject_on_worker_lost=True`` (the course's setting): the main process rejects
  with requeue, the task runs again (``redelivered=True``);
* ``False`` (Celery's default): the main process *acknowledges* the message, as it does
  for any failure of a late-ACK task (``acks_on_failure``): one run, nothing left — gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url

DECISION_TIMEOUT_SECONDS = 30.0
ACK_SETTLE_SECONDS = 1.0
#: How long to wait for a second run once the main process has logged the lost process:
#: a new pool process is forked and, with the setting, gets the requeued message (on a
#: loaded 2-core machine this once took more than 15 s). Without the setting nothing comes.
SECOND_RUN_WAIT_SECONDS = {True: 30.0, False: 2.0}


@dataclass(frozen=True)
class ChildLoss:
    reject_on_worker_lost: bool
    runs: int
    redelivered: list[object]
    left_in_queue: int

    def conclusion(self) -> str:
        if self.runs > 1:
            fate = "退回队列，又执行了一次"
        elif self.left_in_queue:
            fate = "退回了队列，但观察窗口内没有再执行"
        else:
            fate = "被 Worker 主进程确认：消息没了"
        return (
            f"task_reject_on_worker_lost={self.reject_on_worker_lost!s:<5}：执行 {self.runs} 次，"
            f"redelivered={self.redelivered}，队列里剩 {self.left_in_queue} 条 -> {fate}"
        )


def run_child_loss(
    folder: Path, *, reject_on_worker_lost: bool, timeout: float = 10.0
) -> ChildLoss:
    from kombu.connection import Connection

    broker = url("RabbitMQ")
    with WorkerSet(
        folder, broker_url=broker, reject_on_worker_lost=reject_on_worker_lost
    ) as workers:
        (node,) = workers.start("child")
        workers.send("lesson14.hold", "child-lost")
        first = workers.wait_entry(
            lambda e: e["kind"] == "started", timeout=timeout, what="the task to start"
        )
        if first["pid"] not in workers.pool_children(node):
            raise RuntimeError(f"pid {first['pid']} is not a pool process of {node}")
        os.kill(first["pid"], signal.SIGKILL)
        # The main process has decided (requeue or ACK) once it logs the lost process.
        workers.wait_log(node, "WorkerLostError", timeout=DECISION_TIMEOUT_SECONDS)
        with contextlib.suppress(TimeoutError):  # no second run within the window
            workers.wait_entry(
                lambda e: e["kind"] == "finished",
                timeout=SECOND_RUN_WAIT_SECONDS[reject_on_worker_lost],
                what="a second run",
            )
        time.sleep(ACK_SETTLE_SECONDS)  # the main process ACKs just after the run returns
        workers.stop()
        with Connection(broker, connect_timeout=5) as connection:  # type: ignore[no-untyped-call]
            left = connection.channel().queue_declare(workers.queue, passive=True).message_count
        runs = [e for e in workers.entries() if e["kind"] == "started"]
    return ChildLoss(reject_on_worker_lost, len(runs), [e["redelivered"] for e in runs], int(left))


def run_both(folders: dict[bool, Path]) -> list[ChildLoss]:
    """Both settings side by side (two workers at once, so the cell waits for one only)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(folders)) as pool:
        futures = {
            reject: pool.submit(run_child_loss, folder, reject_on_worker_lost=reject)
            for reject, folder in folders.items()
        }
        return [futures[reject].result() for reject in sorted(folders, reverse=True)]
