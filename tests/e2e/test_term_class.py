"""The acceptance class of a real term (``term_support.py``): 60+ students with a roster of
Chinese names, the zips that used to crash the batch, a zip copied from another student, a
forged manifest, a folder and a zip with one id, late and on-time work, an extension. One
``grade`` run, then every gradebook row, both LMS exports cell by cell, and the integrity
report.

Canvas is read back by its import rules (Student, ID, SIS User ID, SIS Login ID, Section
first; a Points Possible row; no total), Moodle by its (one identifier column, no row
that is not a student): see grader/instructor/term/lms.py for the sources.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from grader.instructor.gradebook import ResultView
from grader.judge.exercises import get_exercise
from tests.e2e.batch_support import expected_profiles, grader, row_problems
from tests.e2e.term_support import (
    ABSENT,
    CLASH,
    COLUMNS,
    COPIER,
    CRASHED,
    EXTENDED,
    EXTRAS,
    FORGED_AS,
    FORGER,
    LATE,
    OFF_ROSTER,
    ORIGINAL,
    Term,
    penalty,
)
from tests.e2e.term_support import results as results_of
from tests.support.classroom import EXERCISES, PROSE

# the term (conftest.py) is graded once, on the worker that runs this group
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("class_term")]


def test_the_class_is_a_real_term(term: Term) -> None:
    assert len(term.members) >= 60
    assert any("同学" in row["name"] for row in term.roster.values())
    assert term.grade.code == 0, term.grade.stderr  # no student ends the batch


def test_every_gradebook_row(term: Term) -> None:
    results = results_of(term)
    problems = row_problems(term.members, results, expected_profiles())
    for kind, student in CRASHED.items():
        reason = {"zip_prefix_clash": "batch.archive_prefix_clash",
                  "zip_long_name": "batch.archive_name_too_long"}[kind]  # fmt: skip
        for exercise in EXERCISES:
            got = results[(student, exercise)]
            if (got.status, got.reason.id if got.reason else None) != ("error", reason):
                problems.append(f"{student} {exercise}: {got.status} {got.reason}")
    for exercise in EXERCISES:
        clash = results[(CLASH, exercise)]
        assert (clash.status, clash.reason and clash.reason.id) == ("error", "batch.folder_and_zip")
        copier, original = results[(COPIER, exercise)], results[(ORIGINAL, exercise)]
        assert (copier.status, copier.content_sha256) == (original.status, original.content_sha256)
        assert results[(FORGER, exercise)].status in ("passed", "needs_review")
    assert not problems, "\n".join(problems)
    students = {m.student for m in term.members} | set(EXTRAS)
    assert set(results) == {(s, e) for s in students for e in EXERCISES}  # nothing else
    assert (ABSENT, "EX-11-01") not in results


def test_grade_names_roster_gaps_and_forged_manifests(term: Term) -> None:
    err = term.grade.stderr
    assert f"not on the roster (graded anyway; --roster-only skips them): {OFF_ROSTER}." in err
    assert f"handed in nothing: {ABSENT}." in err
    assert f"{COPIER} -> {ORIGINAL}" in err and f"{FORGER} -> {FORGED_AS}" in err
    copied = f"submissions/{COPIER}.zip"
    verify = grader("submit", "--verify", copied, "--lang", "en", cwd=term.work)
    assert verify.code == 1 and f"names the student {ORIGINAL}, not {COPIER}" in verify.stderr


def _expected_cell(result: ResultView | None) -> str:
    """The cell by the rules (not by the grade function): empty when missing, to be
    re-submitted or awaiting the instructor; 0 for code that does not parse; else the
    automatic score less the late penalty."""
    if result is None or result.status == "missing":
        return ""
    if result.status == "error" and result.reason and result.reason.id != "error.syntax":
        return ""
    if result.status == "needs_review" or any(
        c.name == "length" and not c.passed for c in result.checks
    ):
        return ""
    score = 0.0 if result.status == "error" else result.score
    return f"{round(score * (1 - penalty(result.student)), 2):g}"


def _read(path: Path) -> list[list[str]]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row), row
    return rows


def _column_args() -> list[str]:
    return [arg for e, name in COLUMNS.items() for arg in ("--column", f"{e}={name}")]


def test_canvas_export_cell_by_cell(term: Term) -> None:
    out = term.work / "canvas.csv"
    ran = grader("export", "--format", "canvas", "--out", str(out), "--lang", "en",
                 *_column_args(), cwd=term.work)  # fmt: skip
    assert ran.code == 0, ran.stderr
    results = results_of(term)
    resubmit = sorted(
        f"{s} {e}" for (s, e), r in results.items() if r.grade.state.value == "needs_resubmission"
    )
    assert "need re-submission" in ran.stderr and "were exported EMPTY, not as 0" in ran.stderr
    assert ", ".join(resubmit[:20]) in ran.stderr and f"{len(resubmit)} cell(s)" in ran.stderr
    rows = _read(out)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       *COLUMNS.values()]  # fmt: skip
    assert rows[1] == ["Points Possible", "", "", "", "", *(
        f"{get_exercise(e).max_score:g}" for e in EXERCISES)]  # fmt: skip
    body = {row[3]: row for row in rows[2:]}  # matched by SIS Login ID
    students = sorted(term.roster)  # a student off the roster is left out and named
    assert len(body) == len(rows) - 2 == len(students)
    assert "left out of the Canvas file" in ran.stderr and OFF_ROSTER in ran.stderr
    for student in students:
        who = term.roster[student]
        login = who["sis_login_id"]
        row = body[login]
        head = [who["name"] if not who["name"].startswith("=") else "'" + who["name"], "",
                who["sis_user_id"], login, who["section"]]  # fmt: skip
        assert row[:5] == head, student
        assert row[5:] == [_expected_cell(results.get((student, e))) for e in EXERCISES], student


def test_moodle_export_cell_by_cell(term: Term) -> None:
    out = term.work / "moodle.csv"
    ran = grader("export", "--format", "moodle", "--feedback", "--out", str(out), "--lang", "en",
                 *_column_args(), cwd=term.work)  # fmt: skip
    assert ran.code == 0, ran.stderr
    assert "no email on the roster and were left out" in ran.stderr and OFF_ROSTER in ran.stderr
    rows = _read(out)
    header = ["Email address"]
    for name in COLUMNS.values():
        header += [name, f"{name} (feedback)"]
    assert rows[0] == header
    results = results_of(term)
    emails = {row["email"]: student for student, row in term.roster.items()}
    assert [row[0] for row in rows[1:]] == sorted(emails, key=lambda e: emails[e])
    for row in rows[1:]:
        student = emails[row[0]]  # every row maps to a user: nothing aborts the import
        cells = [_expected_cell(results.get((student, e))) for e in EXERCISES]
        assert row[1::2] == cells, student
        assert row[2::2] == [""] * len(EXERCISES)  # no comments yet


def test_json_export_carries_lateness_and_the_extension(term: Term) -> None:
    ran = grader("export", "--format", "json", cwd=term.work)
    data: dict[str, Any] = json.loads(ran.stdout)
    students = {s["student"]: s for s in data["students"]}
    for student, (hours, _) in LATE.items():
        cell = students[student]["results"]["EX-11-01"]
        assert cell["received_from"] == "csv"
        assert cell["penalty"] == penalty(student), student
        late = 0.0 if student == EXTENDED else hours * 3600.0
        assert cell["late_by_seconds"] == late, student
    on_time = students["s003-reference"]["results"]["EX-11-01"]
    assert (on_time["received_from"], on_time["penalty"]) == ("mtime", 0.0)
    assert students[ABSENT]["results"] == {}


def test_integrity_finds_the_copy_and_nothing_among_honest_students(term: Term) -> None:
    ran = grader("integrity", "--json", "--root", str(Path(__file__).parents[2]), cwd=term.work)
    assert ran.code == 0, ran.stderr
    report = ran.json()
    results = results_of(term)
    handed_in = [e for e in EXERCISES if results[(COPIER, e)].status != "missing"]
    assert report["identical"] == {e: [sorted([COPIER, ORIGINAL])] for e in handed_in}
    # the only near-copies: the students the fixture gives one and the same English answer
    # (signed in an HTML comment a reader never sees), compared as the groups compare prose
    same_text = sorted(m.student for m in term.members if m.profile == "prose_en")
    assert [(p["students"], p["basis"]) for p in report["near_identical"]] == [
        (same_text, "prose") for _ in PROSE
    ]
    # every student who handed in the signed reference solution is reported as such
    references = {
        (e, m.student)
        for m in term.members
        for e in EXERCISES
        if m.profile.startswith("reference")
        and (r := results.get((m.student, e))) is not None
        and r.status != "missing"
    }
    matched = {(r["exercise"], r["student"]) for r in report["matches_reference_solution"]}
    assert references and references <= matched
    assert report["manifest_names_another_student"] == [
        {"student": COPIER, "manifest_student": ORIGINAL},
        {"student": FORGER, "manifest_student": FORGED_AS},
    ]


def test_feedback_pages_state_lateness_andpenalty(term: Term, tmp_path: Path) -> None:
    out = tmp_path / "feedback"
    ran = grader("feedback", "--out", str(out), "--lang", "en", cwd=term.work)
    assert ran.code == 0, ran.stderr
    page = (out / "s000-reference.html").read_text(encoding="utf-8")
    assert "Handed in 1 d 6 h late (due 2026-12-07 15:59 UTC); penalty 20%." in page
    assert "Handed in" not in (out / "s003-reference.html").read_text(encoding="utf-8")
    extended = (out / f"{EXTENDED}.html").read_text(encoding="utf-8")
    assert "Handed in" not in extended  # late by the clock, on time by its extension
