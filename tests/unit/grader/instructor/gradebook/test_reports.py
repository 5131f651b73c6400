"""Export (CSV for LMS imports, JSON), class statistics and feedback pages, from entries."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from grader.instructor.feedback import feedback_html
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.export import awaiting_review, to_csv, to_json
from grader.instructor.gradebook.stats import class_stats, stats_to_json, stray_ids, survivors
from grader.judge.exercises import get_exercise
from tests.unit.grader.instructor.gradebook.factories import (
    absent_entry,
    broken_entry,
    code_entry,
    prose_entry,
)


@pytest.fixture
def book(tmp_path: Path) -> Gradebook:
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    book.record(code_entry("alice"))
    book.record(prose_entry("alice"))
    book.record(code_entry("carol", text="v\n", survived=True))
    book.record(broken_entry("bob"))
    book.record(absent_entry("bob", "EX-11-02"))
    return book


def test_csv_has_points_possible_and_blank_missing_and_error_cells(book: Gradebook) -> None:
    text = to_csv(book.results())
    assert text.startswith("\ufeff")  # a BOM: spreadsheets then read UTF-8
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0] == ["student", "EX-11-01", "EX-11-02", "total"]
    maxima = [get_exercise(e).max_score for e in ("EX-11-01", "EX-11-02")]
    # the exercises' maxima, from their specs
    assert rows[1] == ["Points Possible", *(f"{m:g}" for m in maxima), f"{sum(maxima):g}"]
    # bob's archive was unsafe: it needs re-submission, an empty cell, never a genuine-looking
    # 0; alice's prose answer awaits the instructor: empty, nothing provisional leaves
    assert rows[2:] == [["alice", "2", "", "2"], ["bob", "", "", "0"], ["carol", "1", "", "1"]]
    assert awaiting_review(book.results()) == 1


def test_final_scores_replace_automatic_ones(book: Gradebook) -> None:
    book.set_review("alice", "EX-11-02", final_score=2.0, comment="good")
    rows = list(csv.reader(io.StringIO(to_csv(book.results()).removeprefix("\ufeff"))))
    assert rows[2] == ["alice", "2", "2", "4"]
    data = to_json(book.results())
    cell = data["students"][0]["results"]["EX-11-02"]
    assert (cell["score"], cell["final_score"], cell["reviewed"]) == (1.0, 2.0, True)
    assert data["students"][1]["results"]["EX-11-01"]["reason"] == "batch.archive_unsafe_path"
    assert awaiting_review(book.results()) == 0


def test_stats_count_failed_checks_and_surviving_mutants(book: Gradebook) -> None:
    stats = {item.exercise: item for item in class_stats(book.results())}
    code = stats["EX-11-01"]
    # bob handed in nothing valid and there is no roster: a stray id, never a student
    assert (code.students, code.handed_in, code.passed) == (2, 2, 1)
    assert stray_ids(book.results()) == ["bob"]
    assert stray_ids(book.results(), {"alice", "bob", "carol"}) == []
    assert class_stats(book.results(), {"bob"})[0].students == 3
    [mutant] = code.mutants
    assert (mutant.subject, mutant.failed, mutant.total, mutant.share) == (
        "off_by_one_bound",
        1,
        2,
        0.5,
    )
    data = stats_to_json(list(stats.values()))
    assert data["exercises"][0]["mutants"]["off_by_one_bound"]["share"] == 0.5
    assert survivors(book.results(), "EX-11-01", "off_by_one_bound") == ["carol"]
    assert survivors(book.results(), "EX-11-01", "no_such_mutant") == []
    prose = stats["EX-11-02"]
    assert (prose.handed_in, prose.passed_share) == (1, 0.0)  # bob's missing one is left out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_feedback_is_escaped_and_self_contained(book: Gradebook, lang: str) -> None:
    book.set_review("carol", "EX-11-01", final_score=1.0, comment="<img src=x onerror=alert(1)>")
    page = feedback_html("carol", book.results(student="carol"), lang)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "src=" not in page.replace("&lt;img src=x", "") and "<link" not in page
    assert ("教师评语" if lang == "zh" else "Instructor&#39;s comment") in page
