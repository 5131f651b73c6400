"""Looking at a live worker from outside: ``celery inspect`` and the task event stream.

* ``run_inspect``: a real worker (``lesson14_app``, RabbitMQ) is busy with one late-ACK
  task; the ``celery inspect active|reserved|stats|registered`` command line is run
  against that worker only (``-d NODE``, the four at once) and its JSON replies trimmed
  to what the lesson discusses.
* ``run_events``: the same kind of worker with task events on (``-E``) and an
  ``app.events.Receiver`` in this process; one task is redelivered (its pool process is
  SIGKILLed: ``task_reject_on_worker_lost`` requeues it) and one retries itself once.
  What comes back is the event sequence per task, as the receiver saw it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kombu.connection import Connection

from ticketflow_lab import lesson14_app
from ticketflow_lab.lesson14_workers import WorkerSet
from ticketflow_lab.live_services import url
from ticketflow_lab.waiting import wait_until

INSPECT_COMMANDS = ("active", "reserved", "stats", "registered")
INSPECT_TIMEOUT_SECONDS = 5.0


def inspect_command(command: str, nodename: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "ticketflow_lab.lesson14_app",
        "inspect",
        command,
        "-d",
        nodename,
        "--timeout",
        str(INSPECT_TIMEOUT_SECONDS),
        "--json",
    ]


#: tasks sent to the inspected worker: one runs, the rest wait (prefetch 1 holds none back)
INSPECT_TASKS = 4


def run_inspect(folder: Path, *, timeout: float = 10.0) -> list[str]:
    """Inspect a worker running one of ``INSPECT_TASKS`` tasks; the trimmed replies, as lines.

    More than one task is sent so the prefetch window is put to the test: with prefetch 1
    and concurrency 1 the worker holds the running task only, and the rest stay ready in
    the broker's queue (counted there, after the four replies came back).
    """
    with WorkerSet(folder, broker_url=url("RabbitMQ")) as workers:
        (node,) = workers.start("inspect")
        workers.send("lesson14.hold", "being-inspected")
        workers.wait_entry(
            lambda e: e["kind"] == "started", timeout=timeout, what="the task to start"
        )
        for number in range(1, INSPECT_TASKS):
            workers.send("lesson14.hold", f"waiting-{number}")
        wait_until(
            lambda: queue_ready(workers) == INSPECT_TASKS - 1,
            timeout=timeout,
            what="the other tasks to be in the queue",
        )
        queued = queue_ready(workers)  # the prefetch window keeps them there: steady
        running = {
            command: subprocess.Popen(
                inspect_command(command, node),
                env=workers.env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for command in INSPECT_COMMANDS
        }
        replies = {}
        for command, process in running.items():
            out, err = process.communicate(timeout=INSPECT_TIMEOUT_SECONDS + 20)
            if process.returncode != 0:
                raise RuntimeError(f"celery inspect {command} failed: {err.strip()[-300:]}")
            replies[command] = json.loads(out)[node]
        replies["sent"] = INSPECT_TASKS
        replies["queued"] = queued
        workers.kill(node)  # the held task would keep a warm shutdown waiting
    return trim_inspect(replies)


def queue_ready(workers: WorkerSet) -> int:
    """Messages ready in the set's queue on the broker (not those a worker holds)."""
    with Connection(workers.broker_url, connect_timeout=5) as connection:  # type: ignore[no-untyped-call]
        return int(
            connection.default_channel.queue_declare(workers.queue, passive=True).message_count
        )


def trim_inspect(replies: dict[str, Any]) -> list[str]:
    """The parts of the replies the lesson talks about, in Chinese (pure, tested alone)."""
    lines = []
    for task in replies["active"]:
        lines.append(
            f"active:     {task['name']} acknowledged={task['acknowledged']}"
            "（晚 ACK：任务返回之前不确认）"
        )
    stats = replies["stats"]
    pool = stats["pool"]
    window = stats["prefetch_count"]
    reserved = len(replies["reserved"])
    lines.append(f"reserved:   {reserved} 条")
    lines.append(
        f"stats:      pool max-concurrency={pool['max-concurrency']} "
        f"prefetch_count={window} transport={stats['broker']['transport']}"
    )
    ours = sorted(name for name in replies["registered"] if name.startswith("lesson14."))
    lines.append(f"registered: {', '.join(ours)}")
    if "sent" in replies:
        held = len(replies["active"]) + reserved
        lines.append(
            f"发出 {replies['sent']} 条：Worker 手里 {held} 条（active {len(replies['active'])}"
            f" + reserved {reserved}），问之前 broker 队列里在等 {replies['queued']} 条"
        )
        lines.append(f"Worker 手里的消息不超过预取窗口 prefetch_count={window}：{held <= window}")
    return lines


def run_article_config(folder: Path) -> list[str]:
    """A worker with the article's ``worker_concurrency=4`` and 300 s / 360 s limits, asked.

    The worker is started without ``--concurrency`` on its command line (the setting alone
    decides), and ``celery inspect stats`` reports what its pool really runs with.
    """
    with WorkerSet(
        folder, broker_url=url("RabbitMQ"), extra_env={lesson14_app.ARTICLE_ENV: "1"}
    ) as workers:
        (node,) = workers.start("article", concurrency=None)
        process = subprocess.run(
            inspect_command("stats", node),
            env=workers.env,
            capture_output=True,
            text=True,
            timeout=INSPECT_TIMEOUT_SECONDS + 20,
            check=False,
        )
        if process.returncode != 0:
            raise RuntimeError(f"celery inspect stats failed: {process.stderr.strip()[-300:]}")
        stats = json.loads(process.stdout)[node]
    return describe_article_stats(stats)


def describe_article_stats(stats: dict[str, Any]) -> list[str]:
    """What ``inspect stats`` says about the article's settings (pure, tested alone)."""
    pool = stats["pool"]
    soft, hard = pool["timeouts"]
    wanted = lesson14_app.ARTICLE_SETTINGS
    return [
        f"pool max-concurrency={pool['max-concurrency']}，池进程 {len(pool['processes'])} 个"
        f"（worker_concurrency={wanted['worker_concurrency']}）",
        f"prefetch_count={stats['prefetch_count']}（worker_prefetch_multiplier=1 × 并发 "
        f"{pool['max-concurrency']}）",
        f"pool timeouts：软 {soft:g} s，硬 {hard:g} s（task_soft_time_limit="
        f"{wanted['task_soft_time_limit']}，task_time_limit={wanted['task_time_limit']}）",
        "与文章的配置一致："
        + str(
            pool["max-concurrency"] == wanted["worker_concurrency"]
            and (soft, hard) == (wanted["task_soft_time_limit"], wanted["task_time_limit"])
        ),
    ]


def run_events(folder: Path, *, timeout: float = 12.0) -> dict[str, list[dict[str, Any]]]:
    """Capture the task events of a redelivered and a retried task, per task id."""
    with WorkerSet(folder, broker_url=url("RabbitMQ")) as workers:
        (node,) = workers.start("events", extra_args=["-E"])
        events: list[dict[str, Any]] = []
        receiver, thread = _listen(workers.client, events.append)
        try:
            redelivered = workers.send("lesson14.hold", "redelivered")
            started = workers.wait_entry(
                lambda e: e["kind"] == "started" and e["key"] == "redelivered",
                timeout=timeout,
                what="the task to start",
            )
            if started["pid"] not in workers.pool_children(node):
                raise RuntimeError(f"pid {started['pid']} is not a pool process of {node}")
            os.kill(started["pid"], signal.SIGKILL)
            retried = workers.send("lesson14.flaky", "retried")
            ours = {redelivered, retried}
            wait_until(
                lambda: {e["uuid"] for e in events if e["type"] == "task-succeeded"} >= ours,
                timeout=timeout,
                what="both tasks to succeed",
            )
        finally:
            receiver.should_stop = True
            thread.join(timeout=5)
    by_task: dict[str, list[dict[str, Any]]] = {redelivered: [], retried: []}
    # Events of one task come from several publishers (the caller, the worker's main and
    # pool processes) on their own connections: they arrive in any order, so put them in
    # the order they were sent (one machine, one clock).
    for event in sorted(events, key=lambda e: float(e.get("timestamp") or 0.0)):
        if event.get("uuid") in by_task:
            by_task[event["uuid"]].append(event)
    return by_task


def _listen(app: Any, sink: Callable[[dict[str, Any]], None]) -> tuple[Any, threading.Thread]:
    """An event receiver in a thread; returns once it consumes (no event is missed)."""
    ready = threading.Event()
    connection = app.connection_for_read()

    class Receiver(app.events.Receiver):  # type: ignore[misc]
        def on_consume_ready(self, *args: Any, **kwargs: Any) -> None:
            super().on_consume_ready(*args, **kwargs)
            ready.set()

    receiver = Receiver(connection, handlers={"*": sink})

    def capture() -> None:
        try:
            receiver.capture(limit=None, timeout=None, wakeup=False)
        finally:
            connection.release()

    thread = threading.Thread(target=capture, name="lesson14-events", daemon=True)
    thread.start()
    if not ready.wait(timeout=10):
        raise RuntimeError("the event receiver did not start consuming within 10 s")
    return receiver, thread


def describe_events(by_task: dict[str, list[dict[str, Any]]]) -> list[str]:
    """One line per task: how often it was published, then the worker's events in order.

    ``task-sent`` comes from the publisher after it published, so the worker's
    ``task-received`` may well be stamped earlier: it is counted, not placed in the line.
    """
    lines = []
    for events in by_task.values():
        name = next((e["name"] for e in events if e.get("name")), "?")
        sent = sum(e["type"] == "task-sent" for e in events)
        steps = []
        for event in events:
            kind = event["type"].removeprefix("task-")
            if kind == "sent":
                continue
            if kind in ("retried", "failed"):
                kind += f"({str(event.get('exception', '')).split('(', 1)[0]})"
            elif kind == "rejected":
                kind += f"(requeue={event.get('requeue')})"
            elif kind == "received" and event.get("retries"):
                kind += f"(retries={event['retries']})"
            steps.append(kind)
        lines.append(f"{name}：发布 {sent} 次；Worker 的事件：" + " -> ".join(steps))
    return lines
