"""Every view agrees, by property: for every (student, exercise) of a generated class
(statuses, scores, reasons, decisions current and stale, late penalties, a roster with
gaps), what the review matrix, each student's feedback page, the Canvas, Moodle, CSV and
JSON exports and ``stats --json`` show is one number: the grade computed here directly from
the generated inputs by ``grade()``, and nothing else."""

from __future__ import annotations

import csv
import io
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.instructor.feedback import feedback_html
from grader.instructor.grade import Decided, Grade, Graded, Late, grade
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import GradingEntry, GradingKey, sha256_text
from grader.instructor.gradebook.stats import class_stats, stats_to_json, stray_ids
from grader.instructor.review.data import ClassData
from grader.instructor.review.matrix import build_matrix
from grader.instructor.term import lms
from grader.instructor.term.roster import Student
from grader.instructor.term.store import import_roster, receipts, record_receipts, set_lateness
from grader.judge.exercises import get_exercise
from grader.judge.results import CheckResult, Message, failed_check, msg, passed_check

FINGERPRINT = "f" * 64
EXERCISES = {"EX-11-01": "code", "EX-11-02": "prose"}
#: (status, reason) a grading may have, per kind.
OUTCOMES = {
    "code": [
        ("passed", None),
        ("failed", None),
        ("error", "error.syntax"),
        ("error", "batch.archive_corrupt"),
        ("error", "batch.grading_failed"),
        ("missing", "batch.missing"),
    ],
    "prose": [
        ("needs_review", None),
        ("failed", "too_short"),
        ("failed", "not_started"),
        ("error", "batch.manifest_mismatch"),
        ("missing", "batch.missing"),
    ],
}


@dataclass(frozen=True)
class Cell:
    student: str
    exercise: str
    status: str
    reason: str | None
    score_share: float
    #: None: no decision; else (share of the maximum, on the current text or an older one)
    decision: tuple[float, bool] | None
    penalty: float


def _cells() -> st.SearchStrategy[list[Cell]]:
    """A class: up to 6 of 12 ids, each with both exercises."""
    shares = st.sampled_from([0.0, 0.25, 0.5, 0.7, 1.0])
    decision = st.none() | st.tuples(shares, st.booleans())
    penalty = st.sampled_from([0.0, 0.0, 0.1, 0.2, 0.3, 1.0])

    def for_key(student: str, exercise: str) -> st.SearchStrategy[Cell]:
        outcome = st.sampled_from(OUTCOMES[EXERCISES[exercise]])
        return st.tuples(outcome, shares, decision, penalty).map(
            lambda t: Cell(student, exercise, t[0][0], t[0][1], t[1], t[2], t[3])
        )

    ids = [f"s{n:02d}" for n in range(12)]
    students = st.lists(st.sampled_from(ids), min_size=1, max_size=6, unique=True)
    return students.flatmap(
        lambda names: st.tuples(*(for_key(s, e) for s in names for e in EXERCISES)).map(list)
    )


def _checks(cell: Cell, kind: str, maximum: float) -> tuple[CheckResult, ...]:
    if kind == "prose":
        if cell.reason == "too_short":
            return (failed_check("length", 0.0, msg("prose.too_short", chars=3, needed=60)),)
        if cell.reason == "not_started":
            return (failed_check("started", 0.0, msg("prose.not_started", file="answer.md")),)
        return (
            passed_check("concept:late_ack_redelivery", 1.0, msg("concept.found", section="x")),
            failed_check("concept:bounded_task_retry", 1.0, msg("concept.missing", section="x")),
        )
    return (passed_check("runs_cleanly", maximum, msg("run.ok")),)


def _entry(cell: Cell, text: str) -> GradingEntry:
    kind = EXERCISES[cell.exercise]
    maximum = get_exercise(cell.exercise).max_score
    sha = "missing" if cell.status == "missing" else sha256_text(text)
    key = GradingKey(cell.student, cell.exercise, sha, FINGERPRINT)
    failed_prose = cell.status == "failed" and kind == "prose"
    score = (
        0.0 if cell.status in ("error", "missing") or failed_prose else cell.score_share * maximum
    )
    reason = cell.reason if cell.status in ("error", "missing") else None
    return GradingEntry(
        key,
        cell.status,
        kind,
        round(score, 2),
        maximum,
        checks=() if cell.status in ("error", "missing") else _checks(cell, kind, maximum),
        reason=Message(reason, {}) if reason else None,
        file_name="answer.md" if kind == "prose" else "probe.py",
        content=None if cell.status == "missing" else text,
    )


def _expected(cell: Cell, entry: GradingEntry, decided_on: str | None) -> Grade:
    """The grade from the generated inputs, without the gradebook or any view."""
    decided = None
    if cell.decision is not None and decided_on is not None:
        share, _ = cell.decision
        final = round(share * entry.max_score, 2)
        decided = Decided(final, "why", decided_on)
    graded = Graded(
        0,
        entry.status,
        entry.kind,
        entry.score,
        entry.max_score,
        entry.key.content_sha256,
        entry.reason.id if entry.reason else None,
        any(c.name == "length" and not c.passed for c in entry.checks),
    )
    late = Late(cell.penalty, 3600.0) if cell.penalty and entry.status != "missing" else None
    return grade(graded, decided, late)


def _build(path: Path, cells: list[Cell]) -> tuple[Gradebook, dict[tuple[str, str], Grade]]:
    book = Gradebook(f"sqlite:///{path / 'g.db'}")
    expected: dict[tuple[str, str], Grade] = {}
    received = []
    lateness = {}
    now = datetime(2026, 12, 9, tzinfo=UTC)
    for cell in cells:
        text = f"{cell.student} {cell.exercise} v1\n"
        entry = _entry(cell, text)
        book.record(entry)
        decided_on = None
        if cell.decision is not None:
            share, on_current = cell.decision
            book.set_review(
                cell.student,
                cell.exercise,
                final_score=round(share * entry.max_score, 2),
                comment="why",
                reviewer="prof",
            )
            decided_on = entry.key.content_sha256
            if not on_current and cell.status != "missing":  # a new text graded since
                entry = _entry(cell, f"{cell.student} {cell.exercise} v2\n")
                book.record(entry)
        sha = entry.key.content_sha256
        if cell.status != "missing":
            received.append((cell.student, cell.exercise, sha, now, "csv"))
            lateness[(cell.student, cell.exercise, sha)] = (
                now,
                3600.0 if cell.penalty else 0.0,
                cell.penalty,
            )
        expected[(cell.student, cell.exercise)] = _expected(cell, entry, decided_on)
    record_receipts(book, received)
    set_lateness(book, lateness)
    return book, expected


def _number(text: str) -> float | None:
    return None if text in ("", "–") else float(text)


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def _feedback_scores(page: str) -> dict[str, float | None]:
    return {
        exercise: _number(score)
        for exercise, score in re.findall(r'<section id="([^"]+)"[^>]*data-score="([^"]*)"', page)
    }


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_cells(), st.integers(min_value=0, max_value=3))
def test_every_view_shows_the_one_grade(cells: list[Cell], unlisted: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        book, expected = _build(Path(folder), cells)
        with book:
            results = book.results()
            names = sorted({cell.student for cell in cells})
            listed = names[unlisted:]  # the first few ids are not on the roster
            import_roster(book, [Student(s, email=f"{s}@x.edu", sis_login_id=s) for s in listed])
            roster = [Student(s, email=f"{s}@x.edu", sis_login_id=s) for s in listed]
            table = lms.build_table(results, roster, receipts(book))
            options = lms.ExportOptions()
            views: dict[str, dict[tuple[str, str], float | None]] = {}
            rows = _csv(lms.to_canvas(table, results, options)[0])
            views["canvas"] = {
                (r[3], e): _number(v)
                for r in rows[2:]
                for e, v in zip(rows[0][5:], r[5:], strict=True)
            }
            rows = _csv(lms.to_moodle(table, lms.ExportOptions(identifier="username"))[0])
            views["moodle"] = {
                (r[0], e): _number(v)
                for r in rows[1:]
                for e, v in zip(rows[0][1:], r[1:], strict=True)
            }
            rows = _csv(lms.to_csv(table, results, options))
            views["csv"] = {
                (r[0], e): _number(v)
                for r in rows[2:]
                for e, v in zip(rows[0][1:-1], r[1:-1], strict=True)
            }
            data = lms.to_json(table, results, options)
            views["json"] = {
                (s["student"], e): c["exported_score"]
                for s in data["students"]
                for e, c in s["results"].items()
            }
            finals_json = {
                (s["student"], e): c["final_score"]
                for s in data["students"]
                for e, c in s["results"].items()
            }
            matrix = build_matrix(ClassData(book).current(), None, "student")
            finals_matrix = {
                (row.student, exercise): _number(cell.final) if cell else None
                for row in matrix.rows
                for exercise, cell in zip(matrix.exercises, row.cells, strict=True)
            }
            pages = {
                s: _feedback_scores(feedback_html(s, [r for r in results if r.student == s], "en"))
                for s in names
            }
            strays = stray_ids(results, set(listed))
            stats = stats_to_json(class_stats(results, set(listed)), results, strays)
        for (student, exercise), want in expected.items():
            key = (student, exercise)
            exported = want.exported()
            for name, view in views.items():
                if name in ("canvas", "moodle") and listed and student not in listed:
                    assert key not in view, (name, key)  # off a roster: the LMS cannot map it
                    continue
                assert view[key] == exported, (name, key, want)
            assert finals_json[key] == want.final_score, key
            assert finals_matrix[key] == want.final_score, key
            assert pages[student][exercise] == want.student_score(), key
            if student in strays:
                assert student not in stats["grades"]
            else:
                assert stats["grades"][student][exercise]["final_score"] == want.final_score
        for student in strays:  # listed apart: not on the roster, nothing valid handed in
            assert student not in listed
            assert not any(want.handed_in for (s, _), want in expected.items() if s == student)
