"""The demos' printed story: in the order things happened, and honest about broken runs."""

from __future__ import annotations

from ticketflow_lab.attempt_log import AttemptRecord
from ticketflow_lab.cli import BACKOFF_NOTE, BROKEN_SHOWS, _verdict
from ticketflow_lab.fault_injection import BROKEN_VARIANTS
from ticketflow_lab.report import LEGEND
from ticketflow_lab.timeline import Action, build_attempts, render_timeline


def record(kind: str, time: float, **fields: object) -> AttemptRecord:
    return AttemptRecord(kind=kind, time=time, pid=7, event_id="slow-01", task_id="t1", **fields)


def test_an_outcome_is_printed_after_the_action_that_caused_it() -> None:
    # Started at +1 s, the driver saw the soft limit at +6 s, the retry was reported at +7 s.
    attempts = build_attempts(
        [
            record("started", 101.0, retries=0),
            record("outcome", 107.0, outcome="retry", countdown_seconds=1, error="soft limit"),
        ]
    )
    text = render_timeline(attempts, [Action(106.0, "soft limit hit")], started_at=100.0)
    rows = text.splitlines()[2:]
    assert rows[0].startswith("+  6.00s  >> soft limit hit")
    assert rows[1].startswith("+  7.00s  slow-01")
    assert "retry in 1s" in rows[1]


def test_an_attempt_whose_process_died_stays_at_its_start() -> None:
    attempts = build_attempts([record("started", 102.0, retries=0)])
    text = render_timeline(attempts, [Action(103.0, "SIGKILL")], started_at=100.0)
    rows = text.splitlines()[2:]
    assert rows[0].startswith("+  2.00s  slow-01")
    assert "no outcome" in rows[0]
    assert rows[1].startswith("+  3.00s  >> SIGKILL")


def test_the_legend_explains_the_time_column() -> None:
    assert LEGEND.splitlines()[0].split()[0] == "time"


def test_every_broken_variant_says_what_it_shows_and_ends_as_expected() -> None:
    assert set(BROKEN_SHOWS) == set(BROKEN_VARIANTS)
    for variant, shows in BROKEN_SHOWS.items():
        assert _verdict(False, variant) == f"NOT converged — as expected: {shows}"
    assert _verdict(False, None) == "NOT converged: see the rows marked NO"
    assert _verdict(True, None).startswith("every event took effect once")


def test_the_short_backoff_is_explained() -> None:
    assert "1 s (countdowns 1, 2, 4 s)" in BACKOFF_NOTE
    assert "5 s (5, 10, 20 s)" in BACKOFF_NOTE
