"""The redelivery loop of ``task_reject_on_worker_lost``, and the guard that bounds it.

Celery's documentation of ``task_reject_on_worker_lost`` warns: "Enabling this can cause
message loops". A message whose task kills its pool process every time (a segfault in a
C extension, the OOM killer on one oversized input) is requeued by the worker main
process after each death, and a redelivery does not count as a retry: ``max_retries``
never sees it. Lesson 12 runs it on a real prefork worker (in-process ``start_worker``,
``memory://``), twice:

* **unguarded**: the task dies on every run. After ``LOOP_RUNS`` runs the demo "deploys a
  fix" (a marker file the task checks): only then does a delivery return and the message
  get ACKed. (Stopping the worker in the middle of the loop instead leaves a pool process
  being respawned as the worker stops, which hangs the kernel's exit.)
* **guarded**: before the work, the task counts the attempt in a receipt table of its own
  (``delivery_attempts``, one row per business event id, committed in its own
  transaction so a death after it still counts). From the ``max_attempts + 1``-th
  delivery on it writes a dead letter instead of running the work and returns, so the
  message is ACKed: the loop is bounded by the guard.

The journal (``LiveRun.note``) records each run; the database is a SQLite file in the run's
folder, so the pool processes and this process see the same rows.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from celery.contrib.testing.worker import start_worker
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ticketflow.workers.app import create_app
from ticketflow_lab.live_services import unique_name

LOOP_RUNS = 5
MAX_ATTEMPTS = 3

metadata = sa.MetaData()
delivery_attempts = sa.Table(
    "delivery_attempts",
    metadata,
    sa.Column("event_id", sa.String(200), primary_key=True),
    sa.Column("attempts", sa.Integer, nullable=False),
)
guard_dead_letters = sa.Table(
    "guard_dead_letters",
    metadata,
    sa.Column("event_id", sa.String(200), primary_key=True),
    sa.Column("reason", sa.String(50), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
)


def count_attempt(engine: sa.Engine, event_id: str) -> int:
    """Count one more delivery of ``event_id``, committed before any work; return the count.

    One statement, so two deliveries racing cannot both read the same count.
    """
    statement = sqlite_upsert(event_id)
    with engine.begin() as connection:
        return int(connection.execute(statement).scalar_one())


def sqlite_upsert(event_id: str) -> Any:
    """``INSERT … ON CONFLICT DO UPDATE attempts = attempts + 1 RETURNING attempts``."""
    insert_row = sqlite_insert(delivery_attempts).values(event_id=event_id, attempts=1)
    return insert_row.on_conflict_do_update(
        index_elements=[delivery_attempts.c.event_id],
        set_={"attempts": delivery_attempts.c.attempts + 1},
    ).returning(delivery_attempts.c.attempts)


def dead_letter_once(engine: sa.Engine, event_id: str, attempts: int) -> None:
    """The guard's dead letter: one row per event, whatever the number of deliveries."""
    statement = sqlite_insert(guard_dead_letters).values(
        event_id=event_id, reason="redelivery_limit", attempts=attempts
    )
    with engine.begin() as connection:
        connection.execute(statement.on_conflict_do_nothing())


@dataclass(frozen=True)
class LoopRun:
    guarded: bool
    runs: int
    crashes: int
    crashes_before_fix: int
    pids: int
    still_queued: int
    dead_letters: list[tuple[str, str, int]]
    attempts_counted: int | None
    retries_seen: list[int]

    def report(self) -> list[str]:
        """Conclusions as booleans and counts that do not depend on timing."""
        if not self.guarded:
            return [
                f"没有守卫：池进程连死 {LOOP_RUNS} 次，消息还在一次次重投："
                f"{self.crashes_before_fix >= LOOP_RUNS}",
                f"  每次都在一个新的池进程里：{self.pids == self.runs}",
                "  直到我们“部署修复”（让任务不再崩溃），下一次投递才正常返回，消息被确认："
                f"{self.still_queued == 0 and self.runs == self.crashes + 1}",
                "  每次执行看到的 request.retries 都是 0（重投不是重试，max_retries 拦不住它）："
                f"{set(self.retries_seen) == {0}}",
            ]
        return [
            f"有守卫（带尝试次数的 receipt，上限 {MAX_ATTEMPTS}）：执行 {self.runs} 次，"
            f"其中 {self.crashes} 次池进程死掉",
            f"  第 {MAX_ATTEMPTS + 1} 次投递被守卫拦下：receipt 里的投递次数 = "
            f"{self.attempts_counted}，死信 = {self.dead_letters}",
            f"  之后再没有执行、消息已确认（队列为空）：{self.still_queued == 0}",
            f"  重投循环被守卫终止：{self.bounded}",
        ]

    @property
    def bounded(self) -> bool:
        return (
            self.runs == MAX_ATTEMPTS + 1
            and self.crashes == MAX_ATTEMPTS
            and self.still_queued == 0
            and len(self.dead_letters) == 1
        )


def run_loop(
    folder: Path,
    note: Callable[..., None],
    entries: Callable[[], list[dict[str, Any]]],
    *,
    guarded: bool,
    timeout: float = 60.0,
) -> LoopRun:
    """``run_in_this_process`` in a forked child of its own, its result sent back.

    The worker, its pool and the processes the task kills itself in all live and die in
    that child, which leaves through ``os._exit``: the kernel that asked keeps nothing of
    them (a kernel that hosted this loop itself hung at exit, its temporary folders left).
    """
    fork = multiprocessing.get_context("fork")
    results = fork.SimpleQueue()

    def child() -> None:
        try:
            results.put(
                run_in_this_process(folder, note, entries, guarded=guarded, timeout=timeout)
            )
        except Exception as error:  # reported in the kernel, not lost in the child
            results.put(RuntimeError(f"{type(error).__name__}: {error}"))

    process = fork.Process(target=child, name="lesson12-redelivery-loop")
    process.start()
    result: LoopRun | RuntimeError = results.get()
    process.join(timeout=30)
    if isinstance(result, RuntimeError):
        raise result
    return result


def run_in_this_process(
    folder: Path,
    note: Callable[..., None],
    entries: Callable[[], list[dict[str, Any]]],
    *,
    guarded: bool,
    timeout: float = 60.0,
) -> LoopRun:
    """One real prefork worker, one message whose task kills its own pool process."""
    database = f"sqlite:///{folder / 'attempts.db'}"
    fixed = folder / "fixed"
    engine = sa.create_engine(database, poolclass=sa.NullPool)
    metadata.create_all(engine)
    queue = unique_name("lesson12.loop")
    app = create_app(
        "memory://",
        eager=False,
        task_default_queue=queue,
        worker_lost_wait=0.2,
        worker_hijack_root_logger=False,
        broker_transport_options={"polling_interval": 0.05},
    )

    @app.task(name="lesson12.crash_every_time", bind=True, acks_late=True, shared=False)  # type: ignore[untyped-decorator]
    def crash_every_time(task: Any, event_id: str) -> str:
        if guarded:
            attempts = count_attempt(engine, event_id)
            if attempts > MAX_ATTEMPTS:
                dead_letter_once(engine, event_id, attempts)
                note("guarded", event_id=event_id, attempts=attempts)
                return "dead_lettered"  # returns: the late ACK ends the loop
        if fixed.exists():  # the demo's "fix": the loop ends only because we stepped in
            note("fixed", event_id=event_id, retries=task.request.retries)
            return "fixed"
        note("started", event_id=event_id, retries=task.request.retries)
        os.kill(os.getpid(), signal.SIGKILL)  # dies like a segfault: every time
        return "unreachable"

    def runs() -> list[dict[str, Any]]:
        return [e for e in entries() if e["kind"] in ("started", "guarded", "fixed")]

    with start_worker(
        app,
        pool="prefork",
        concurrency=1,
        perform_ping_check=False,
        loglevel="WARNING",
        logfile=str(folder / "worker.log"),
    ) as worker:
        crash_every_time.delay("evt-loop")
        deadline = time.monotonic() + timeout
        while not _done(runs(), guarded):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the loop did not reach its end within {timeout} s")
            time.sleep(0.05)
        if not guarded:
            fixed.touch()  # step in: without this the loop would go on
            while not any(e["kind"] == "fixed" for e in runs()):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the fixed task did not run within {timeout} s")
                time.sleep(0.05)
        time.sleep(1.0)  # an observation window: would it run again?
        worker.stop(in_sighandler=False)
    with app.connection_for_write() as connection:
        still_queued = connection.default_channel.queue_declare(queue, passive=True).message_count
        connection.default_channel.queue_purge(queue)
    app.close()
    seen = runs()
    with engine.connect() as connection:
        letters = connection.execute(sa.select(guard_dead_letters)).all()
        counted = connection.execute(sa.select(delivery_attempts.c.attempts)).scalar()
    engine.dispose()
    return LoopRun(
        guarded=guarded,
        runs=len(seen),
        crashes=sum(e["kind"] == "started" for e in seen),
        crashes_before_fix=_crashes_before(seen, "fixed"),
        pids=len({e["pid"] for e in seen}),
        still_queued=int(still_queued),
        dead_letters=[(row.event_id, row.reason, row.attempts) for row in letters],
        attempts_counted=counted if guarded else None,
        retries_seen=[e["retries"] for e in seen if e["kind"] == "started"],
    )


def _crashes_before(runs: list[dict[str, Any]], kind: str) -> int:
    count = 0
    for entry in runs:
        if entry["kind"] == kind:
            break
        count += entry["kind"] == "started"
    return count


def _done(runs: list[dict[str, Any]], guarded: bool) -> bool:
    if guarded:
        return any(e["kind"] == "guarded" for e in runs)
    return len(runs) >= LOOP_RUNS
