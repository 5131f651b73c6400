"""The acceptance class of a real term: 60+ students with a roster of Chinese names, the
zips that used to crash the batch, a zip copied from another student, a forged manifest,
a folder and a zip with one id, late and on-time work, an extension. One ``grade`` run,
then every gradebook row, both LMS exports cell by cell, and the integrity report.

Canvas is read back by its import rules (Student, ID, SIS User ID, SIS Login ID, Section
first; a Points Possible row; no total), Moodle by its (one identifier column, no row
that is not a student): see grader/instructor/term/lms.py for the sources.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from grader.instructor.gradebook import Gradebook, ResultView
from grader.judge.exercises import get_exercise
from tests.e2e.batch_support import Ran, expected_profiles, grader, row_problems
from tests.support.classroom import (
    CRASHING_ZIPS,
    EXERCISES,
    PROSE,
    Member,
    crashing_zip,
    make_class,
    reference_files,
    with_manifest,
    zip_bytes,
)

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_term_class")]

ZONE = ZoneInfo("Asia/Shanghai")
DUE = datetime(2026, 12, 7, 23, 59, tzinfo=ZONE)
COURSE = """timezone = "Asia/Shanghai"
[due]
{due}
[late]
penalty_per_day = 0.1
max_penalty = 0.3
no_credit_after_days = 5
""".format(due="\n".join(f'"{e}" = "2026-12-07T23:59"' for e in EXERCISES))
#: student -> hours late (by --received-at), and the penalty the policy gives.
LATE = {"s000-reference": (30, 0.2), "s001-reference": (24 * 6, 1.0), "s002-reference": (10, 0.0)}
EXTENDED = "s002-reference"  # late by 10 h, but has an extension of 2 days
COPIER, ORIGINAL = "t-copier", "s015-reference-zip"
FORGER, FORGED_AS = "t-forger", "s016-reference-zip"
CLASH = "t-twice"
OFF_ROSTER = "s023-empty"
ABSENT = "t-absent"  # on the roster, hands in nothing
COLUMNS = {e: f"Exercise {e[3:]} (100{i})" for i, e in enumerate(EXERCISES)}


@dataclass(frozen=True)
class Term:
    work: Path
    url: str
    members: list[Member]
    roster: dict[str, dict[str, str]]
    grade: Ran


def _roster(students: list[str]) -> dict[str, dict[str, str]]:
    surnames = "王李张刘陈杨赵黄周吴"
    rows = {}
    for index, student in enumerate(students):
        name = f"{surnames[index % 10]}同学{index}"
        if index == 3:
            name = "=1+1 测试"  # must never reach a spreadsheet as a formula
        rows[student] = {
            "id": student,
            "name": name,
            "email": f"{student}@example.edu",
            "sis_user_id": f"U{index:04d}",
            "sis_login_id": f"login{index}",
            "section": "A" if index % 2 else "B",
        }
    return rows


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Term:
    work = tmp_path_factory.mktemp("term")
    folder = work / "submissions"
    database = work / "gradebook.db"
    members = make_class(folder, database)
    for kind in CRASHING_ZIPS:
        student = f"t-{kind.replace('_', '-')}"
        (folder / f"{student}.zip").write_bytes(crashing_zip(kind, student))
    shutil.copy(folder / f"{ORIGINAL}.zip", folder / f"{COPIER}.zip")  # byte for byte
    forged = with_manifest(FORGED_AS, reference_files(FORGER))  # own files, other's name
    (folder / f"{FORGER}.zip").write_bytes(zip_bytes(forged))
    (folder / CLASH).mkdir()
    (folder / f"{CLASH}.zip").write_bytes(zip_bytes(with_manifest(CLASH, reference_files(CLASH))))
    ids = [m.student for m in members if m.student != OFF_ROSTER]
    extra = [f"t-{k.replace('_', '-')}" for k in CRASHING_ZIPS] + [COPIER, FORGER, CLASH, ABSENT]
    roster = _roster(ids + extra)
    with (work / "roster.csv").open("w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "name", "email", "sis_user_id",
                                                    "sis_login_id", "section"])  # fmt: skip
        writer.writeheader()
        writer.writerows(roster.values())
    (work / "course.toml").write_text(COURSE, encoding="utf-8")
    received = ["student,exercise,time"] + [
        f"{student},all,{(DUE + timedelta(hours=hours)).isoformat()}"
        for student, (hours, _) in LATE.items()
    ]
    (work / "received.csv").write_text("\n".join(received) + "\n", encoding="utf-8")
    imported = grader("roster", "import", "roster.csv", "--lang", "en", cwd=work)
    assert imported.code == 0, imported.stderr
    until = (DUE + timedelta(days=2)).isoformat()
    extended = grader("extend", EXTENDED, "--until", until, "--reason", "病假", cwd=work)
    assert extended.code == 0, extended.stderr
    ran = grader(
        "grade", "submissions", "--jobs", "2", "--json", "--lang", "en",
        "--received-at", "received.csv", "--course", "course.toml", cwd=work,
    )  # fmt: skip
    return Term(work, f"sqlite:///{database}", members, roster, ran)


def _results(term: Term) -> dict[tuple[str, str], ResultView]:
    with Gradebook(term.url) as book:
        return {(r.student, r.exercise): r for r in book.results()}


def test_the_class_is_a_real_term(term: Term) -> None:
    assert len(term.members) >= 60
    assert any("同学" in row["name"] for row in term.roster.values())
    assert term.grade.code == 0, term.grade.stderr  # no student ends the batch


def test_every_gradebook_row(term: Term) -> None:
    results = _results(term)
    problems = row_problems(term.members, results, expected_profiles())
    for kind in CRASHING_ZIPS:
        student = f"t-{kind.replace('_', '-')}"
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
    students = {m.student for m in term.members} | {COPIER, FORGER, CLASH}
    students |= {f"t-{k.replace('_', '-')}" for k in CRASHING_ZIPS}
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


def _penalty(student: str) -> float:
    return LATE[student][1] if student in LATE and student != EXTENDED else 0.0


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
    return f"{round(score * (1 - _penalty(result.student)), 2):g}"


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
    results = _results(term)
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
    results = _results(term)
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
        assert cell["penalty"] == _penalty(student), student
        late = 0.0 if student == EXTENDED else hours * 3600.0
        assert cell["late_by_seconds"] == late, student
    on_time = students["s003-reference"]["results"]["EX-11-01"]
    assert (on_time["received_from"], on_time["penalty"]) == ("mtime", 0.0)
    assert students[ABSENT]["results"] == {}


def test_integrity_finds_the_copy_and_nothing_among_honest_students(term: Term) -> None:
    ran = grader("integrity", "--json", "--root", str(Path(__file__).parents[2]), cwd=term.work)
    assert ran.code == 0, ran.stderr
    report = ran.json()
    results = _results(term)
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


def test_feedback_pages_state_lateness_and_penalty(term: Term, tmp_path: Path) -> None:
    out = tmp_path / "feedback"
    ran = grader("feedback", "--out", str(out), "--lang", "en", cwd=term.work)
    assert ran.code == 0, ran.stderr
    page = (out / "s000-reference.html").read_text(encoding="utf-8")
    assert "Handed in 1 d 6 h late (due 2026-12-07 15:59 UTC); penalty 20%." in page
    assert "Handed in" not in (out / "s003-reference.html").read_text(encoding="utf-8")
    extended = (out / f"{EXTENDED}.html").read_text(encoding="utf-8")
    assert "Handed in" not in extended  # late by the clock, on time by its extension
