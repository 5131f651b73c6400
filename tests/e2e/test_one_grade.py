"""One grade, one truth, through the README's commands: a class with a syntax-error probe,
a late correct probe, an undecided prose answer, a too-short prose answer and a corrupt zip.
The instructor decides the syntax-error row as 0 through the real review app (a form that
does not name its grading is refused first); then every view is read back: the review
matrix and queue, ``feedback``, ``stats --json`` and every export (canvas, moodle, csv,
json). Expected scores are computed here from the course policy, not by the grade function.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from grader.instructor.gradebook import Gradebook
from grader.judge.exercises import get_exercise
from tests.e2e.batch_support import Ran, grader
from tests.e2e.review_support import Server, review_server
from tests.e2e.term_support import DUE, course_toml
from tests.support.classroom import EXERCISES, Member, bad_archive, build_member

# one worker grades this module's class once (not once per xdist worker)
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.xdist_group("test_one_grade")]

COURSE = course_toml()
SYNTAX, LATE, PROSE, SHORT, CORRUPT = "s-syntax", "s-late", "s-prose", "s-short", "s-corrupt"
#: 30 hours late: two started days at 0.1 each.
LATE_HOURS, LATE_PENALTY = 30, 0.2
PROFILES = {SYNTAX: "syntax_error", LATE: "partial", PROSE: "prose_en", SHORT: "prose_short"}
#: What the rubric says to the reviewer (en): none of it may reach a student's page.
RUBRIC_NOTES = ("The rubric", "A note for the instructor", "the instructor should check")


@dataclass(frozen=True)
class Term:
    work: Path
    url: str
    grade: Ran


@pytest.fixture(scope="module")
def term(tmp_path_factory: pytest.TempPathFactory) -> Term:
    work = tmp_path_factory.mktemp("one-grade")
    folder = work / "submissions"
    database = work / "gradebook.db"
    folder.mkdir()
    for student, profile in PROFILES.items():
        build_member(folder, Member(student, profile), database)
    (folder / f"{CORRUPT}.zip").write_bytes(bad_archive("zip_corrupt", CORRUPT))
    students = [*PROFILES, CORRUPT]
    roster = ["id,name,email,sis_user_id,sis_login_id,section"] + [
        f"{s},学生{i},{s}@example.edu,U{i},{s},A" for i, s in enumerate(students)
    ]
    (work / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    (work / "course.toml").write_text(COURSE, encoding="utf-8")
    late_at = (DUE + timedelta(hours=LATE_HOURS)).isoformat()
    (work / "received.csv").write_text(
        f"student,exercise,time\n{LATE},all,{late_at}\n", encoding="utf-8"
    )
    imported = grader("roster", "import", "roster.csv", "--lang", "en", cwd=work)
    assert imported.code == 0, imported.stderr
    ran = grader(
        "grade", "submissions", "--jobs", "2", "--lang", "en",
        "--received-at", "received.csv", "--course", "course.toml", cwd=work,
    )  # fmt: skip
    assert ran.code == 0, ran.stderr
    return Term(work, f"sqlite:///{database}", ran)


@pytest.fixture(scope="module")
def server(term: Term) -> Iterator[Server]:
    with review_server(term.url, term.work) as running:
        yield running


@pytest.fixture(scope="module")
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base, follow_redirects=False, timeout=60) as client:
        signed_in = client.get(f"/?token={server.token}")
        assert signed_in.status_code in (200, 303), signed_in.text[:200]
        yield client


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, name
    return found.group(1)


@pytest.fixture(scope="module")
def decided(term: Term, server: Server, http: httpx.Client) -> Term:
    """The syntax-error row decided as 0 through the review app's form, as read."""
    page = http.get(f"/s/{SYNTAX}/EX-11-01").text
    form = {name: _hidden(page, name) for name in ("csrf_token", "grading", "version", "back")}
    form.update(score="0", comment="Does not parse: 0, as the syllabus says.")
    headers = {"origin": server.base}
    unbound = {k: v for k, v in form.items() if k != "grading"}
    refused = http.post(f"/decide/{SYNTAX}/EX-11-01", data=unbound, headers=headers)
    assert refused.status_code == 303 and "flash=" in refused.headers["location"]
    assert "does not name the grading" in http.get(refused.headers["location"]).text
    with Gradebook(term.url) as book:
        result = book.result(SYNTAX, "EX-11-01")
        assert result is not None and result.review is None  # nothing stored
    saved = http.post(f"/decide/{SYNTAX}/EX-11-01", data=form, headers=headers)
    assert saved.status_code == 303 and "saved=1" in saved.headers["location"], saved.text
    return term


def _max(exercise: str) -> float:
    return get_exercise(exercise).max_score


def _late_final() -> str:
    return f"{round(_max('EX-11-01') * (1 - LATE_PENALTY), 2):g}"


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def _exports(term: Term) -> dict[str, Any]:
    """Each export's cell of (student, exercise), as text ("" for an empty cell)."""
    cells: dict[str, Any] = {}
    canvas = grader("export", "--format", "canvas", "--lang", "en", cwd=term.work)
    assert canvas.code == 0, canvas.stderr
    rows = _csv(canvas.stdout)
    cells["canvas"] = {row[3]: dict(zip(rows[0][5:], row[5:], strict=True)) for row in rows[2:]}
    moodle = grader("export", "--format", "moodle", "--lang", "en", cwd=term.work)
    rows = _csv(moodle.stdout)
    cells["moodle"] = {
        row[0].split("@")[0]: dict(zip(rows[0][1:], row[1:], strict=True)) for row in rows[1:]
    }
    plain = grader("export", "--format", "csv", "--lang", "en", cwd=term.work)
    rows = _csv(plain.stdout)
    cells["csv"] = {row[0]: dict(zip(rows[0][1:-1], row[1:-1], strict=True)) for row in rows[2:]}
    data = json.loads(grader("export", "--format", "json", cwd=term.work).stdout)
    cells["json"] = {
        s["student"]: {
            e: "" if c["exported_score"] is None else f"{c['exported_score']:g}"
            for e, c in s["results"].items()
        }
        for s in data["students"]
    }
    cells["stderr"] = canvas.stderr
    cells["json_states"] = {
        (s["student"], e): c["state"] for s in data["students"] for e, c in s["results"].items()
    }
    return cells


@pytest.fixture(scope="module")
def exports(decided: Term) -> dict[str, Any]:
    return _exports(decided)


@pytest.fixture(scope="module")
def pages(decided: Term, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("feedback")
    ran = grader("feedback", "--out", str(out), "--lang", "en", cwd=decided.work)
    assert ran.code == 0, ran.stderr
    return {path.stem: path.read_text(encoding="utf-8") for path in out.glob("*.html")}


def _section(page: str, exercise: str) -> str:
    start = page.index(f'<section id="{exercise}"')
    return page[start : page.index("</section>", start)]


FORMATS = ("canvas", "moodle", "csv", "json")


def test_the_decided_syntax_error_is_zero_in_every_export(exports: dict[str, Any]) -> None:
    for name in FORMATS:
        assert exports[name][SYNTAX]["EX-11-01"] == "0", name
    assert exports["json_states"][(SYNTAX, "EX-11-01")] == "decided"


def test_the_late_probe_shows_one_penalised_score_everywhere(
    exports: dict[str, Any], pages: dict[str, str], http: httpx.Client, decided: Term
) -> None:
    final = _late_final()
    assert final != f"{_max('EX-11-01'):g}"  # the penalty really bites
    for name in FORMATS:
        assert exports[name][LATE]["EX-11-01"] == final, name
    section = _section(pages[LATE], "EX-11-01")
    assert f'data-score="{final}"' in section and f"{final} / {_max('EX-11-01'):g}" in section
    assert f"late penalty {LATE_PENALTY * 100:g}%" in section  # beside the raw score
    matrix = http.get("/").text
    row = matrix[matrix.index(f'data-student="{LATE}"') :]
    assert f'data-final="{final}"' in row[: row.index("</tr>")]
    submission = http.get(f"/s/{LATE}/EX-11-01").text
    assert f'data-final="{final}"' in submission and 'id="penalty">20%' in submission
    stats = grader("stats", "--json", cwd=decided.work)
    assert stats.code == 0, stats.stderr
    grade = stats.json()["grades"][LATE]["EX-11-01"]
    assert (grade["final_score"], grade["penalty"]) == (float(final), LATE_PENALTY)


def test_the_undecided_prose_answer_is_blank_for_the_lms_and_awaiting_for_the_student(
    exports: dict[str, Any], pages: dict[str, str]
) -> None:
    for name in ("canvas", "moodle", "csv", "json"):
        assert exports[name][PROSE]["EX-11-02"] == "", name
    assert "still await the instructor and were exported EMPTY" in exports["stderr"]
    assert "awaiting the instructor" in _section(pages[PROSE], "EX-11-02")


def test_the_too_short_answer_waits_in_the_queue(http: httpx.Client, decided: Term) -> None:
    item = http.get(f"/queue/{SHORT}/EX-11-02")
    assert item.status_code == 200  # a queue item, not a 404
    assert 'id="too-short"' in item.text
    with Gradebook(decided.url) as book:
        assert (SHORT, "EX-11-02") in {(r.student, r.exercise) for r in book.review_queue()}


def test_the_corrupt_zip_needs_resubmission_everywhere(
    exports: dict[str, Any], pages: dict[str, str], http: httpx.Client, decided: Term
) -> None:
    for exercise in EXERCISES:
        for name in FORMATS:
            assert exports[name][CORRUPT][exercise] == "", (name, exercise)
        assert exports["json_states"][(CORRUPT, exercise)] == "needs_resubmission"
        assert "Needs re-submission" in _section(pages[CORRUPT], exercise)
    assert f"{CORRUPT} EX-11-01" in exports["stderr"] and "need re-submission" in exports["stderr"]
    matrix = http.get("/").text
    row = matrix[matrix.index(f'data-student="{CORRUPT}"') :]
    assert row[: row.index("</tr>")].count("st-resubmit") == len(EXERCISES)
    stats = grader("stats", "--json", cwd=decided.work).json()
    assert {g["state"] for g in stats["grades"][CORRUPT].values()} == {"needs_resubmission"}
    assert CORRUPT not in stats["stray_ids"]  # on the roster: a student, not a stray id


def test_no_feedback_page_carries_a_rubric_note(
    pages: dict[str, str], decided: Term, tmp_path: Path
) -> None:
    everything = tmp_path / "all"
    ran = grader("feedback", "--out", str(everything), "--all", "--lang", "en", cwd=decided.work)
    assert ran.code == 0, ran.stderr
    written = [*pages.values(), *(p.read_text("utf-8") for p in everything.glob("*.html"))]
    assert len(written) == 2 * 5
    for page in written:
        for note in RUBRIC_NOTES:
            assert note not in page
