"""``grader grade`` on a generated class of 62 students, then export, feedback and stats.

The class (tests/support/classroom.py) mixes reference and wrong solutions, untouched
starters, missing exercises, crashing/hanging/memory-bombing code, prose, notebooks, a
probe that snoops for other students' work, and each bad archive; every gradebook row is
checked against tests/e2e/files/class/expected.json.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook, ResultView
from grader.instructor.gradebook.stats import evaluated
from grader.judge.exercises import get_exercise
from tests.e2e.batch_support import Ran, expected_profiles, grader, row_problems
from tests.support.classroom import EXERCISES, NOT_STUDENTS, SCRIPT, Member, make_class

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_grade_class")]


@dataclass(frozen=True)
class Graded:
    folder: Path
    work: Path
    url: str
    members: list[Member]
    first: Ran


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    work = tmp_path_factory.mktemp("class")
    database = work / "gradebook.db"
    members = make_class(work / "submissions", database)
    first = grader("grade", "submissions", "--jobs", "2", "--json", "--lang", "en", cwd=work)
    return Graded(work / "submissions", work, f"sqlite:///{database}", members, first)


def _results(graded: Graded) -> dict[tuple[str, str], ResultView]:
    with Gradebook(graded.url) as book:
        return {(r.student, r.exercise): r for r in book.results()}


def test_the_class_is_big_enough_and_mixed(graded: Graded) -> None:
    profiles = Counter(member.profile.split(":")[0] for member in graded.members)
    assert len(graded.members) >= 60
    for needed in ("reference", "wrong", "starter", "crash", "hang", "memory_bomb", "notebook"):
        assert profiles[needed] >= 1, needed


def test_every_gradebook_row_matches_the_expected_outcome(graded: Graded) -> None:
    assert graded.first.code == 0, graded.first.stderr
    results = _results(graded)
    problems = row_problems(graded.members, results, expected_profiles())
    assert not problems, "\n".join(problems)
    assert len(results) == len(graded.members) * len(EXERCISES)  # nothing else recorded


def test_summary_counts_every_grading_and_names_skipped_entries(graded: Graded) -> None:
    summary = graded.first.json()
    total = len(graded.members) * len(EXERCISES)
    assert set(summary) == {
        "graded", "unchanged", "passed", "failed", "needs_review", "reviewed", "errors",
        "missing", "seconds",
    }  # fmt: skip
    assert (summary["graded"], summary["unchanged"]) == (total, 0)
    statuses = Counter(r.status for r in _results(graded).values())
    assert summary["passed"] == statuses["passed"] and summary["errors"] == statuses["error"]
    assert summary["missing"] == statuses["missing"]
    assert (
        sum(summary[k] for k in ("passed", "failed", "needs_review", "errors", "missing")) == total
    )
    assert summary["reviewed"] == 0  # nothing decided yet
    for name in NOT_STUDENTS:
        assert graded.first.stderr.count(f"Skipped {name}:") == 1, name


def test_graded_rows_are_official_and_nothing_escaped_the_archives(graded: Graded) -> None:
    results = _results(graded).values()
    assert not any(r.weak_isolation for r in results)
    ran = [r for r in results if r.kind == "code" and r.status in ("passed", "failed")]
    assert {r.isolation for r in ran} - {None} == {"namespaces"}  # None: nothing ran (starter)
    assert not (graded.work / "escaped").exists() and not Path("/tmp/escaped-absolute.py").exists()


def test_rerunning_an_unchanged_class_grades_nothing(graded: Graded) -> None:
    again = grader("grade", "submissions", "--json", cwd=graded.work)
    assert again.code == 0, again.stderr
    summary = again.json()
    assert summary["graded"] == 0
    assert summary["unchanged"] == len(graded.members) * len(EXERCISES)


def test_export_csv_parses_back_to_the_gradebook(graded: Graded) -> None:
    exported = grader("export", "--format", "csv", "--lang", "en", cwd=graded.work)
    assert exported.code == 0
    assert exported.stdout.startswith("\ufeff")  # UTF-8 with a BOM, for spreadsheets
    rows = list(csv.reader(io.StringIO(exported.stdout.removeprefix("\ufeff"))))
    assert rows[0] == ["student", *EXERCISES, "total"]
    maxima = [get_exercise(exercise).max_score for exercise in EXERCISES]  # from the specs
    assert rows[1] == ["Points Possible", *(f"{m:g}" for m in maxima), f"{sum(maxima):g}"]
    results = _results(graded)
    by_student = {row[0]: row[1:] for row in rows[2:]}
    assert set(by_student) == {m.student for m in graded.members}
    for (student, exercise), result in results.items():
        cell = by_student[student][EXERCISES.index(exercise)]
        # an unreadable hand-in is empty (never a 0), code that does not parse is 0, an
        # answer awaiting the instructor is empty, the rest their automatic score
        if result.status == "missing" or result.grade.state.value in (
            "needs_resubmission",
            "awaiting_review",
        ):
            want = ""
        else:
            want = "0" if result.status == "error" else f"{result.score:g}"
        assert cell == want, (student, exercise)
    waiting = sum(1 for r in results.values() if r.grade.state.value == "awaiting_review")
    assert f"{waiting} prose answer(s) still await the instructor" in exported.stderr


def test_export_json_and_final_scores(graded: Graded, tmp_path: Path) -> None:
    prose = next(m.student for m in graded.members if m.profile == "prose_script")
    with Gradebook(graded.url) as book:
        book.set_review(prose, "EX-11-02", final_score=1.5, comment="see me", reviewer="prof")
    try:
        out = tmp_path / "grades.json"
        exported = grader("export", "--format", "json", "--out", str(out), cwd=graded.work)
        assert exported.code == 0
        data = json.loads(out.read_text())
        assert [e["id"] for e in data["exercises"]] == list(EXERCISES)
        student = next(s for s in data["students"] if s["student"] == prose)
        cell = student["results"]["EX-11-02"]
        assert (cell["final_score"], cell["reviewed"], cell["status"]) == (1.5, True, "reviewed")
        assert cell["graded_status"] == "needs_review"
        assert student["total"] == 1.5
        csv_rows = grader("export", cwd=graded.work).stdout.splitlines()
        assert any(line.startswith(f"{prose},,1.5,") for line in csv_rows)
    finally:
        with Gradebook(graded.url) as book, book.engine.begin() as connection:
            from sqlalchemy import delete

            from grader.instructor.gradebook.models import Review

            connection.execute(delete(Review))


def test_feedback_pages_escape_the_students_script(graded: Graded, tmp_path: Path) -> None:
    out = tmp_path / "feedback"
    done = grader("feedback", "--out", str(out), "--lang", "en", cwd=graded.work)
    assert done.code == 0, done.stderr
    pages = sorted(p.stem for p in out.glob("*.html"))
    assert pages == sorted(m.student for m in graded.members)
    prose = next(m.student for m in graded.members if m.profile == "prose_script")
    page = (out / f"{prose}.html").read_text()
    assert SCRIPT not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower() and "http" not in page.replace("http-equiv", "")
    broken = next(m.student for m in graded.members if m.profile == "zip_dotdot")
    assert "unsafe path" in (out / f"{broken}.html").read_text()
    zh = grader("feedback", "--out", str(tmp_path / "zh"), "--lang", "zh", cwd=graded.work)
    assert zh.code == 0 and "的反馈" in (tmp_path / "zh" / f"{prose}.html").read_text()


def test_stats_report_pass_shares_and_surviving_mutants(graded: Graded) -> None:
    done = grader("stats", "--json", cwd=graded.work)
    assert done.code == 0
    stats = {item["exercise"]: item for item in done.json()["exercises"]}
    expected = expected_profiles()
    # handed in: neither missing nor to be re-submitted (code that does not parse counts)
    handed = [
        m
        for m in graded.members
        if expected[m.profile]["EX-11-01"]["status"] != "missing"
        and expected[m.profile]["EX-11-01"].get("reason", "error.syntax") == "error.syntax"
    ]
    passing = [m for m in handed if expected[m.profile]["EX-11-01"]["status"] == "passed"]
    ex = stats["EX-11-01"]
    assert (ex["handed_in"], ex["passed"]) == (len(handed), len(passing))
    assert ex["passed_share"] == round(len(passing) / len(handed), 4)
    assert stats["EX-12-02"]["passed"] == 0  # prose is never "passed" before review
    assert stats["EX-12-02"]["passed_of"] == 0 and stats["EX-12-02"]["waiting"] > 0
    # the mutant prints_only.py lets through, recomputed from the rows themselves: the share
    # is over the probes judged against it (not starters, not unreadable files)
    results = [r for r in _results(graded).values() if r.exercise == "EX-11-01"]
    rows = [r for r in results if "retries_any_error" in r.mutants]
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
    text = grader("stats", "--lang", "en", cwd=graded.work).stdout
    assert "survived in" in text and "EX-11-01" in text
