"""The committed RabbitMQ captures that lesson 12 prints: labelled, and in a possible order.

They are not re-made by the test suite (that needs the real services and ~20 s each), so
they are read as data: the first line must carry the date and the versions, the timeline
rows must be in time order (the legend promises "in the order things happened"), and the
time-limits events must be in the order the demo causes them: the pool process is frozen,
then the hard limit kills it and the main process writes the dead letter, then a fresh
pool process delivers ``after-01``. A capture that contradicts itself (a dead letter
stamped before the process it belongs to was frozen) fails here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from ticketflow_lab.time_limits import HARD_LIMIT_SECONDS

pytestmark = pytest.mark.notebooks

CAPTURES = Path(__file__).resolve().parents[2] / "lessons" / "captures"
ROW = re.compile(r"^\+\s*(?P<t>\d+\.\d+)s  (?P<rest>.*)$")
HEADER = re.compile(
    r"^# CAPTURED OUTPUT \(recorded once, not live\): `python -m ticketflow_lab [a-z-]+` on "
    r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC; Celery \d+\.\d+\.\d+, kombu \d+\.\d+\.\d+, "
    r"RabbitMQ \d+\.\d+\.\d+, PostgreSQL \d+"
)


@dataclass(frozen=True)
class Row:
    seconds: float
    text: str  # ">> what the driver did" or "event  tag  redelivered  retries  pid  outcome"

    @property
    def event(self) -> str:
        return "" if self.text.startswith(">>") else self.text.split()[0]


def timeline(text: str) -> list[Row]:
    """The rows of the ``== …: timeline ==`` table, in file order."""
    section = text.split(": timeline ==", 1)[1].split("\n== ", 1)[0]
    rows = []
    for line in section.splitlines():
        found = ROW.match(line)
        if found:
            rows.append(Row(float(found["t"]), found["rest"]))
    return rows


def first(rows: list[Row], description: str, *, event: str = "", contains: str) -> Row:
    for row in rows:
        if (not event or row.event == event) and contains in row.text:
            return row
    raise AssertionError(f"the capture has no row for {description}")


@pytest.mark.parametrize("name", ["worker-loss-rabbitmq.txt", "time-limits-rabbitmq.txt"])
def test_a_capture_is_labelled_and_its_timeline_is_in_time_order(name: str) -> None:
    text = (CAPTURES / name).read_text(encoding="utf-8")
    assert HEADER.match(text.splitlines()[0]), text.splitlines()[0]
    assert "seconds since the demo started, in the order things happened" in text
    rows = timeline(text)
    assert len(rows) >= 10
    times = [row.seconds for row in rows]
    assert times == sorted(times), "timeline rows are not in time order"


def test_time_limits_capture_shows_its_events_in_the_order_the_demo_causes_them() -> None:
    rows = timeline((CAPTURES / "time-limits-rabbitmq.txt").read_text(encoding="utf-8"))
    soft_retry = first(rows, "soft-01's retry", event="soft-01", contains="retry in")
    soft_done = first(rows, "soft-01's delivery", event="soft-01", contains="dispatched")
    frozen = first(rows, "the frozen pool process", contains=">> SIGSTOP pool process")
    dead = first(rows, "hard-01's dead letter", event="hard-01", contains="hard time limit")
    killed = first(rows, "the hard-limit kill", contains=">> hard limit")
    new_pool = first(rows, "the new pool process", contains=">> pool after the hard kill")
    after = first(rows, "after-01's delivery", event="after-01", contains="dispatched")

    assert soft_retry.seconds <= soft_done.seconds <= frozen.seconds
    # The dead letter is written by the main process when the hard limit fires: after the
    # freeze, within one hard limit of it, and no later than the driver saw the kill.
    assert frozen.seconds < dead.seconds <= killed.seconds
    assert dead.seconds - frozen.seconds <= HARD_LIMIT_SECONDS
    assert "by main process" in dead.text and "permanent_failure" in dead.text
    assert killed.seconds <= new_pool.seconds <= after.seconds
    # after-01 ran in the new pool process, not in the killed one.
    killed_pid = frozen.text.split("SIGSTOP pool process ", 1)[1].split()[0]
    assert after.text.split()[4] != killed_pid


def test_the_order_check_fails_on_the_old_self_contradicting_capture() -> None:
    """The capture committed before 2026-12-01: dead letter at +8.80 s, freeze at +9.99 s."""
    old = "\n".join(
        [
            "== time limits: timeline ==",
            "+  8.80s  hard-01   3    False        0        22814  dead letter: permanent_failure"
            " (hard time limit exceeded: TimeLimitExceeded(6), by main process 22783)",
            "+  9.99s  >> SIGSTOP pool process 22814 1.20s after it started",
            "+ 14.86s  >> hard limit (6s): the main process killed pool process 22814",
        ]
    )
    rows = timeline(old)
    frozen = first(rows, "freeze", contains=">> SIGSTOP pool process")
    dead = first(rows, "dead letter", event="hard-01", contains="hard time limit")
    assert not frozen.seconds < dead.seconds
