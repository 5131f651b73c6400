"""The acceptance class of a real term, graded once per run (``term`` in conftest.py) and
read by ``test_grade_class`` (the class as a whole) and ``test_term_class`` (the term).

60+ students with a roster of Chinese names, the zips that used to crash the batch, a zip
copied from another student, a forged manifest, a folder and a zip with one id, late and
on-time work, an extension.
"""

from __future__ import annotations

import csv
import shutil
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from grader.instructor.gradebook import Gradebook, ResultView
from tests.e2e.batch_support import Ran, grader
from tests.support.classroom import (
    CRASHING_ZIPS,
    EXERCISES,
    Member,
    crashing_zip,
    make_class,
    reference_files,
    with_manifest,
    zip_bytes,
)

ZONE = ZoneInfo("Asia/Shanghai")
DUE = datetime(2026, 12, 7, 23, 59, tzinfo=ZONE)


def course_toml(*, no_credit_after_days: int | None = None) -> str:
    """A ``course.toml``: every exercise due at ``DUE``, 10 % off per started day late, at
    most 30 % (and nothing after ``no_credit_after_days``, when given)."""
    lines = ['timezone = "Asia/Shanghai"', "[due]"]
    lines += [f'"{e}" = "{DUE:%Y-%m-%dT%H:%M}"' for e in EXERCISES]
    lines += ["[late]", "penalty_per_day = 0.1", "max_penalty = 0.3"]
    if no_credit_after_days is not None:
        lines.append(f"no_credit_after_days = {no_credit_after_days}")
    return "\n".join(lines) + "\n"


COURSE = course_toml(no_credit_after_days=5)
#: student -> hours late (by --received-at), and the penalty the policy gives.
LATE = {"s000-reference": (30, 0.2), "s001-reference": (24 * 6, 1.0), "s002-reference": (10, 0.0)}
EXTENDED = "s002-reference"  # late by 10 h, but has an extension of 2 days
COPIER, ORIGINAL = "t-copier", "s015-reference-zip"
FORGER, FORGED_AS = "t-forger", "s016-reference-zip"
CLASH = "t-twice"
OFF_ROSTER = "s023-empty"
ABSENT = "t-absent"  # on the roster, hands in nothing
#: The student handing in each zip that used to crash the batch.
CRASHED = {kind: f"t-{kind.replace('_', '-')}" for kind in CRASHING_ZIPS}
#: The students besides the generated class who hand something in (in roster order).
EXTRAS = (*CRASHED.values(), COPIER, FORGER, CLASH)
#: The one ``grade`` command of the term (a re-run repeats it).
GRADE = ("grade", "submissions", "--received-at", "received.csv", "--course", "course.toml")
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


def grade_term(work: Path) -> Term:
    """Write the term into ``work`` (roster, course policy, receipt times, an extension) and
    grade it with one ``grader grade`` run."""
    folder = work / "submissions"
    database = work / "gradebook.db"
    members = make_class(folder, database)
    for kind, student in CRASHED.items():
        (folder / f"{student}.zip").write_bytes(crashing_zip(kind, student))
    shutil.copy(folder / f"{ORIGINAL}.zip", folder / f"{COPIER}.zip")  # byte for byte
    forged = with_manifest(FORGED_AS, reference_files(FORGER))  # own files, other's name
    (folder / f"{FORGER}.zip").write_bytes(zip_bytes(forged))
    (folder / CLASH).mkdir()
    (folder / f"{CLASH}.zip").write_bytes(zip_bytes(with_manifest(CLASH, reference_files(CLASH))))
    ids = [m.student for m in members if m.student != OFF_ROSTER]
    roster = _roster([*ids, *EXTRAS, ABSENT])
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
    ran = grader(*GRADE, "--jobs", "2", "--json", "--lang", "en", cwd=work)
    return Term(work, f"sqlite:///{database}", members, roster, ran)


def penalty(student: str) -> float:
    """The late penalty the course policy gives ``student`` (their extension included)."""
    return LATE[student][1] if student in LATE and student != EXTENDED else 0.0


def results(term: Term) -> dict[tuple[str, str], ResultView]:
    with Gradebook(term.url) as book:
        return {(r.student, r.exercise): r for r in book.results()}
