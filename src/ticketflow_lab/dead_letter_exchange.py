"""``Reject(requeue=False)`` vs a plain exception, on RabbitMQ with a dead-letter exchange.

One queue whose ``x-dead-letter-exchange`` points at an exchange bound to a dead-letter
queue (DLQ), one real worker (a ``celery worker`` subprocess of ``lesson14_app``, prefork,
late ACK, prefetch 1) and three tasks that fail on their only run:

* late ACK + ``Reject(requeue=False)`` → ``basic.reject``: RabbitMQ moves the message,
  body intact, into the DLQ (with an ``x-death`` header saying why and from where);
* late ACK + ``ValueError`` → Celery ACKs it (``task_acks_on_failure``, on by default):
  the message is gone, the DLQ never sees it;
* early ACK + ``Reject(requeue=False)`` → the message was ACKed when it arrived, so there
  is nothing left to reject: also gone. ``Reject`` needs ``acks_late``.

After the worker stops, anything still unacknowledged would be back in the work queue:
an empty work queue proves each message was settled. Every queue and exchange has a
fresh name and is deleted at the end.

(An in-process ``start_worker`` on amqp was tried first: with the solo pool the consumer
stalled after the first ``Reject``, with the threads pool it did not stop within its
10 s shutdown timeout, and a second start in the same kernel never became ready.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ticketflow_lab.lesson14_app import DEAD_LETTER_ENV, FAILING_TASKS
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import unique_name, url
from ticketflow_lab.waiting import wait_until

#: (task name, acks_late, what it raises)
CASES = tuple(
    (name, late, "Reject(requeue=False)" if reject else "ValueError")
    for name, late, reject in FAILING_TASKS
)


@dataclass
class DeadLetterRun:
    runs: dict[str, int] = field(default_factory=dict)
    left_in_work_queue: int = -1
    dead_letters: list[dict[str, Any]] = field(default_factory=list)

    def report(self) -> list[str]:
        lines = [f"{'task':<22} {'acks_late':<9}  {'raised':<22} runs  in the DLQ"]
        in_dlq = {letter["task"] for letter in self.dead_letters}
        for name, late, raised in CASES:
            shown = "是" if name in in_dlq else "否（消失）"
            runs = self.runs.get(name, 0)
            lines.append(f"{name:<22} {late!s:<9}  {raised:<22} {runs:>4}  {shown}")
        lines.append(f"Worker 停下后原队列里：{self.left_in_work_queue} 条（没有未确认的消息）")
        lines.append(f"死信队列里有 {len(self.dead_letters)} 条消息：")
        for letter in self.dead_letters:
            lines.append(
                f"  task={letter['task']} args={letter['args']} x-death reason="
                f"{letter['reason']}（来自原队列：{letter['from_work_queue']}）"
            )
        return lines


def run_reject_vs_exception(folder: Path, *, timeout: float = 10.0) -> DeadLetterRun:
    """Run the three tasks on a real worker whose queue dead-letters into a fresh DLQ."""
    from kombu.connection import Connection
    from kombu.entity import Exchange, Queue

    broker = url("RabbitMQ")
    dlx = unique_name("lesson14.dlx")
    result = DeadLetterRun()
    with Connection(broker, connect_timeout=5) as connection:  # type: ignore[no-untyped-call]
        channel = connection.channel()
        exchange = Exchange(dlx, "direct")  # type: ignore[no-untyped-call]
        dead_letter_queue: Any = Queue(dlx, exchange, routing_key=dlx)  # type: ignore[no-untyped-call]
        dead_letter_queue(channel).declare()
        try:
            with WorkerSet(
                folder,
                broker_url=broker,
                prefix="lesson14.work",
                extra_env={DEAD_LETTER_ENV: dlx},
            ) as workers:
                workers.start("dlx")
                for number, (name, _late, _raised) in enumerate(CASES, start=1):
                    workers.send(name, f"req-{number}")
                wait_until(
                    lambda: len(_started(workers)) == len(CASES) and _count(channel, dlx) >= 1,
                    timeout=timeout,
                    what="the three tasks to run and the rejected one to reach the DLQ",
                )
                # fail_late's ACK follows its "started" (its failure is settled by the main
                # process): stopping before then would hand it back, on a loaded machine
                workers.wait_settled(timeout=timeout)
                workers.stop()  # anything unacknowledged would now be back in the queue
                result.runs = _started(workers)
                result.left_in_work_queue = _count(channel, workers.queue)
                result.dead_letters = _drain(channel, dlx, workers.queue)
        finally:
            channel.queue_delete(dlx)
            channel.exchange_delete(dlx)
    return result


def _started(workers: WorkerSet) -> dict[str, int]:
    runs: dict[str, int] = {}
    for entry in workers.entries():
        if entry["kind"] == "started" and "task" in entry:
            runs[entry["task"]] = runs.get(entry["task"], 0) + 1
    return runs


def _count(channel: Any, queue: str) -> int:
    return int(channel.queue_declare(queue, passive=True).message_count)


def _drain(channel: Any, queue: str, work: str) -> list[dict[str, Any]]:
    import json

    letters = []
    while (message := channel.basic_get(queue, no_ack=True)) is not None:
        headers = message.headers or {}
        deaths = headers.get("x-death") or [{}]
        body = json.loads(message.body)
        letters.append(
            {
                "task": headers.get("task"),
                "args": body[0] if isinstance(body, list) else body,
                "reason": deaths[0].get("reason"),
                "from_work_queue": deaths[0].get("queue") == work,
            }
        )
    return letters
