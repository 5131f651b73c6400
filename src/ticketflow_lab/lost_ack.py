"""A lost ACK makes a duplicate; ticketflow's receipt absorbs it.

The effect is committed, then the ACK is lost on the way: the consumer's TCP connection
is cut (``shutdown`` of its socket, as a network failure would) just before ``ack()``.
RabbitMQ never received the ACK, so when it sees the connection gone it delivers the same
message again, flagged ``redelivered``. The second consumer runs the same handler, which
finds the receipt and changes nothing (``apply_notification_once``: receipt and business
task in one SQL transaction, on a throwaway PostgreSQL database).

The consumers are plain kombu consumers, not a Celery worker, so the cut can be placed
exactly between the commit and the ACK; the handler is the very one
``deliver_notification`` calls (``make_notification_handler``).
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from dataclasses import dataclass, field
from typing import Any

from ticketflow_lab.live_services import unique_name, url

EVENT_ID = "evt-lost-ack"


@dataclass
class LostAck:
    deliveries: list[tuple[bool, bool]] = field(default_factory=list)  # (redelivered, applied)
    ack_error: str = ""
    receipts: int = -1
    business_tasks: int = -1

    def report(self) -> list[str]:
        lines = []
        for number, (redelivered, applied) in enumerate(self.deliveries, start=1):
            verdict = "副作用已提交" if applied else "找到 receipt：duplicate，什么也不改"
            lines.append(f"第 {number} 次投递：redelivered={redelivered} -> {verdict}")
            if number == 1:
                lines.append(f"  COMMIT 之后、ACK 之前切断连接：ack() 抛出 {self.ack_error}")
        lines.append(f"{EVENT_ID}：receipt {self.receipts} 条，业务任务 {self.business_tasks} 条")
        return lines


def run_lost_ack(*, timeout: float = 10.0) -> LostAck:
    from kombu.connection import Connection
    from sqlalchemy import func, select

    from ticketflow.db import (
        BusinessTask,
        NotificationReceipt,
        create_engine_from_url,
        create_schema,
    )
    from ticketflow.messaging.envelope import EventEnvelope
    from ticketflow.notifications.effects import make_notification_handler
    from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork
    from ticketflow_lab.namespaces import temporary_database

    broker = url("RabbitMQ")
    queue = unique_name("lesson14.lostack")
    event = EventEnvelope(EVENT_ID, "ticket.assigned", {"ticket_id": 14, "assignee": "mei"})
    result = LostAck()
    with temporary_database(url("PostgreSQL"), prefix="lesson14") as database:
        engine = create_engine_from_url(database)
        try:
            create_schema(engine)
            handle = make_notification_handler(SqlAlchemyUnitOfWork(engine))
            with Connection(broker, connect_timeout=5) as setup:  # type: ignore[no-untyped-call]
                channel = setup.channel()
                channel.queue_declare(queue, durable=True, auto_delete=False)
                try:
                    setup.Producer().publish(
                        json.dumps(event.to_dict()),
                        routing_key=queue,
                        delivery_mode=2,
                        content_type="application/json",
                        content_encoding="utf-8",
                    )
                    for cut in (True, False):
                        result.deliveries.append(
                            _consume_once(
                                broker, queue, handle, EventEnvelope, cut, result, timeout
                            )
                        )
                finally:
                    channel.queue_delete(queue)
            with engine.connect() as connection:
                for model in (NotificationReceipt, BusinessTask):
                    count = connection.execute(
                        select(func.count()).select_from(model).where(model.event_id == EVENT_ID)
                    ).scalar_one()
                    if model is NotificationReceipt:
                        result.receipts = int(count)
                    else:
                        result.business_tasks = int(count)
        finally:
            engine.dispose()
    return result


def _consume_once(
    broker: str,
    queue: str,
    handle: Any,
    envelope_type: Any,
    cut: bool,
    result: LostAck,
    timeout: float,
) -> tuple[bool, bool]:
    """Get the message on a fresh connection, apply it, then ACK (or lose the ACK)."""
    from kombu.connection import Connection

    connection: Any = Connection(broker, connect_timeout=5)  # type: ignore[no-untyped-call]
    try:
        channel = connection.channel()
        deadline = time.monotonic() + timeout
        while (message := channel.basic_get(queue, no_ack=False)) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no delivery from {queue} within {timeout} s")
            time.sleep(0.05)
        redelivered = bool(message.delivery_info.get("redelivered"))
        applied = bool(handle(envelope_type.from_json_bytes(_as_bytes(message.body))))
        if cut:
            connection.connection.sock.shutdown(socket.SHUT_RDWR)  # the network fails here
            try:
                channel.basic_ack(message.delivery_tag)
                result.ack_error = "nothing (unexpected)"
            except Exception as error:  # what a worker sees when its ACK cannot be sent
                gone = isinstance(error, OSError)
                result.ack_error = "OSError: the connection is gone" if gone else repr(error)
        else:
            channel.basic_ack(message.delivery_tag)
        return redelivered, applied
    finally:
        with contextlib.suppress(Exception):  # a cut connection cannot close cleanly
            connection.release()


def _as_bytes(body: bytes | str) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else body
