"""The time-limit scenario: soft limit with cleanup, then a hard limit without it.

Limits come from ``task_annotations`` (soft 4 s, hard 6 s here; the task registers
15 s / 20 s), the same code path as production. Every event first calls a small HTTP
sink the driver owns.

1. ``soft-01``: the driver SIGSTOPs the sink, so the call stalls. At the soft limit the
   pool process raises ``SoftTimeLimitExceeded`` inside the call; the task classifies it
   as transient and retries (countdown 1 s). The driver resumes the sink; the retry lands.
2. ``hard-01``: the sink is paused again; once the event is running (its started record), the
   driver SIGSTOPs the worker's only pool process, so the soft signal cannot run any
   cleanup, and then finds its message unacked at the broker. The main process logs
   ``Hard time limit (6s) exceeded`` and kills the pool process. Celery 5.7 then ACKs the
   message (``task_acks_on_timeout`` defaults to True): it is NOT redelivered; ticketflow
   records one ``permanent_failure`` dead letter (``TimeLimitExceeded``) so the event is
   not silently lost.
3. ``after-01`` shows the worker healthy again (a fresh pool process delivers it).
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

from ticketflow.workers.tasks import TASK_NAME
from ticketflow_lab.fault_injection import FaultPlan
from ticketflow_lab.harness import STARTED_TIMEOUT_SECONDS, Harness
from ticketflow_lab.namespaces import RabbitMQVhost
from ticketflow_lab.outcomes import EXPECT_EFFECT
from ticketflow_lab.report import EventPlan, ScenarioFailed, ScenarioResult, envelope_body
from ticketflow_lab.scenario import finish_result
from ticketflow_lab.sink import SinkProcess
from ticketflow_lab.waiting import wait_until

# The driver must pause the pool process before the soft limit: it reads the attempt log
# every 10 ms and pauses it once the task's started record is there (the broker is sampled
# only after the pause: one rabbitmqctl sample, or the worker's own log line, came up to
# 4.5 s late with two suites running).
SOFT_LIMIT_SECONDS = 4
HARD_LIMIT_SECONDS = 6
SOFT_EVENT = "soft-01"
HARD_EVENT = "hard-01"
AFTER_EVENT = "after-01"
STEP_TIMEOUT_SECONDS = 30.0

#: the limits ``deliver_notification`` registers (the course's 15 s / 20 s): ``--course-limits``
COURSE_LIMITS = (15, 20)


def worker_env(
    soft_limit: int = SOFT_LIMIT_SECONDS, hard_limit: int = HARD_LIMIT_SECONDS
) -> dict[str, str]:
    return {
        "TICKETFLOW_RETRY_BASE_DELAY_SECONDS": "1",
        "TICKETFLOW_WORKER_LOST_WAIT": "1",
        "TICKETFLOW_SOFT_TIME_LIMIT": str(soft_limit),
        "TICKETFLOW_TIME_LIMIT": str(hard_limit),
    }


WORKER_ENV = worker_env()


def time_limit_plan() -> list[EventPlan]:
    return [
        EventPlan(SOFT_EVENT, envelope_body(SOFT_EVENT), EXPECT_EFFECT),  # sink stalls: soft
        EventPlan(HARD_EVENT, envelope_body(HARD_EVENT), "permanent_failure"),  # paused: hard
        EventPlan(AFTER_EVENT, envelope_body(AFTER_EVENT), EXPECT_EFFECT),  # after the hard kill
    ]


def limit_line(kind: str, seconds: int, task_id: str) -> str:
    """The worker main process's line for a limit, for exactly this task."""
    return (
        rf"{kind} time limit \({seconds}s\) exceeded for "
        rf"{re.escape(TASK_NAME)}\[{re.escape(task_id)}\]"
    )


def run_time_limits(
    *,
    vhost: RabbitMQVhost,
    database_url: str,
    workdir: Path,
    say: Callable[[str], None] | None = None,
    limits: tuple[int, int] = (SOFT_LIMIT_SECONDS, HARD_LIMIT_SECONDS),
) -> ScenarioResult:
    """``limits``: (soft, hard) seconds; ``COURSE_LIMITS`` shows the literal 20 s line."""
    plan = time_limit_plan()
    with SinkProcess() as sink:
        sink.start()
        harness = Harness(
            vhost=vhost,
            database_url=database_url,
            workdir=workdir,
            faults=FaultPlan(sink_url=sink.url, broken=os.environ.get("TICKETFLOW_TEST_BREAK")),
            worker_env=worker_env(*limits),
            say=say,
        )
        result = ScenarioResult("time limits", plan, harness.started_at)
        with harness:
            try:
                _drive(harness, sink, plan, result, limits)
            except Exception as error:
                result.error = f"{type(error).__name__}: {error}"
                raise ScenarioFailed(result.error, finish_result(harness, result)) from error
            return finish_result(harness, result)


def _started_in(harness: Harness, task_id: str) -> int | None:
    """The pid that started ``task_id``, from the attempt log (None: not started yet)."""
    for record in harness.records():
        if record.kind == "started" and record.task_id == task_id:
            return record.pid
    return None


def _outcome(harness: Harness, event_id: str, outcome: str) -> bool:
    return any(
        record.kind == "outcome" and record.event_id == event_id and record.outcome == outcome
        for record in harness.records()
    )


def _drive(
    harness: Harness,
    sink: SinkProcess,
    plan: list[EventPlan],
    result: ScenarioResult,
    limits: tuple[int, int],
) -> None:
    soft_limit, hard_limit = limits
    result.readiness_seconds.append(harness.start_worker())
    result.baseline = harness.baseline()
    harness.note(f"baseline: {result.baseline}; sink at {sink.url} (pid {sink.pid})")

    # 1. Soft limit: the dependency stalls, the task cleans up and retries.
    sink.pause()
    harness.note(f"SIGSTOP sink {sink.pid}: the dependency stalls")
    task_id = harness.publish(SOFT_EVENT, plan[0].body)
    harness.wait_log(
        limit_line("Soft", soft_limit, task_id),
        timeout=STEP_TIMEOUT_SECONDS,
        what=f"the soft-limit line for {SOFT_EVENT}",
    )
    wait_until(
        lambda: _outcome(harness, SOFT_EVENT, "retry"),
        timeout=STEP_TIMEOUT_SECONDS,
        what=f"{SOFT_EVENT}'s cleanup (a retry after SoftTimeLimitExceeded)",
    )
    harness.note(f"soft limit ({soft_limit}s) hit {SOFT_EVENT}; SIGCONT sink")
    sink.resume()
    wait_until(
        lambda: _outcome(harness, SOFT_EVENT, "dispatched"),
        timeout=STEP_TIMEOUT_SECONDS,
        what=f"{SOFT_EVENT}'s retry to be delivered",
    )

    # 2. Hard limit: the pool process itself is frozen, no cleanup can run.
    sink.pause()
    harness.note(f"SIGSTOP sink {sink.pid} again")
    since = harness.log.size()
    task_id = harness.publish(HARD_EVENT, plan[1].body)
    # Its started record alone (the attempt log, written as the task starts), then the pause:
    # a broker sample (rabbitmqctl, seconds on a loaded machine) or the worker's own log line
    # (4.5 s late once, with two suites running) could let the soft limit fire first. Once
    # paused, nothing moves: the sample after it shows the message held.
    pid = wait_until(
        lambda: _started_in(harness, task_id),
        timeout=STARTED_TIMEOUT_SECONDS,
        what=f"{HARD_EVENT}'s started record",
        interval=0.01,
    )
    if harness.sole_pool_process() != pid:
        raise RuntimeError(f"{HARD_EVENT} runs in {pid}, not in the worker's only pool process")
    os.kill(pid, signal.SIGSTOP)
    held = harness.counts()
    if held.unacked < 1:
        raise RuntimeError(f"{HARD_EVENT} started, but the broker holds no unacked message: {held}")
    started = [r.time for r in harness.records() if r.kind == "started" and r.task_id == task_id]
    after = f" {time.time() - started[0]:.2f}s after it started" if started else ""
    harness.note(f"SIGSTOP pool process {pid}{after}: the soft signal cannot run cleanup")
    if harness.log.search(limit_line("Soft", soft_limit, task_id), since):
        raise RuntimeError(
            f"the soft limit of {HARD_EVENT} fired before its pool process was paused: "
            "the driver was too slow (overloaded machine?), the hard limit cannot be shown"
        )
    hard_line = harness.wait_log(
        limit_line("Hard", hard_limit, task_id),
        since=since,
        timeout=hard_limit + STEP_TIMEOUT_SECONDS,
        what=f"the hard-limit line for {HARD_EVENT}",
    )
    harness.note(f"hard limit ({hard_limit}s): the main process killed pool process {pid}")
    harness.note(f"worker log: {hard_line.group(0)}")
    sink.resume()
    harness.note(f"SIGCONT sink {sink.pid}")
    wait_until(
        lambda: [child for child in harness.worker.pool_children() if child != pid] or None,
        timeout=STEP_TIMEOUT_SECONDS,
        what="a new pool process",
    )
    pool = harness.worker.pool_children()
    harness.note(f"pool after the hard kill: {pool}; ping {harness.ping()}")

    # 3. The worker is healthy again.
    harness.publish(AFTER_EVENT, plan[2].body)
    result.converged = harness.wait_terminal(
        {event.event_id for event in plan}, timeout=STEP_TIMEOUT_SECONDS
    )
    harness.note("every event finished" if result.converged else "gave up waiting to converge")
