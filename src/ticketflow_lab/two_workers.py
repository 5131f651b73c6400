"""A late-ACK message whose worker dies, redelivered to a second worker: RabbitMQ vs Redis.

Two real workers (prefork, concurrency 1, prefetch 1, late ACK) consume one queue. The
driver sends one ``lesson14.hold`` task, waits until one worker has started it, and
SIGKILLs that worker's whole process group, so no ACK is ever sent. Then it waits for the
second run, which can only happen on the other worker.

* RabbitMQ notices the closed connection and requeues the message at once;
* Redis has no connection-bound delivery: the message sits in the ``unacked`` hash until
  ``visibility_timeout`` seconds after it was delivered, then a live consumer's periodic
  sweep puts it back (``unacked_restore_interval`` / ``_throttle`` set the sweep period;
  we make it 1 s so the timeout alone decides). A sweep holds the ``unacked_mutex`` lock;
  a worker killed mid-sweep leaves it for ``unacked_mutex_expire`` (300 s by default), so
  no one sweeps for 5 minutes. With a 1 s sweep that kill happens now and then, so the
  lock here expires after 1 s too.

Conclusions are booleans computed from the observed times, so a re-run prints the same.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ticketflow_lab.lesson14_workers import Entry, WorkerSet
from ticketflow_lab.live_services import unique_name, url

IMMEDIATE_SECONDS = 2.0  # well under the 3 s the Redis cell waits


@dataclass(frozen=True)
class Redelivery:
    broker: str
    visibility_timeout: float | None
    sent_at: float
    killed_at: float
    first: Entry
    second: Entry | None
    right_after_kill: dict[str, int] | None = None

    @property
    def after_kill(self) -> float | None:
        return None if self.second is None else self.second["t"] - self.killed_at

    @property
    def after_send(self) -> float | None:
        return None if self.second is None else self.second["t"] - self.sent_at

    def conclusions(self) -> list[str]:
        lines = [f"{self.broker}：一个 Worker 开始执行任务后被整个杀掉（SIGKILL，没有 ACK）"]
        if self.second is None:
            return [*lines, "  没有观察到第二次执行：消息丢了"]
        lines += [
            f"  第二次执行在另一个 Worker 上：{self.second['hostname'] != self.first['hostname']}",
            f"  第二次执行看到的 redelivered：{self.second['redelivered']}，"
            f"retries：{self.second['retries']}（重投不是重试）",
        ]
        if self.visibility_timeout is None:
            immediate = (self.after_kill or 0.0) < IMMEDIATE_SECONDS
            lines.append(
                f"  杀掉后 {IMMEDIATE_SECONDS:g} s 内就重投了"
                f"（连接一断，broker 就把消息退回队列）：{immediate}"
            )
        else:
            waited = (self.after_send or 0.0) >= self.visibility_timeout
            where = self.right_after_kill or {}
            lines += [
                f"  刚杀掉时：队列里 {where.get('queue')} 条，unacked 哈希里 "
                f"{where.get('unacked')} 条（没人注意到 Worker 死了）",
                f"  发出后满 visibility_timeout（{self.visibility_timeout:g} s）才重投：{waited}",
            ]
        return lines

    def measured(self) -> str:
        if self.second is None:
            return "measured: no second run"
        return (
            f"measured this run: second run {self.after_kill:.2f} s after the kill, "
            f"{self.after_send:.2f} s after sending"
        )


def redis_transport(visibility_timeout: float) -> dict[str, Any]:
    """Short timeout, 1 s sweeps and sweep lock, and a key prefix of this run only."""
    return {
        "visibility_timeout": visibility_timeout,
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
        "unacked_mutex_expire": 1,
        "global_keyprefix": unique_name("lesson14") + ":",
    }


def run_redelivery(
    broker: str, folder: Path, *, visibility_timeout: float = 3.0, timeout: float = 60.0
) -> Redelivery:
    """Run the experiment on ``broker`` ("RabbitMQ" or "Redis") in ``folder``.

    ``timeout`` bounds each wait (both poll): a healthy run sees the second start about
    ``visibility_timeout`` + 1 s after the kill, but two test suites on two cores once took
    longer than 15 s, and "the message was lost" must not be said of a slow machine.
    """
    redis = broker == "Redis"
    transport = redis_transport(visibility_timeout) if redis else {}
    with WorkerSet(folder, broker_url=url(broker), transport_options=transport) as workers:
        workers.start("a", "b")
        sent_at = time.time()
        key = "redelivery"
        workers.send("lesson14.hold", key)
        first = workers.wait_entry(
            lambda e: e["kind"] == "started" and e["key"] == key,
            timeout=timeout,
            what="the first run to start",
        )
        killed_at = workers.kill(first["hostname"])
        where = _redis_state(workers) if redis else None
        try:
            second: Entry | None = workers.wait_entry(
                lambda e: e["kind"] == "started" and e["key"] == key and e["t"] > first["t"],
                timeout=timeout,
                what="the second run",
            )
        except TimeoutError:
            second = None
    return Redelivery(
        broker,
        visibility_timeout if redis else None,
        sent_at,
        killed_at,
        first,
        second,
        where,
    )


def _redis_state(workers: WorkerSet) -> dict[str, int]:
    """Where the message is on Redis: the queue's list, or the unacked hash."""
    import redis

    prefix = workers.transport_options["global_keyprefix"]
    client = redis.Redis.from_url(workers.broker_url)
    try:
        return {
            "queue": int(client.llen(prefix + workers.queue)),
            "unacked": int(client.hlen(prefix + "unacked")),
        }
    finally:
        client.close()
