"""What a Celery task costs besides its grading, and how many workers the servers can feed.

* ``task_costs(db_url)``: from the "finished" rows of a ``grade --broker`` run (each carries
  its ``timings``, see ``grader.instructor.batch.celery_app.task_timings``): per task the
  grading time, the gradebook writes, publish -> start of the first task of each worker
  process (an idle worker: the broker's latency, no queue), and between two tasks of one
  worker process the gap from the end of one grading to the start of the next (its
  "finished" write, its acknowledgement, the next delivery and Celery's dispatch);
* ``broker_rate(url)``: persistent messages through one RabbitMQ queue, published, then
  consumed one at a time with a late acknowledgement (prefetch 1), as the tasks are;
* ``gradebook_burst(url)``: 10,000 gradings into PostgreSQL, six per transaction as a
  student's are (``Gradebook.record_all``), or one per transaction;
* ``projection(...)``: the number of workers before the overhead passes 5% of grading.
"""

from __future__ import annotations

import itertools
import multiprocessing
import statistics
import time
import uuid
from typing import Any

OVERHEAD_BUDGET = 0.05
#: Gradings per task (one student: six exercises, recorded in one transaction), besides
#: its "finished" row.
GRADINGS_PER_TASK = 6


def _stats(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "median_ms": round(1000 * statistics.median(values), 2),
        "mean_ms": round(1000 * statistics.mean(values), 2),
        "max_ms": round(1000 * max(values), 2),
    }


def task_costs(db_url: str) -> dict[str, Any]:
    from sqlalchemy import create_engine, select

    from grader.instructor.gradebook.models import BatchTask

    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            summaries = [row[0] for row in connection.execute(select(BatchTask.summary))]
    finally:
        engine.dispose()
    tasks = [s["timings"] for s in summaries if isinstance(s.get("timings"), dict)]
    by_worker: dict[str, list[dict[str, Any]]] = {}
    for task in tasks:
        by_worker.setdefault(str(task["worker"]), []).append(task)
    first_waits, gaps = [], []
    for mine in by_worker.values():
        mine.sort(key=lambda task: float(task["started"]))
        if mine[0].get("published") is not None:
            first_waits.append(float(mine[0]["started"]) - float(mine[0]["published"]))
        gaps += [
            float(later["started"]) - float(earlier["graded"])
            for earlier, later in itertools.pairwise(mine)
        ]
    writes = [float(task["gradebook_seconds"]) for task in tasks]
    grading = [
        float(task["graded"]) - float(task["started"]) - float(task["gradebook_seconds"])
        for task in tasks
    ]
    return {
        "tasks": len(tasks),
        "worker_processes": len(by_worker),
        "grading": _stats(grading),
        "gradebook_writes": _stats(writes),
        "publish_to_start_idle_worker": _stats(first_waits),
        "between_tasks": _stats(gaps),
    }


def broker_rate(amqp_url: str, messages: int = 2000) -> dict[str, float]:
    """Persistent messages per second through one queue: publish them all, then receive and
    acknowledge one at a time with prefetch 1 (what a worker with ``task_acks_late`` does)."""
    from kombu import Connection, Consumer, Exchange, Queue

    name = f"tf_bench_rate_{uuid.uuid4().hex[:12]}"
    exchange = Exchange(name, type="direct", durable=True)
    queue = Queue(name, exchange, routing_key=name, durable=True)
    body = {"args": ["run", "student", "/path", "folder", {"exercises": []}]}
    acked = 0

    def on_message(_: object, message: Any) -> None:
        nonlocal acked
        message.ack()
        acked += 1

    with Connection(amqp_url) as connection:
        channel = connection.channel()
        bound = queue(channel)
        bound.declare()
        try:
            producer = connection.Producer(channel)
            started = time.perf_counter()
            for _ in range(messages):
                producer.publish(
                    body, exchange=exchange, routing_key=name, delivery_mode=2, serializer="json"
                )
            published = time.perf_counter() - started
            channel.basic_qos(0, 1, False)
            consumer = Consumer(channel, queues=[bound], callbacks=[on_message])
            started = time.perf_counter()
            with consumer:
                while acked < messages:
                    connection.drain_events(timeout=30)
            consumed = time.perf_counter() - started
        finally:
            bound.delete()
    return {
        "messages": messages,
        "publish_per_second": round(messages / published, 1),
        "receive_and_ack_per_second": round(messages / consumed, 1),
        "tasks_per_second": round(messages / (published + consumed), 1),
    }


def _write_share(args: tuple[str, int, int, int]) -> float:
    from benchmarks.overheads import sample_entry
    from grader.instructor.gradebook import Gradebook

    url, first, count, group = args
    with Gradebook(url) as book:
        started = time.perf_counter()
        for start in range(first, first + count, group):
            entries = [sample_entry(n) for n in range(start, min(start + group, first + count))]
            if group == 1:
                book.record(entries[0])
            else:
                book.record_all(entries)
        return time.perf_counter() - started


def gradebook_burst(
    db_url: str, gradings: int = 10_000, writers: int = 1, group: int = 6
) -> dict[str, float]:
    """``gradings`` distinct gradings recorded by ``writers`` processes at once, ``group`` per
    transaction (6: ``Gradebook.record_all`` of a student's results, as the batch does; 1:
    ``record``, one transaction each, the cost of a task's "finished" row)."""
    from grader.instructor.gradebook import Gradebook

    Gradebook(db_url).close()  # the schema, before the clock starts
    share = gradings // writers
    jobs = [(db_url, 1 + index * share, share, group) for index in range(writers)]
    started = time.perf_counter()
    if writers == 1:
        _write_share(jobs[0])
    else:
        with multiprocessing.get_context("fork").Pool(writers) as pool:
            pool.map(_write_share, jobs)
    wall = time.perf_counter() - started
    return {
        "gradings": share * writers,
        "writers": writers,
        "per_transaction": group,
        "wall_seconds": round(wall, 2),
        "gradings_per_second": round(share * writers / wall, 1),
    }


def projection(
    costs: dict[str, Any],
    broker: dict[str, float],
    grouped: dict[str, float],
    single: dict[str, float],
) -> dict[str, Any]:
    """Workers one RabbitMQ and one PostgreSQL can feed before the time a task spends outside
    grading passes ``OVERHEAD_BUDGET`` of its grading time.

    Per task, T = mean grading time, o = the measured overhead at this run's few workers
    (gradebook writes + the gap between tasks). With W workers the servers see
    lambda = W / (T + o) tasks/s; each is a queue with service time s (broker: one task
    message, 1 / its measured task rate; PostgreSQL: ``GRADINGS_PER_TASK`` gradings at the
    grouped burst's rate plus one "finished" row at the single-row burst's rate) and
    utilisation rho = lambda * s, which adds s * rho / (1 - rho) of
    waiting per visit (M/M/1). The answer is the largest W with o + waits <= 5% of T.
    """
    grading_ms, writes_ms, gap_ms = (
        costs[key].get("mean_ms") for key in ("grading", "gradebook_writes", "between_tasks")
    )
    if not grading_ms or writes_ms is None or gap_ms is None:
        return {"skipped": "no task timings"}
    t, o = grading_ms / 1000, (writes_ms + gap_ms) / 1000
    s_broker = 1 / broker["tasks_per_second"]
    s_book = GRADINGS_PER_TASK / grouped["gradings_per_second"]
    s_book += 1 / single["gradings_per_second"]

    def overhead(workers: int) -> float:
        rate = workers / (t + o)
        total = o
        for service in (s_broker, s_book):
            rho = rate * service
            if rho >= 1:
                return float("inf")
            total += service * rho / (1 - rho)
        return total

    workers = 0
    while overhead(workers + 1) <= OVERHEAD_BUDGET * t and workers < 100_000:
        workers += 1
    return {
        "grading_seconds_per_task": round(t, 3),
        "overhead_seconds_per_task_measured": round(o, 4),
        "overhead_share_measured": round(o / t, 4),
        "broker_service_ms": round(1000 * s_broker, 3),
        "gradebook_service_ms_per_task": round(1000 * s_book, 3),
        "max_workers_within_5_percent": workers,
        "overhead_share_at_max": round(overhead(workers) / t, 4) if workers else None,
    }
