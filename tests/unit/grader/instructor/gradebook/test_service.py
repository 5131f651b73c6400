"""The gradebook service: idempotent recording, current pointers, reviews that survive."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import GradingEntry
from grader.instructor.gradebook.models import CheckRow, Grading
from grader.judge.results import Message
from tests.unit.grader.instructor.gradebook.factories import (
    absent_entry,
    broken_entry,
    code_entry,
    prose_entry,
)


@pytest.fixture
def book(tmp_path: Path) -> Gradebook:
    return Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}")


def _rows(book: Gradebook, model: type[Grading] | type[CheckRow]) -> int:
    with book.engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(model)) or 0)


def test_recording_the_same_key_twice_keeps_one_row(book: Gradebook) -> None:
    assert book.record(code_entry()) is True
    assert book.record(code_entry()) is False  # a redelivery: refused by the unique key
    assert (_rows(book, Grading), _rows(book, CheckRow)) == (1, 3)
    [result] = book.results()
    assert (result.student, result.exercise, result.status) == ("alice", "EX-11-01", "passed")


def test_a_changed_submission_is_a_new_row_and_becomes_current(book: Gradebook) -> None:
    book.record(code_entry(text="v1\n"))
    book.record(code_entry(text="v2\n", survived=True))
    assert _rows(book, Grading) == 2
    [result] = book.results()
    assert result.content == "v2\n" and result.mutants == {"off_by_one_bound": False}
    # going back to v1 (already recorded): marked current without a new row
    assert book.mark_current(code_entry(text="v1\n").key) is True
    [result] = book.results()
    assert (result.content, result.mutants, _rows(book, Grading)) == (
        "v1\n",
        {"off_by_one_bound": True},
        2,
    )


def test_mark_current_of_an_unknown_key_says_so(book: Gradebook) -> None:
    assert book.mark_current(code_entry().key) is False
    assert book.results() == []


def test_results_round_trip_messages_checks_and_evidence(book: Gradebook) -> None:
    book.record(code_entry(survived=True))
    [result] = book.results()
    mutant = result.checks[2]
    assert (mutant.category, mutant.subject, mutant.passed) == ("mutant", "off_by_one_bound", False)
    assert mutant.message == Message(
        "mutant.survived", {"mutant": Message("mutant.off_by_one_bound", {})}
    )
    assert mutant.evidence == "<script>alert(1)</script>"
    report = result.report("en")
    assert report.checks[2].label == Message(
        "check.mutant", {"arg": Message("mutant.off_by_one_bound", {})}
    )
    assert (result.isolation, result.seconds, result.worker) == ("namespaces", 0.25, "test:1")


def test_errors_and_missing_keep_their_reason(book: Gradebook) -> None:
    book.record(broken_entry())
    book.record(absent_entry())
    error, missing = book.results(student="bob")
    assert error.status == "error" and error.reason is not None
    assert error.reason.id == "batch.archive_unsafe_path"
    assert error.reason.params["entry"] == "../evil.py"
    assert (missing.status, missing.final_score) == ("missing", None)


def test_prose_concepts_and_review_queue(book: Gradebook) -> None:
    book.record(prose_entry("alice"))
    book.record(prose_entry("bob"))
    [first, _] = book.review_queue()
    assert first.concepts == {"late_ack_redelivery": True, "bounded_task_retry": False}
    book.set_review("alice", "EX-11-02", final_score=1.5, comment="ok", reviewer="li")
    queue = book.review_queue()
    assert [view.student for view in queue] == ["bob", "alice"]  # unreviewed first


def test_review_survives_regrade_and_is_flagged_when_the_submission_changed(
    book: Gradebook,
) -> None:
    book.record(prose_entry(text="first\n"))
    review = book.set_review("alice", "EX-11-02", final_score=2.0, comment="good", reviewer="prof")
    assert (review.reviewer, review.changed_since_review) == ("prof", False)
    book.record(prose_entry(text="first\n"))  # re-grade, unchanged
    result = book.result("alice", "EX-11-02")
    assert result is not None and result.review is not None
    assert (result.final_score, result.review.changed_since_review) == (2.0, False)
    book.record(prose_entry(text="second\n"))  # the student handed in something else
    result = book.result("alice", "EX-11-02")
    assert result is not None and result.review is not None
    # The decision is kept (for the instructor) but no longer counts for the new text.
    assert (result.review.final_score, result.review.comment) == (2.0, "good")
    assert result.review.changed_since_review is True
    assert not result.reviewed and result.shown_status == "needs_review"
    assert result.final_score is None  # awaiting the instructor again: nothing official
    assert result.grade.provisional_score == result.score == 1.0


def test_review_score_must_be_within_range(book: Gradebook) -> None:
    book.record(prose_entry())
    with pytest.raises(UsageError) as raised:
        book.set_review("alice", "EX-11-02", final_score=3.5)
    assert raised.value.message_id == "error.review_score_range"
    with pytest.raises(UsageError):
        book.set_review("nobody", "EX-11-02", final_score=1)


def test_finished_tasks_are_recorded_once(book: Gradebook) -> None:
    book.finish_task("run-1", "alice", {"graded": 2})
    book.finish_task("run-1", "alice", {"graded": 0})
    assert book.finished_tasks("run-1") == {"alice": {"graded": 2}}
    assert book.finished_tasks("run-2") == {}


def test_reopening_keeps_everything(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with Gradebook(url) as book:
        book.record(code_entry())
    with Gradebook(url) as again:
        assert [r.student for r in again.results()] == ["alice"]
        assert again.files[0] == str(tmp_path / "g.db")


@pytest.mark.parametrize("url", ["nonsense", "mysql://x@y/z", "sqlite://", "sqlite:///:memory:"])
def test_bad_urls_are_usage_errors(url: str) -> None:
    with pytest.raises(UsageError) as raised:
        Gradebook(url)
    assert raised.value.message_id == "error.db_url"


def test_unreachable_server_is_a_usage_error_naming_it() -> None:
    with pytest.raises(UsageError) as raised:
        Gradebook("postgresql://nobody@127.0.0.1:1/none")
    assert raised.value.message_id == "error.db_unreachable"
    assert "127.0.0.1:1" in str(raised.value.params["url"])


def test_postgresql_refuses_duplicates_the_same_way(postgres_url: str) -> None:
    with Gradebook(postgres_url) as book:
        assert book.record(code_entry()) is True
        assert book.record(code_entry()) is False
        assert (_rows(book, Grading), _rows(book, CheckRow)) == (1, 3)
        book.set_review("alice", "EX-11-01", final_score=0.5, comment="<b>", reviewer="x")
        [result] = book.results()
        assert result.review is not None and result.review.reviewed_at.tzinfo is not None


def test_write_seconds_add_up_every_write(book: Gradebook) -> None:
    assert book.write_seconds == 0.0
    book.record(code_entry())
    after_record = book.write_seconds
    assert after_record > 0.0
    book.record(code_entry())  # a duplicate: refused, then only marked current
    book.finish_task("run-1", "alice", {"graded": 1})
    assert book.write_seconds > after_record


def test_record_all_is_one_transaction_and_exactly_once(book: Gradebook) -> None:
    first, second = code_entry("alice"), code_entry("bob")
    assert book.record_all([first, second]) == [True, True]
    assert book.record_all([]) == []
    third = code_entry("carol")
    assert book.record_all([second, third]) == [False, True]  # bob's key: refused, not doubled
    assert sorted(r.student for r in book.results()) == ["alice", "bob", "carol"]
    assert book.grading_count() == 3


def test_record_all_commits_once(book: Gradebook) -> None:
    from sqlalchemy import event

    commits: list[object] = []
    event.listen(book.engine, "commit", commits.append)
    book.record_all([code_entry("alice"), code_entry("bob"), code_entry("carol")])
    assert len(commits) == 1


@pytest.fixture(params=["sqlite", "postgresql"])
def either_book(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Gradebook]:
    """The gradebook on SQLite, and on the local PostgreSQL (skipped, saying so, when it is
    unreachable)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
    with Gradebook(url) as opened:
        yield opened


def _statements(book: Gradebook, entries: list[GradingEntry]) -> list[str]:
    from sqlalchemy import event

    seen: list[str] = []

    def note(*args: object) -> None:
        seen.append(str(args[2]).split(None, 1)[0])

    event.listen(book.engine, "before_cursor_execute", note)
    try:
        book.record_all(entries)
    finally:
        event.remove(book.engine, "before_cursor_execute", note)
    return seen


def test_on_postgresql_record_all_sends_as_many_statements_for_six_gradings_as_for_one(
    postgres_url: str,
) -> None:
    """Each statement is a round trip to the server, so a student's six gradings cost what one
    does: the gradings, their checks, the pointers' lookup, the new pointers. (SQLite, in the
    process, gets one INSERT per row: it cannot return ids in the order of a batch.)"""
    with Gradebook(postgres_url) as book:
        one = _statements(book, [code_entry("alice")])
        six = _statements(book, [code_entry(f"s{n}") for n in range(6)])
        assert six == one == ["INSERT", "INSERT", "SELECT", "INSERT"]
        assert book.grading_count() == 7 and len(book.results()) == 7


def test_record_all_makes_the_last_of_each_key_current_in_order(either_book: Gradebook) -> None:
    either_book.record(code_entry("alice", text="v0\n"))
    recorded = either_book.record_all(
        [
            code_entry("alice", text="v1\n"),
            code_entry("bob", text="v1\n"),
            code_entry("alice", text="v2\n", survived=True),
        ]
    )
    assert recorded == [True, True, True]
    current = {r.student: (r.content, r.mutants) for r in either_book.results()}
    assert current == {
        "alice": ("v2\n", {"off_by_one_bound": False}),
        "bob": ("v1\n", {"off_by_one_bound": True}),
    }
    assert either_book.grading_count() == 4


def test_record_all_on_either_database_is_exactly_once(either_book: Gradebook) -> None:
    first, second = code_entry("alice"), code_entry("bob")
    assert either_book.record_all([first, second]) == [True, True]
    assert either_book.record_all([second, code_entry("carol")]) == [False, True]
    assert either_book.grading_count() == 3
    assert sorted(r.student for r in either_book.results()) == ["alice", "bob", "carol"]
