"""Figures count only what their labels say: a too-short prose answer is counted apart and
none of its concept checks counts in a concept's share (it waits in the queue instead); a
stray id (not on the roster, nothing valid handed in) is listed apart, never a student, the
same in ``grader stats --json`` and on the insight page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import entry_from_report
from grader.instructor.gradebook.stats import class_stats
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard
from grader.instructor.term.roster import Student
from grader.instructor.term.store import import_roster
from grader.judge.results import build_report, failed_check, msg
from tests.unit.grader.instructor.gradebook.factories import (
    broken_entry,
    code_entry,
    key,
    prose_entry,
)


def _too_short(student: str) -> object:
    checks = (
        failed_check("length", 0.0, msg("prose.too_short", chars=9, needed=60)),
        failed_check("concept:late_ack_redelivery", 1.0, msg("concept.missing", section="x")),
    )
    report = build_report("EX-11-02", "prose", checks, status="failed")
    return entry_from_report(
        key(student, "EX-11-02", "Too short.\n"),
        report,
        file_name="answer.md",
        content="Too short.\n",
        seconds=0.0,
    )


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with Gradebook(url) as book:
        book.record(code_entry("alice"))
        book.record(prose_entry("alice"))
        book.record(_too_short("bob"))  # type: ignore[arg-type]
        book.record(broken_entry("zz-stray"))  # not on the roster, nothing valid
        book.record(broken_entry("carol"))  # on the roster: a student who must re-submit
        import_roster(book, [Student("alice"), Student("bob"), Student("carol")])
    return url


def test_a_too_short_answer_is_counted_apart_and_waits_in_the_queue(url: str) -> None:
    with Gradebook(url) as book:
        stats = {item.exercise: item for item in class_stats(book.results(), {"alice", "bob"})}
        queue = [(r.student, r.exercise) for r in book.review_queue()]
    prose = stats["EX-11-02"]
    assert prose.too_short == 1 and prose.waiting == 2  # bob's too-short answer waits too
    [concept] = [c for c in prose.checks if c.subject == "late_ack_redelivery"]
    assert (concept.failed, concept.total) == (0, 1)  # alice's only, not bob's
    assert ("bob", "EX-11-02") in queue


def test_stray_ids_are_listed_apart_in_stats_and_on_the_insight_page(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--db", url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stray_ids"] == ["zz-stray"]
    assert "zz-stray" not in data["grades"] and "carol" in data["grades"]
    code = next(e for e in data["exercises"] if e["exercise"] == "EX-11-01")
    assert (code["students"], code["handed_in"], code["resubmit"]) == (2, 1, 1)
    assert main(["stats", "--db", url, "--lang", "en"]) == 0
    assert "1 id(s) not on the roster and with no valid submission" in capsys.readouterr().out
    guard = Guard(hosts=("testserver",))
    app = create_app(ReviewSettings(url, "prof", "en", guard))
    http = TestClient(app, follow_redirects=False)
    http.get(f"/?token={guard.token}")
    page = http.get("/insight").text
    assert 'id="stray-ids"' in page and "zz-stray" in page
