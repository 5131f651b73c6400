"""Due dates, the late policy, received times and extensions: lateness and penalty both
ways (on time is no penalty; each started day late costs its share, up to the cap; past
the no-credit day, everything), and a re-run never moves a received time."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from grader.errors import UsageError
from grader.instructor.batch.layout import StudentSource
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.deadlines import LatePolicy, load_settings, settings_from
from grader.instructor.term.receiving import read_received_at, receive, refresh_lateness
from grader.instructor.term.store import grant_extension, receipts
from tests.unit.grader.instructor.gradebook.factories import code_entry

COURSE = """
timezone = "Asia/Shanghai"
[due]
"EX-11-01" = "2026-12-07T23:59"
"ex-11-02" = 2026-12-07T23:59:00Z
[late]
penalty_per_day = 0.1
max_penalty = 0.3
no_credit_after_days = 7
"""
SHANGHAI = ZoneInfo("Asia/Shanghai")


@pytest.mark.parametrize(
    ("late_by", "penalty"),
    [(0, 0.0), (-5, 0.0), (1, 0.1), (86400, 0.1), (86401, 0.2), (3 * 86400, 0.3),
     (6 * 86400, 0.3), (7 * 86400, 0.3), (7 * 86400 + 1, 1.0)],
)  # fmt: skip
def test_penalty_per_started_day_capped_then_no_credit(late_by: float, penalty: float) -> None:
    policy = LatePolicy(penalty_per_day=0.1, max_penalty=0.3, no_credit_after_days=7)
    assert policy.penalty(late_by) == penalty


def test_settings_read_due_times_in_their_zone(tmp_path: Path) -> None:
    path = tmp_path / "course.toml"
    path.write_text(COURSE, encoding="utf-8")
    settings = load_settings(path)
    assert settings.due["EX-11-01"] == datetime(2026, 12, 7, 23, 59, tzinfo=SHANGHAI)
    assert settings.due["EX-11-02"] == datetime(2026, 12, 7, 23, 59, tzinfo=UTC)
    due = settings.due["EX-11-01"]
    assert settings.lateness("EX-11-01", due, None) == (due, 0.0, 0.0)
    assert settings.lateness("EX-11-01", due + timedelta(hours=25), None)[1:] == (90000.0, 0.2)
    later = due + timedelta(days=3)
    assert settings.lateness("EX-11-01", due + timedelta(days=2), later) == (later, 0.0, 0.0)
    assert settings.lateness("EX-12-01", due, None) == (None, 0.0, 0.0)  # no due date
    assert load_settings(tmp_path / "absent.toml").due == {}


@pytest.mark.parametrize(
    "data",
    [{"timezone": "Mars/Olympus"}, {"due": {"EX-11-01": "next friday"}},
     {"late": {"penalty_per_day": 2}}, {"late": {"per_day": 0.1}}],
)  # fmt: skip
def test_bad_settings_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(UsageError):
        settings_from(data, "course.toml")


def test_received_at_csv(tmp_path: Path) -> None:
    path = tmp_path / "received.csv"
    path.write_text(
        "\ufeffStudent,Exercise,Time\nalice,EX-11-01,2026-12-08T10:00\nbob,all,2026-12-01T09:00Z\n",
        encoding="utf-8",
    )
    found = read_received_at(path, SHANGHAI)
    assert found == {
        ("alice", "EX-11-01"): datetime(2026, 12, 8, 10, tzinfo=SHANGHAI),
        ("bob", "*"): datetime(2026, 12, 1, 9, tzinfo=UTC),
    }
    path.write_text("student,time\nalice,soon\n", encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        read_received_at(path, UTC)
    assert raised.value.params["line"] == 2


def test_a_rerun_never_moves_a_received_time_and_an_extension_lifts_the_penalty(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "subs" / "alice" / "EX-11-01"
    folder.mkdir(parents=True)
    handed_in = folder / "retry_policy_probe.py"
    handed_in.write_text("print(1)\n")
    due = datetime(2026, 12, 7, 23, 59, tzinfo=SHANGHAI)  # not UTC: stored as UTC
    first = (due + timedelta(hours=30)).timestamp()
    os.utime(handed_in, (first, first))
    settings = settings_from(
        {"due": {"EX-11-01": due}, "late": {"penalty_per_day": 0.25}}, "course.toml"
    )
    source = StudentSource("alice", tmp_path / "subs" / "alice", "folder")
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        book.record(code_entry("alice"))
        assert receive(book, [source], ["EX-11-01"], {}) == 1
        assert refresh_lateness(book, settings) == 1
        [receipt] = receipts(book).values()
        assert (receipt.source, receipt.late_by_seconds, receipt.penalty) == (
            "mtime",
            108000.0,
            0.5,
        )
        os.utime(handed_in, (first + 86400, first + 86400))  # copied again, same content
        assert receive(book, [source], ["EX-11-01"], {}) == 0
        [again] = receipts(book).values()
        assert again.received_at == receipt.received_at
        grant_extension(book, "alice", "*", due + timedelta(days=2), "ill", "prof")
        assert refresh_lateness(book, settings) == 0
        [extended] = receipts(book).values()
        assert (extended.penalty, extended.due_at) == (0.0, due + timedelta(days=2))
