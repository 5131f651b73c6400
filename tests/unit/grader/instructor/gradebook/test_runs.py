"""Undoing one run removes exactly what it recorded and shows the earlier grading again;
reviews are kept. Removing a student removes all of theirs and nobody else's."""

from __future__ import annotations

from pathlib import Path

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.runs import remove_student, runs, start_run, undo_run
from tests.unit.grader.instructor.gradebook.factories import code_entry, prose_entry


def test_undo_run_points_back_and_keeps_reviews(tmp_path: Path) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        book.run_id = first = start_run(book, {"submissions": "subs"})
        book.record(code_entry("alice", "v1\n"))
        book.record(prose_entry("alice"))
        book.set_review("alice", "EX-11-02", final_score=1.5, comment="ok")
        book.run_id = second = start_run(book, {"submissions": "subs"})
        book.record(code_entry("alice", "v2\n"))  # a changed probe
        book.record(code_entry("bob", "b\n"))  # a student first seen in run 2
        assert [(r.id, r.gradings) for r in runs(book)] == [(first, 2), (second, 2)]
        assert undo_run(book, second) == 2
        rows = {(r.student, r.exercise): r for r in book.results()}
        assert set(rows) == {("alice", "EX-11-01"), ("alice", "EX-11-02")}
        alice = rows[("alice", "EX-11-01")]
        assert alice.content == "v1\n"  # the earlier grading shows again
        assert rows[("alice", "EX-11-02")].final_score == 1.5  # the review stays
        assert [r.id for r in runs(book)] == [first]
        assert undo_run(book, second) is None  # gone: nothing to undo twice


def test_remove_student_removes_only_that_student(tmp_path: Path) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        book.record(code_entry("exercises", "starter\n"))  # invented by the wrong folder
        book.record(code_entry("alice"))
        assert remove_student(book, "exercises") == 1
        assert [r.student for r in book.results()] == ["alice"]
        assert book.grading_count() == 1
