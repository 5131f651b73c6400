"""A pickle task message sent to a JSON-only worker, on RabbitMQ with a dead-letter exchange.

Lesson 14 used to say the worker logs a critical "Can't decode message body" and ACKs the
message. Celery 5.x does something else, and this demo shows what: for a protocol-2 task
message whose content type is not accepted, the worker's strategy raises
``ContentDisallowed``, ``Consumer.on_invalid_task`` logs an ERROR "Received invalid task
message: … The message has been ignored and discarded." and *rejects* the message
(``basic.reject``, no requeue). On a queue with an ``x-dead-letter-exchange`` RabbitMQ
then moves it, body intact, into the dead-letter queue with an ``x-death`` reason
``rejected``. The payload is ``pickle_payload.MarkerPayload``: had anything unpickled it,
a marker file would exist.

The message is published with kombu as Celery's protocol 2 lays it out (headers ``task``,
``id``; the body the pickled ``(args, kwargs, embed)`` triple), so only its serializer
differs from what ``send_task`` would send.
"""

from __future__ import annotations

import pickle
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kombu.connection import Connection
from kombu.entity import Exchange, Queue

from ticketflow_lab.lesson14_app import DEAD_LETTER_ENV
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import unique_name, url
from ticketflow_lab.pickle_payload import PICKLE_CONTENT_TYPE, MarkerPayload
from ticketflow_lab.waiting import wait_until

INVALID = "Received invalid task message"
DISCARDED = "The message has been ignored and discarded."
DECODE_ERROR = "Can't decode message body"


@dataclass
class PickleMessageRun:
    log_levels: list[str] = field(default_factory=list)
    discarded_said: bool = False
    decode_error_said: bool = False
    left_in_work_queue: int = -1
    dead_letters: list[dict[str, Any]] = field(default_factory=list)
    task_started: bool = False
    marker_exists: bool = True

    def fate(self) -> str:
        """What became of the message, as one word the test reads."""
        if len(self.dead_letters) == 1 and self.dead_letters[0]["reason"] == "rejected":
            return "rejected"
        if self.left_in_work_queue > 0:
            return "requeued"
        return "acked"

    def report(self) -> list[str]:
        letter = self.dead_letters[0] if self.dead_letters else {}
        return [
            f"Worker 日志：{INVALID}（级别 {'/'.join(self.log_levels) or '无'}）",
            f"  日志写着“{DISCARDED}”：{self.discarded_said}",
            f"  日志里有“{DECODE_ERROR}”（critical）：{self.decode_error_said}",
            f"消息的去向：{self.fate()}（rejected = basic.reject，不退回队列）",
            f"  原队列在 Worker 停下后还剩：{self.left_in_work_queue} 条",
            f"  死信队列收到：{len(self.dead_letters)} 条，x-death 原因 = {letter.get('reason')}，"
            f"来自原队列：{letter.get('from_work_queue')}，"
            f"content_type = {letter.get('content_type')}",
            f"任务开始执行过：{self.task_started}；payload 被反序列化（标记文件存在）："
            f"{self.marker_exists}",
        ]


def run_pickle_message(folder: Path, *, timeout: float = 10.0) -> PickleMessageRun:
    """Publish one pickle task message to a JSON-only worker whose queue dead-letters."""
    broker = url("RabbitMQ")
    dlx = unique_name("lesson14.dlx")
    marker = folder / "marker.txt"
    result = PickleMessageRun()
    with Connection(broker, connect_timeout=5) as connection:  # type: ignore[no-untyped-call]
        channel = connection.channel()
        exchange = Exchange(dlx, "direct")  # type: ignore[no-untyped-call]
        dead_letter_queue: Any = Queue(dlx, exchange, routing_key=dlx)  # type: ignore[no-untyped-call]
        dead_letter_queue(channel).declare()
        try:
            with WorkerSet(
                folder,
                broker_url=broker,
                prefix="lesson14.pickle",
                extra_env={DEAD_LETTER_ENV: dlx},
            ) as workers:
                (node,) = workers.start("pickle")
                body = pickle.dumps(((MarkerPayload(marker),), {}, {}))
                task_id = str(uuid.uuid4())
                producer = connection.Producer(channel)
                producer.publish(
                    body,
                    exchange=workers.queue,
                    routing_key=workers.queue,
                    content_type=PICKLE_CONTENT_TYPE,
                    content_encoding="binary",
                    headers={"lang": "py", "task": "lesson14.hold", "id": task_id},
                    delivery_mode=2,
                )
                wait_until(lambda: _count(channel, dlx) >= 1, timeout=timeout, what="a dead letter")
                log = workers.workers[node].log
                workers.stop()
                text = log.text()
                result.log_levels = sorted(
                    {
                        line.split("/", 1)[0].rsplit(" ", 1)[-1]
                        for line in text.splitlines()
                        if INVALID in line
                    }
                )
                result.discarded_said = DISCARDED in text
                result.decode_error_said = DECODE_ERROR in text
                result.left_in_work_queue = _count(channel, workers.queue)
                result.dead_letters = _drain(channel, dlx, workers.queue)
                result.task_started = any(e["kind"] == "started" for e in workers.entries())
                result.marker_exists = marker.exists()
        finally:
            channel.queue_delete(dlx)
            channel.exchange_delete(dlx)
    return result


def _count(channel: Any, queue: str) -> int:
    return int(channel.queue_declare(queue, passive=True).message_count)


def _drain(channel: Any, queue: str, work: str) -> list[dict[str, Any]]:
    letters = []
    while (message := channel.basic_get(queue, no_ack=True)) is not None:
        deaths = (message.headers or {}).get("x-death") or [{}]
        letters.append(
            {
                "reason": deaths[0].get("reason"),
                "from_work_queue": deaths[0].get("queue") == work,
                "content_type": message.content_type,
            }
        )
    return letters
