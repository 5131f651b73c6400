"""The worker-loss scenario: a real worker dies before the late ACK, twice.

Events go to one prefork worker (concurrency 1, prefetch 1, late ACK,
``task_reject_on_worker_lost``) in publish order:

1. ``target-pool`` is held *before* its effect; the driver SIGKILLs the only pool process.
   The main process notices (``WorkerLostError``) and rejects the message with requeue:
   RabbitMQ delivers it again with ``redelivered=True``, and the effect is applied once.
2. ``target-worker`` is held *after* its effect committed; the driver SIGKILLs the whole
   worker (main process and pool). The broker requeues on the dropped connection; after
   the restart the redelivery finds the receipt and changes nothing (``duplicate``).
3. ``retry-*`` always raise ``RetryableTaskError``: retried with countdowns 1, 2, 4 s
   (base 1), then exactly one ``retries_exhausted`` dead letter each.
4. ``poison-*`` are malformed: exactly one ``poison_message`` dead letter, body intact.

Neither redelivery increases ``request.retries``: it is the broker's recovery, not a retry.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

from ticketflow_lab.fault_injection import FaultPlan
from ticketflow_lab.harness import Harness
from ticketflow_lab.namespaces import RabbitMQVhost
from ticketflow_lab.outcomes import EXPECT_EFFECT, collect_facts
from ticketflow_lab.report import EventPlan, ScenarioFailed, ScenarioResult, envelope_body

TARGET_POOL = "target-pool"
TARGET_WORKER = "target-worker"
CONVERGE_TIMEOUT_SECONDS = 45.0
REDELIVERY_TIMEOUT_SECONDS = 30.0

WORKER_ENV = {
    "TICKETFLOW_RETRY_BASE_DELAY_SECONDS": "1",
    "TICKETFLOW_WORKER_LOST_WAIT": "1",
}


POISON = "poison_message"


def worker_loss_plan() -> list[EventPlan]:
    def ok(number: int) -> EventPlan:  # delivered once
        event_id = f"ok-{number:02d}"
        return EventPlan(event_id, envelope_body(event_id), EXPECT_EFFECT)

    return [
        ok(1),
        # the pool process is killed before the effect
        EventPlan(TARGET_POOL, envelope_body(TARGET_POOL), EXPECT_EFFECT),
        ok(2),
        # the dependency is always down
        EventPlan("retry-01", envelope_body("retry-01"), "retries_exhausted"),
        # no payload
        EventPlan("poison-01", {"event_id": "poison-01", "event_type": "ticket.assigned"}, POISON),
        ok(3),
        # the whole worker is killed after the effect, before the ACK
        EventPlan(TARGET_WORKER, envelope_body(TARGET_WORKER), EXPECT_EFFECT),
        ok(4),
        EventPlan("retry-02", envelope_body("retry-02"), "retries_exhausted"),  # always down
        # an unknown field
        EventPlan("poison-02", {**envelope_body("poison-02"), "priority": "high"}, POISON),
        ok(5),
    ]


def run_worker_loss(
    *,
    vhost: RabbitMQVhost,
    database_url: str,
    workdir: Path,
    say: Callable[[str], None] | None = None,
    broken: str | None = None,
) -> ScenarioResult:
    """Run the scenario end to end; raise ``ScenarioFailed`` if a step never happens.

    ``broken`` selects a deliberately wrong worker configuration (test-only); by default
    ``$TICKETFLOW_TEST_BREAK`` is honoured, so a broken variant can be run by hand.
    """
    plan = worker_loss_plan()
    gate_dir = workdir / "gates"
    gate_dir.mkdir(parents=True, exist_ok=True)
    faults = FaultPlan(
        hold_before_effect=frozenset({TARGET_POOL}),
        hold_after_effect=frozenset({TARGET_WORKER}),
        retryable_events=frozenset(e.event_id for e in plan if e.expect == "retries_exhausted"),
        gate_dir=gate_dir,
        broken=broken or os.environ.get("TICKETFLOW_TEST_BREAK") or None,
    )
    harness = Harness(
        vhost=vhost,
        database_url=database_url,
        workdir=workdir,
        faults=faults,
        worker_env=WORKER_ENV,
        say=say,
    )
    result = ScenarioResult("worker loss", plan, harness.started_at, broken=faults.broken)
    with harness:
        try:
            _drive(harness, plan, result)
        except Exception as error:
            result.error = f"{type(error).__name__}: {error}"
            raise ScenarioFailed(result.error, _finish(harness, result)) from error
        return _finish(harness, result)


def _drive(harness: Harness, plan: list[EventPlan], result: ScenarioResult) -> None:
    result.readiness_seconds.append(harness.start_worker())
    result.baseline = harness.baseline()
    harness.note(f"baseline: {result.baseline}")

    since = harness.log.size()
    for event in plan:
        harness.publish(event.event_id, event.body)
    harness.note(f"published {len(plan)} events")

    # 1. Lose the pool process while it holds target-pool (before the effect).
    pid = harness.wait_started_and_unacked(TARGET_POOL, since=since, holding="before_effect")
    if harness.sole_pool_process() != pid:
        raise RuntimeError(f"{TARGET_POOL} runs in {pid}, not in the worker's pool process")
    os.kill(pid, signal.SIGKILL)
    harness.note(f"SIGKILL pool process {pid} (main process stays up), then release the gate")
    harness.release(TARGET_POOL)
    _wait_for_outcome(harness, TARGET_POOL)

    # 2. Lose the whole worker while it holds target-worker (effect committed, no ACK).
    pid = harness.wait_started_and_unacked(TARGET_WORKER, since=since, holding="after_effect")
    main_pid = harness.worker.pid
    harness.worker.kill_group()
    harness.note(f"SIGKILL worker process group {main_pid} (main + pool {pid}), before the ACK")
    harness.release(TARGET_WORKER)
    harness.note(f"broker after the connection dropped: {harness.counts()}")
    result.readiness_seconds.append(harness.start_worker())

    result.converged = harness.wait_terminal(
        {event.event_id for event in plan}, timeout=CONVERGE_TIMEOUT_SECONDS
    )
    harness.note("every event finished" if result.converged else "gave up waiting to converge")


def _wait_for_outcome(harness: Harness, event_id: str) -> None:
    from ticketflow_lab.waiting import wait_until

    try:
        wait_until(
            lambda: event_id in harness.terminal_events(),
            timeout=REDELIVERY_TIMEOUT_SECONDS,
            what=f"{event_id} to be delivered again and finish",
            interval=0.1,
        )
    except TimeoutError:
        harness.note(f"{event_id} did not finish within {REDELIVERY_TIMEOUT_SECONDS:.0f}s")


def _finish(harness: Harness, result: ScenarioResult) -> ScenarioResult:
    return finish_result(harness, result)


def finish_result(harness: Harness, result: ScenarioResult) -> ScenarioResult:
    """Collect the history and the database facts (also after a failed step)."""
    result.actions = list(harness.actions)
    result.task_ids = dict(harness.task_ids)
    result.records = harness.records()
    result.log_tail = harness.log.tail(200)
    result.log_path = harness.log.path
    try:
        result.queue_after = harness.counts()
        result.facts = collect_facts(harness.database_url, [e.event_id for e in result.plan])
    except Exception as error:  # the report must still come out
        result.error = (result.error or "") + f" (collecting facts failed: {error!r})"
    return result
