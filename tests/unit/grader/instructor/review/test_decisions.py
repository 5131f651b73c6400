"""Decisions are data: checked, stored with reviewer and time, kept across re-grades,
flagged when the submission changed, and used by export."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from grader.instructor.gradebook.export import to_csv
from grader.instructor.review.decisions import Rejected, decide, is_override, parse_score
from tests.unit.grader.instructor.gradebook.factories import prose_entry
from tests.unit.grader.instructor.review.factories import client, filled_book


@pytest.mark.parametrize(
    ("text", "score"), [("3", 3.0), (" 4.5 ", 4.5), ("2,5", 2.5), ("0", 0.0), ("5", 5.0)]
)
def test_scores_within_zero_and_the_maximum_are_accepted(text: str, score: float) -> None:
    assert parse_score(text, 5.0) == score


@pytest.mark.parametrize(
    ("text", "message_id"),
    [("", "review.error.score_not_number"), ("abc", "review.error.score_not_number"),
     ("nan", "review.error.score_range"), ("inf", "review.error.score_range"),
     ("-1", "review.error.score_range"), ("5.01", "review.error.score_range")],
)  # fmt: skip
def test_other_scores_are_refused_with_a_message(text: str, message_id: str) -> None:
    with pytest.raises(Rejected) as refused:
        parse_score(text, 5.0)
    assert refused.value.message_id == message_id


def test_a_prose_answer_needs_no_comment_but_an_override_does(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    prose = book.result("bob", "EX-11-02")
    code = book.result("alice", "EX-11-01")
    assert prose is not None and code is not None
    assert not is_override(prose) and is_override(code)
    decide(book, prose, "2", "", "prof", grading_id=prose.grading_id)
    with pytest.raises(Rejected) as refused:
        decide(book, code, "1", "   ", "prof", grading_id=code.grading_id)
    assert refused.value.message_id == "review.error.comment_required"
    assert book.result("alice", "EX-11-01").review is None  # type: ignore[union-attr]
    decide(
        book,
        code,
        "1",
        "probe is right; the output check was too strict",
        "prof",
        grading_id=code.grading_id,
    )
    assert book.result("alice", "EX-11-01").final_score == 1  # type: ignore[union-attr]


def test_a_decision_records_who_and_when_and_survives_an_unchanged_regrade(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    before = datetime.now(UTC)
    result = book.result("bob", "EX-11-02")
    assert result is not None
    decide(book, result, "1.5", "good\r\nwork", "prof", grading_id=result.grading_id)
    book.record(prose_entry("bob", "Late ACK means the broker redelivers.\n"))  # a re-grade
    review = book.result("bob", "EX-11-02").review  # type: ignore[union-attr]
    assert review is not None
    assert (review.final_score, review.comment, review.reviewer) == (1.5, "good\nwork", "prof")
    assert before - timedelta(seconds=1) <= review.reviewed_at <= datetime.now(UTC)
    assert not review.changed_since_review


def test_a_changed_submission_keeps_the_decision_flagged(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    result = book.result("bob", "EX-11-02")
    assert result is not None
    decide(book, result, "0.5", "", "prof", grading_id=result.grading_id)
    assert book.result("bob", "EX-11-02").shown_status == "reviewed"  # type: ignore[union-attr]
    book.record(prose_entry("bob", "A new answer.\n"))
    changed = book.result("bob", "EX-11-02")
    assert changed is not None and changed.review is not None
    assert changed.review.changed_since_review and changed.review.final_score == 0.5
    # v2 was never read: it waits again, at its provisional score.
    assert changed.shown_status == "needs_review" and changed.final_score is None
    assert changed.grade.provisional_score == changed.score


def test_export_uses_the_final_score(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    result = book.result("bob", "EX-11-02")
    assert result is not None
    decide(book, result, "1.5", "", "prof", grading_id=result.grading_id)
    lines = to_csv(book.results()).removeprefix("\ufeff").splitlines()
    rows = {line.split(",")[0]: line.split(",") for line in lines}
    header = rows["student"]
    assert rows["bob"][header.index("EX-11-02")] == "1.5"


def test_the_queue_moves_on_to_the_next_unreviewed_answer(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    assert http.get("/queue").headers["location"] == "/queue/alice/EX-11-02"
    answer = made.decide("alice", "EX-11-02", score="2", comment="", back="queue")
    assert answer.headers["location"] == "/queue/bob/EX-11-02"  # type: ignore[attr-defined]
    page = http.get("/queue/bob/EX-11-02").text
    assert "1 left to review" in page and "Answer 2 of 2" in page
    answer = made.decide("bob", "EX-11-02", score="2", comment="", back="queue")
    assert answer.headers["location"] == "/queue"  # type: ignore[attr-defined]
    empty = http.get("/queue")
    assert empty.status_code == 200 and 'id="queue-empty"' in empty.text  # no wrap-around
    assert "All reviewed" in empty.text and 'href="/insight"' in empty.text
    assert "0 left to review" in http.get("/queue/alice/EX-11-02").text


def test_a_refused_decision_redirects_and_a_reload_posts_nothing(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    answer = made.decide("bob", "EX-11-02", score="9", comment="x", back="queue")
    assert answer.status_code == 303  # type: ignore[attr-defined]
    target = answer.headers["location"]  # type: ignore[attr-defined]
    assert target.startswith("/queue/bob/EX-11-02?flash=")
    shown = http.get(target)
    assert shown.status_code == 200 and "outside 0 to 2" in shown.text
    assert 'value="9"' in shown.text  # what was typed comes back
    assert "outside 0 to 2" in http.get(target).text  # a reload is a GET: shown again
    assert made.book.result("bob", "EX-11-02").review is None  # type: ignore[union-attr]
