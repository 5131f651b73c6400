"""Lesson 14's live demos against the real services, checked on what they return.

Each test skips only when a service it needs is unreachable (the reason names it). The
demos name everything they create with a uuid suffix and delete it; the last test checks
that on the broker.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from ticketflow_lab.live_services import skip_reason

#: With the notebook's tests on one xdist worker (see tests/notebooks/test_lesson_14.py).
pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.xdist_group("lesson14")]


def needs(*services: str) -> None:
    reason = skip_reason(*services)
    if reason:
        pytest.skip(reason)  # only when a service is unreachable: the reason names it


def test_a_worker_is_not_settled_while_a_task_runs(tmp_path: Path) -> None:
    """``WorkerSet.wait_settled`` (what the dead-letter demo waits for before it stops its
    worker) refuses while a request is still the main process's, then agrees."""
    needs("RabbitMQ")
    from ticketflow_lab.lesson14_workers import WorkerSet
    from ticketflow_lab.live_services import url
    from ticketflow_lab.waiting import WaitTimeout, wait_until

    with WorkerSet(tmp_path, broker_url=url("RabbitMQ"), prefix="lesson14.work") as workers:
        workers.start("settle")
        workers.send("lesson14.hold", "held")
        wait_until(
            lambda: any(e["kind"] == "started" for e in workers.entries()),
            timeout=60,
            what="the held task to start",
        )
        with pytest.raises(WaitTimeout):
            workers.wait_settled(timeout=1.0)
        workers.wait_settled(timeout=60)  # the hold ends by itself (HOLD_SECONDS)


def test_reject_reaches_the_dlq_and_a_plain_exception_does_not(tmp_path: Path) -> None:
    needs("RabbitMQ")
    from ticketflow_lab.dead_letter_exchange import CASES, run_reject_vs_exception

    result = run_reject_vs_exception(tmp_path)
    assert result.runs == {name: 1 for name, _, _ in CASES}
    assert result.left_in_work_queue == 0
    (letter,) = result.dead_letters
    assert letter == {
        "task": "lesson14.reject_late",
        "args": ["req-1"],
        "reason": "rejected",
        "from_work_queue": True,
    }


def test_redis_redelivers_to_the_other_worker_after_the_visibility_timeout(
    tmp_path: Path,
) -> None:
    needs("Redis")
    from ticketflow_lab.two_workers import run_redelivery

    result = run_redelivery("Redis", tmp_path, visibility_timeout=3.0)
    assert result.second is not None
    assert result.second["hostname"] != result.first["hostname"]
    assert result.second["redelivered"] is True and result.second["retries"] == 0
    assert result.right_after_kill == {"queue": 0, "unacked": 1}
    assert result.after_send is not None and result.after_send >= 3.0


def test_redis_redelivers_even_when_the_killed_worker_held_the_sweep_mutex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker SIGKILLed mid-sweep leaves kombu's ``unacked_mutex`` behind.

    Every consumer sweeps once a second, so under load the kill lands inside a sweep now
    and then (CI saw it: "no second run"). The lock then lives for the transport's
    ``unacked_mutex_expire``; with kombu's 300 s default no sweep runs within the window.
    Here the dead holder's lock is planted before the run, with the expiry the lesson's
    transport options give it.
    """
    needs("Redis")
    import redis
    from kombu.transport.redis import Channel

    from ticketflow_lab import two_workers
    from ticketflow_lab.live_services import url

    name = f"lesson14.mutex-{uuid.uuid4().hex[:12]}"  # never a second suite's name
    monkeypatch.setattr(two_workers, "unique_name", lambda prefix: name)
    options = two_workers.redis_transport(3.0)
    expire = options.get("unacked_mutex_expire", Channel.unacked_mutex_expire)
    client = redis.Redis.from_url(url("Redis"))
    try:
        key = options["global_keyprefix"] + Channel.unacked_mutex_key
        assert client.set(key, "a-killed-worker", nx=True, px=int(expire * 1000))
        result = two_workers.run_redelivery("Redis", tmp_path, visibility_timeout=3.0)
    finally:
        client.delete(key)
        client.close()
    assert result.second is not None, "the planted mutex stopped every sweep"
    assert result.second["redelivered"] is True


def test_rabbitmq_redelivers_to_the_other_worker_at_once(tmp_path: Path) -> None:
    needs("RabbitMQ")
    from ticketflow_lab.two_workers import run_redelivery

    result = run_redelivery("RabbitMQ", tmp_path)
    assert result.second is not None
    assert result.second["hostname"] != result.first["hostname"]
    assert result.second["redelivered"] is True
    assert result.after_kill is not None and result.after_kill < 3.0  # no visibility timeout


@pytest.mark.parametrize("reject", [True, False])
def test_a_killed_pool_process_requeues_only_with_reject_on_worker_lost(
    tmp_path: Path, reject: bool
) -> None:
    needs("RabbitMQ")
    from ticketflow_lab.worker_lost import run_child_loss

    result = run_child_loss(tmp_path, reject_on_worker_lost=reject)
    assert result.left_in_queue == 0
    assert result.runs == (2 if reject else 1)
    assert result.redelivered == ([False, True] if reject else [False])


def test_a_lost_ack_is_a_duplicate_the_receipt_absorbs() -> None:
    needs("RabbitMQ", "PostgreSQL")
    from ticketflow_lab.lost_ack import run_lost_ack

    result = run_lost_ack()
    assert result.deliveries == [(False, True), (True, False)]
    assert result.ack_error.startswith("OSError")
    assert (result.receipts, result.business_tasks) == (1, 1)


def test_canvas_has_no_rollback_and_receipts_make_a_rerun_safe(tmp_path: Path) -> None:
    needs("Redis")
    from ticketflow_lab.canvas_atomicity import run_canvas

    lines = run_canvas(tmp_path).lines
    assert "  效果已提交的 header 步骤：['a', 'c']" in lines
    assert "  body 运行过：False" in lines
    assert "  chord 的结果：FAILURE ChordError" in lines
    assert "  各项的状态：['SUCCESS', 'FAILURE', 'SUCCESS']" in lines
    assert "  效果已提交的步骤：['x', 'z']；没有任何东西撤销 x 和 z" in lines
    assert "  每一步的效果次数：{'reserve': 1, 'charge': 1, 'notify': 1}" in lines


def test_inspect_sees_the_running_task_unacknowledged(tmp_path: Path) -> None:
    needs("RabbitMQ")
    from ticketflow_lab.observability import run_inspect

    active, reserved, stats, registered, held, within = run_inspect(tmp_path)
    assert active.startswith("active:     lesson14.hold acknowledged=False")
    assert reserved == "reserved:   0 条"
    assert held.endswith("问之前 broker 队列里在等 3 条")
    assert within.endswith("：True")
    assert "prefetch_count=1" in stats
    assert "lesson14.hold" in registered
