"""A real ``celery worker`` on RabbitMQ and PostgreSQL loses deliveries, and recovers.

Both tests drive a worker subprocess (prefork, concurrency 1, prefetch 1, late ACK,
``task_reject_on_worker_lost``) through the same scenarios the instructors' demo runs
(``python -m ticketflow_lab worker-loss|time-limits``). Every assertion message carries
the delivery timeline, the per-event database facts and the worker log tail.

A deliberately broken worker can be selected by hand, to see these tests fail:
``TICKETFLOW_TEST_BREAK=acks_early|no_receipts|ack_on_worker_lost``.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ticketflow_lab.namespaces import RabbitMQVhost
from ticketflow_lab.report import ScenarioFailed, ScenarioResult
from ticketflow_lab.scenario import TARGET_POOL, TARGET_WORKER, run_worker_loss
from ticketflow_lab.time_limits import (
    AFTER_EVENT,
    HARD_EVENT,
    HARD_LIMIT_SECONDS,
    SOFT_EVENT,
    SOFT_LIMIT_SECONDS,
    limit_line,
    run_time_limits,
)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

READY_BOUND_SECONDS = 30.0
# Each retry waits at least its countdown; allow for clock granularity between processes.
COUNTDOWN_SLACK_SECONDS = 0.25


def run_scenario(scenario: Callable[..., ScenarioResult], **kwargs: Any) -> ScenarioResult:
    try:
        return scenario(**kwargs)
    except ScenarioFailed as error:
        pytest.fail(f"{error}\n\n{error.result.report()}", pytrace=False)


def show(result: ScenarioResult, message: str) -> str:
    return f"{message}\n\n{result.report()}"


def test_worker_loss_redelivers_then_bounded_retry_dead_letters(
    postgres_url: str, rabbitmq_vhost: RabbitMQVhost, tmp_path: Path
) -> None:
    result = run_scenario(
        run_worker_loss, vhost=rabbitmq_vhost, database_url=postgres_url, workdir=tmp_path
    )

    # A healthy baseline before anything was broken, and bounded readiness after restart.
    assert result.baseline["ping"] == {"ok": "pong"}, show(result, "no ping baseline")
    assert result.baseline["queues"] == ["celery"], show(result, "worker not consuming")
    assert len(result.baseline["pool"]) == 1, show(result, "expected one pool process")
    assert len(result.readiness_seconds) == 2, show(result, "worker was not restarted")
    assert max(result.readiness_seconds) < READY_BOUND_SECONDS, show(result, "slow readiness")

    # The two killed deliveries came back from the broker, not as Celery retries.
    for target, final in ((TARGET_POOL, "dispatched"), (TARGET_WORKER, "duplicate")):
        attempts = result.attempts_of(target)
        timeline = [(a.redelivered, a.retries, a.outcome) for a in attempts]
        assert timeline == [(False, 0, None), (True, 0, final)], show(
            result,
            f"{target}: expected a first delivery lost before its ACK, then exactly one "
            f"broker redelivery (redelivered=True, retries still 0) ending '{final}'; "
            f"got (redelivered, retries, outcome) = {timeline}",
        )

    # Bounded retry with the policy's countdowns, then one dead letter each.
    for event in [e for e in result.plan if e.expect == "retries_exhausted"]:
        attempts = result.attempts_of(event.event_id)
        steps = [(a.retries, a.outcome, a.countdown_seconds) for a in attempts]
        assert steps == [
            (0, "retry", 1),
            (1, "retry", 2),
            (2, "retry", 4),
            (3, "dead_lettered", None),
        ], show(result, f"{event.event_id}: unexpected retry sequence {steps}")
        for before, after in itertools.pairwise(attempts):
            assert before.ended is not None and before.countdown_seconds is not None
            waited = after.time - before.ended
            assert waited >= before.countdown_seconds - COUNTDOWN_SLACK_SECONDS, show(
                result,
                f"{event.event_id}: retry {after.retries} ran {waited:.2f}s after the "
                f"previous attempt, before its countdown of {before.countdown_seconds}s",
            )
        letters = result.facts[event.event_id].dead_letters
        assert [(d.reason, d.attempts) for d in letters] == [("retries_exhausted", 4)], show(
            result, f"{event.event_id}: expected one retries_exhausted dead letter after 4 runs"
        )

    # Poison bodies: one dead letter each, with the body exactly as it was sent.
    for event in [e for e in result.plan if e.expect == "poison_message"]:
        letters = result.facts[event.event_id].dead_letters
        assert [(d.reason, d.body) for d in letters] == [
            ("poison_message", event.compact_body())
        ], show(result, f"{event.event_id}: expected one poison_message dead letter, body intact")
        assert json.loads(letters[0].body) == event.body

    # Nothing lost, nothing doubled.
    wrong = [e.event_id for e in result.plan if not result.facts[e.event_id].meets(e.expect)]
    assert not wrong, show(result, f"events not exactly-once (see 'ok' column): {wrong}")
    assert result.converged, show(result, "the worker never drained the queue")
    assert result.queue_after is not None and result.queue_after.unacked == 0
    assert result.queue_after.ready == 0, show(result, "messages left in the queue")


def test_time_limits_soft_then_hard_on_real_worker(
    postgres_url: str, rabbitmq_vhost: RabbitMQVhost, tmp_path: Path
) -> None:
    result = run_scenario(
        run_time_limits, vhost=rabbitmq_vhost, database_url=postgres_url, workdir=tmp_path
    )
    assert result.log_path is not None
    log = result.log_path.read_text(encoding="utf-8", errors="replace")
    soft_id, hard_id = result.task_ids[SOFT_EVENT], result.task_ids[HARD_EVENT]

    # Soft limit: the task-specific line, then the task's own cleanup (a bounded retry).
    assert re.search(limit_line("Soft", SOFT_LIMIT_SECONDS, soft_id), log), show(
        result, f"no soft-limit line for {soft_id}"
    )
    soft = [(a.retries, a.outcome, a.countdown_seconds) for a in result.attempts_of(SOFT_EVENT)]
    assert soft == [(0, "retry", 1), (1, "dispatched", None)], show(
        result, f"{SOFT_EVENT}: expected retry after the soft limit, then delivery; got {soft}"
    )
    assert "SoftTimeLimitExceeded" in (result.attempts_of(SOFT_EVENT)[0].error or ""), show(
        result, f"{SOFT_EVENT}: the retry was not caused by the soft time limit"
    )

    # Hard limit: the paused pool process could not clean up; the main process killed it.
    assert re.search(limit_line("Hard", HARD_LIMIT_SECONDS, hard_id), log), show(
        result, f"no 'Hard time limit ({HARD_LIMIT_SECONDS}s) exceeded' line for {hard_id}"
    )
    hard = result.attempts_of(HARD_EVENT)
    assert len(hard) == 1, show(
        result,
        f"{HARD_EVENT}: expected exactly one run — Celery ACKs a hard-time-limited message "
        f"(task_acks_on_timeout=True), so no redelivery and no retry; got {len(hard)}",
    )
    (attempt,) = hard
    assert (attempt.outcome, attempt.reason) == ("dead_lettered", "permanent_failure"), show(
        result, f"{HARD_EVENT}: expected a permanent_failure dead letter, got {attempt.outcome}"
    )
    assert attempt.outcome_pid != attempt.pid, show(
        result, f"{HARD_EVENT}: the dead letter must come from the main process, not the child"
    )
    letters = result.facts[HARD_EVENT].dead_letters
    assert [(d.reason, d.error_type) for d in letters] == [
        ("permanent_failure", "TimeLimitExceeded")
    ], show(result, f"{HARD_EVENT}: expected one TimeLimitExceeded dead letter")
    assert json.loads(letters[0].body) == result.plan[1].body

    # Convergence: one effect per delivered event, one dead letter for the killed one.
    wrong = [e.event_id for e in result.plan if not result.facts[e.event_id].meets(e.expect)]
    assert not wrong, show(result, f"events not exactly-once (see 'ok' column): {wrong}")
    assert result.facts[AFTER_EVENT].receipts == 1
    assert result.converged, show(result, "the worker never drained the queue")
    assert result.queue_after is not None
    assert (result.queue_after.ready, result.queue_after.unacked) == (0, 0), show(
        result, "messages left in the queue after the hard kill"
    )
