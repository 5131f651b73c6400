"""``grader grade`` on the generated class (tests/support/classroom.py), then export,
feedback and stats.

The class mixes reference and wrong solutions, untouched starters, missing exercises,
crashing/hanging/memory-bombing code, prose, notebooks, a probe that snoops for other
students' work, and each bad archive. It is the core of the term (``term_support.py``),
graded once per run for both modules; ``test_term_class`` checks every gradebook row
against tests/e2e/files/class/expected.json, this module what the class as a whole gives.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.stats import evaluated
from grader.judge.exercises import get_exercise
from tests.e2e.batch_support import expected_profiles, grader
from tests.e2e.term_support import ABSENT, COPIER, EXTRAS, FORGER, GRADE, Term, penalty
from tests.e2e.term_support import results as results_of
from tests.support.classroom import EXERCISES, NOT_STUDENTS, SCRIPT

# the term (conftest.py) is graded once, on the worker that runs this group
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("class_term")]


def test_the_class_is_big_enough_and_mixed(term: Term) -> None:
    profiles = Counter(member.profile.split(":")[0] for member in term.members)
    assert len(term.members) >= 60
    for needed in ("reference", "wrong", "starter", "crash", "hang", "memory_bomb", "notebook"):
        assert profiles[needed] >= 1, needed


def test_summary_counts_every_grading_and_names_skipped_entries(term: Term) -> None:
    summary = term.grade.json()
    results = results_of(term)
    total = len(results)
    assert total == (len(term.members) + len(EXTRAS)) * len(EXERCISES)
    assert set(summary) == {
        "graded", "unchanged", "passed", "failed", "needs_review", "reviewed", "errors",
        "missing", "seconds",
    }  # fmt: skip
    assert (summary["graded"], summary["unchanged"]) == (total, 0)
    statuses = Counter(r.status for r in results.values())
    assert summary["passed"] == statuses["passed"] and summary["errors"] == statuses["error"]
    assert summary["missing"] == statuses["missing"]
    assert (
        sum(summary[k] for k in ("passed", "failed", "needs_review", "errors", "missing")) == total
    )
    assert summary["reviewed"] == 0  # nothing decided yet
    for name in NOT_STUDENTS:
        assert term.grade.stderr.count(f"Skipped {name}:") == 1, name


def test_graded_rows_are_official_and_nothing_escaped_the_archives(term: Term) -> None:
    results = results_of(term).values()
    assert not any(r.weak_isolation for r in results)
    ran = [r for r in results if r.kind == "code" and r.status in ("passed", "failed")]
    assert {r.isolation for r in ran} - {None} == {"namespaces"}  # None: nothing ran (starter)
    assert not (term.work / "escaped").exists() and not Path("/tmp/escaped-absolute.py").exists()


def test_rerunning_an_unchanged_class_grades_nothing(term: Term) -> None:
    again = grader(*GRADE, "--json", cwd=term.work)
    assert again.code == 0, again.stderr
    summary = again.json()
    assert summary["graded"] == 0
    assert summary["unchanged"] == len(results_of(term))


def test_export_csv_parses_back_to_the_gradebook(term: Term) -> None:
    exported = grader("export", "--format", "csv", "--lang", "en", cwd=term.work)
    assert exported.code == 0
    assert exported.stdout.startswith("\ufeff")  # UTF-8 with a BOM, for spreadsheets
    rows = list(csv.reader(io.StringIO(exported.stdout.removeprefix("\ufeff"))))
    assert rows[0] == ["student", *EXERCISES, "total"]
    maxima = [get_exercise(exercise).max_score for exercise in EXERCISES]  # from the specs
    assert rows[1] == ["Points Possible", *(f"{m:g}" for m in maxima), f"{sum(maxima):g}"]
    results = results_of(term)
    by_student = {row[0]: row[1:] for row in rows[2:]}
    assert set(by_student) - {ABSENT} == {student for student, _ in results}
    for (student, exercise), result in results.items():
        cell = by_student[student][EXERCISES.index(exercise)]
        # an unreadable hand-in is empty (never a 0), code that does not parse is 0, an
        # answer awaiting the instructor is empty, the rest their automatic score less the
        # late penalty
        if result.status == "missing" or result.grade.state.value in (
            "needs_resubmission",
            "awaiting_review",
        ):
            want = ""
        else:
            score = 0.0 if result.status == "error" else result.score
            want = f"{round(score * (1 - penalty(student)), 2):g}"
        assert cell == want, (student, exercise)
    waiting = sum(1 for r in results.values() if r.grade.state.value == "awaiting_review")
    assert f"{waiting} prose answer(s) still await the instructor" in exported.stderr


def test_export_json_and_final_scores(term: Term, tmp_path: Path) -> None:
    prose = next(m.student for m in term.members if m.profile == "prose_script")
    with Gradebook(term.url) as book:
        book.set_review(prose, "EX-11-02", final_score=1.5, comment="see me", reviewer="prof")
    try:
        out = tmp_path / "grades.json"
        exported = grader("export", "--format", "json", "--out", str(out), cwd=term.work)
        assert exported.code == 0
        data = json.loads(out.read_text())
        assert [e["id"] for e in data["exercises"]] == list(EXERCISES)
        student = next(s for s in data["students"] if s["student"] == prose)
        cell = student["results"]["EX-11-02"]
        assert (cell["final_score"], cell["reviewed"], cell["status"]) == (1.5, True, "reviewed")
        assert cell["graded_status"] == "needs_review"
        assert student["total"] == 1.5
        csv_rows = grader("export", cwd=term.work).stdout.splitlines()
        assert any(line.startswith(f"{prose},,1.5,") for line in csv_rows)
    finally:
        with Gradebook(term.url) as book, book.engine.begin() as connection:
            from sqlalchemy import delete

            from grader.instructor.gradebook.models import Review

            connection.execute(delete(Review))


def test_feedback_pages_escape_the_students_script(term: Term, tmp_path: Path) -> None:
    out = tmp_path / "feedback"
    done = grader("feedback", "--out", str(out), "--lang", "en", cwd=term.work)
    assert done.code == 0, done.stderr
    pages = {p.stem for p in out.glob("*.html")}
    assert pages - {ABSENT} == {student for student, _ in results_of(term)}
    prose = next(m.student for m in term.members if m.profile == "prose_script")
    page = (out / f"{prose}.html").read_text()
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower() and "http" not in page.replace("http-equiv", "")
    broken = next(m.student for m in term.members if m.profile == "zip_dotdot")
    assert "unsafe path" in (out / f"{broken}.html").read_text()
    zh = grader("feedback", "--out", str(tmp_path / "zh"), "--lang", "zh", cwd=term.work)
    assert zh.code == 0 and "的反馈" in (tmp_path / "zh" / f"{prose}.html").read_text()


def test_stats_report_pass_shares_and_surviving_mutants(term: Term) -> None:
    done = grader("stats", "--json", cwd=term.work)
    assert done.code == 0
    stats = {item["exercise"]: item for item in done.json()["exercises"]}
    expected = expected_profiles()
    # handed in: neither missing nor to be re-submitted (code that does not parse counts)
    mine = {m.student: expected[m.profile]["EX-11-01"] for m in term.members}
    handed = [
        student
        for student, want in mine.items()
        if want["status"] != "missing" and want.get("reason", "error.syntax") == "error.syntax"
    ]
    passing = [student for student in handed if mine[student]["status"] == "passed"]
    # of the extra students, the copy and the forged manifest hand in a reference solution;
    # the folder-and-zip clash and the crashing zips are to be re-submitted
    results = results_of(term)
    assert {results[(s, "EX-11-01")].status for s in (COPIER, FORGER)} == {"passed"}
    handed += [COPIER, FORGER]
    passing += [COPIER, FORGER]
    ex = stats["EX-11-01"]
    assert (ex["handed_in"], ex["passed"]) == (len(handed), len(passing))
    assert ex["passed_share"] == round(len(passing) / len(handed), 4)
    assert stats["EX-12-02"]["passed"] == 0  # prose is never "passed" before review
    assert stats["EX-12-02"]["passed_of"] == 0 and stats["EX-12-02"]["waiting"] > 0
    # the mutant prints_only.py lets through, recomputed from the rows themselves: the share
    # is over the probes judged against it (not starters, not unreadable files)
    rows = [
        r for r in results.values() if r.exercise == "EX-11-01" and "retries_any_error" in r.mutants
    ]
    name = "mutant:retries_any_error"
    ran = [r for r in rows if any(c.name == name and evaluated(c) for c in r.checks)]
    survived = sum(1 for r in ran if not r.mutants["retries_any_error"])
    assert 0 < survived < len(ran) < len(rows) < len(handed)  # crashes: handed in, not run
    mutant = ex["mutants"]["retries_any_error"]
    assert (mutant["survived"], mutant["evaluated"], mutant["handed_in"]) == (
        survived,
        len(ran),
        len(rows),
    )
    assert 0 < mutant["share"] < 1
    text = grader("stats", "--lang", "en", cwd=term.work).stdout
    assert "survived in" in text and "EX-11-01" in text
