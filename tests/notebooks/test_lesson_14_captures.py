"""Lesson 14's two captures: labelled, and their events in the order the demo causes them.

Neither script is run here: ``python -m ticketflow_lab.broker_restart`` restarts a broker
(a private node, but still minutes and root), and ``worker-loss --broken
ack_on_worker_lost`` takes half a minute. The tests parse the committed files instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.notebooks.kernel import LESSONS_DIR

pytestmark = [pytest.mark.notebooks, pytest.mark.xdist_group("lesson14")]  # see test_lesson_14

CAPTURES = LESSONS_DIR / "captures"
BROKER_RESTART = CAPTURES / "broker-restart-rabbitmq.txt"
ACK_ON_WORKER_LOST = CAPTURES / "worker-loss-ack-on-worker-lost-rabbitmq.txt"
STEP = re.compile(r"^\[\+\s*(?P<t>\d+\.\d+)s\] (?P<text>.*)$")
ROW = re.compile(r"^\+\s*(?P<t>\d+\.\d+)s\s+(?P<text>.*)$")
DATED = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")


def timed(path: Path, pattern: re.Pattern[str]) -> list[tuple[float, str]]:
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        match = pattern.match(line)
        if match:
            found.append((float(match["t"]), match["text"]))
    return found


def first_index(steps: list[tuple[float, str]], needle: str) -> int:
    return next(index for index, (_t, text) in enumerate(steps) if needle in text)


def test_broker_restart_capture_is_labelled() -> None:
    header = BROKER_RESTART.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("# broker-restart: ") and DATED.search(header)
    assert "Celery 5.7" in header and "kombu" in header and "time column" in header
    assert "RabbitMQ 3." in BROKER_RESTART.read_text(encoding="utf-8")


def test_broker_restart_steps_come_in_the_order_the_script_causes_them() -> None:
    steps = timed(BROKER_RESTART, STEP)
    times = [t for t, _text in steps]
    assert times == sorted(times)
    order = [
        "(the shared broker is not touched)",
        "declared lesson14.durable (durable=True) and lesson14.transient (durable=False)",
        "before the restart: {'durable': 2, 'transient': 1}",
        " stop_app",
        " start_app",
        "lesson14.durable holds: ['persistent message in a durable queue']",
        "lesson14.transient is gone: NotFound",
        "private node stopped and deleted",
    ]
    positions = [first_index(steps, needle) for needle in order]
    assert positions == sorted(positions)
    published = [text for _t, text in steps if text.startswith("published to")]
    assert len(published) == 3 and first_index(steps, "published to") < positions[2]
    last = BROKER_RESTART.read_text(encoding="utf-8").splitlines()[-1]
    assert last == "verdict: only the persistent message in the durable queue survived"


def test_ack_on_worker_lost_capture_is_labelled_and_its_event_is_lost() -> None:
    text = ACK_ON_WORKER_LOST.read_text(encoding="utf-8")
    header = text.splitlines()[0]
    assert header.startswith("# CAPTURED OUTPUT (recorded once, not live): ")
    assert "--broken ack_on_worker_lost" in header and DATED.search(header)
    assert "RabbitMQ 3." in header and "Time column" in header
    rows = timed(ACK_ON_WORKER_LOST, ROW)
    times = [t for t, _text in rows]
    assert times == sorted(times)
    kill = first_index(rows, ">> SIGKILL pool process")
    acked = first_index(rows, "message ACKed — not requeued")
    assert kill < acked and rows[acked][1].startswith("target-pool ")
    again = [text for _t, text in rows[acked + 1 :] if text.startswith("target-pool ")]
    assert not again, f"target-pool ran again after it was ACKed: {again}"
    (database_row,) = [line for line in text.splitlines() if line.startswith("target-pool  ")]
    assert database_row.split() == ["target-pool", "effect", "0", "0", "-", "NO"]
