"""Editing a mutant re-grades exactly that exercise; editing a page or a message, nothing.

The batch keys every grading on the exercise's verdict fingerprint (by inclusion: the judging
packages, ticketflow, and the exercise's own files). The grader package is copied, the copy
edited, and the fingerprint pointed at it; the batch (forked workers inherit the pointer)
then grades again only what the edit can change.
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Any

import pytest

import grader.app.fingerprint as fingerprint
from grader.instructor.batch.run import GradeOptions, grade_class
from tests.e2e.batch_support import grading_keys
from tests.support.classroom import Member, build_member

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STUDENTS = ("reference", "reference_zip", "wrong:EX-11-01/wrong_policy.py")


class _Bar(contextlib.AbstractContextManager["_Bar"]):
    def __exit__(self, *exc: object) -> None:
        return None

    def advance(self, count: int = 1) -> None:
        return None


def grade(submissions: Path, db_url: str) -> dict[str, Any]:
    run = grade_class(
        GradeOptions(submissions, db_url=db_url, jobs=1),
        note=lambda message_id, params: None,
        progress=lambda total: _Bar(),
    )
    return dict(run.summary)


@pytest.fixture
def edited_copy(tmp_path: Path) -> Path:
    """A copy of the grader package to edit (the installed one is never touched)."""
    copy = tmp_path / "grader-copy"
    shutil.copytree(fingerprint.GRADER_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")


def test_an_edited_mutant_regrades_exactly_its_exercise(
    tmp_path: Path, edited_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submissions, gradebook = tmp_path / "submissions", tmp_path / "grades.db"
    submissions.mkdir()
    for index, profile in enumerate(STUDENTS):
        build_member(submissions, Member(f"s{index:02d}", profile), gradebook)
    url = f"sqlite:///{gradebook}"
    first = grade(submissions, url)
    assert first["graded"] == len(STUDENTS) * 6
    before = set(grading_keys(url))

    # presentation only: a review template, the CSV export, the release, a UI string
    _append(edited_copy / "instructor/review/templates/matrix.html.j2", "\n{# restyled #}\n")
    _append(edited_copy / "instructor/gradebook/export.py", "\n# columns reordered\n")
    _append(edited_copy / "instructor/release.py", "\n# release tweak\n")
    _append(edited_copy / "render/messages.py", "\n# reworded\n")
    monkeypatch.setattr(fingerprint, "GRADER_DIR", edited_copy)
    assert grade(submissions, url)["graded"] == 0
    assert set(grading_keys(url)) == before

    # EX-11-01's stand-ins: its gradings, and only its, are made again
    _append(edited_copy / "variants/policy.py", "\n# a mutant changed\n")
    again = grade(submissions, url)
    assert again["graded"] == len(STUDENTS)
    new = set(grading_keys(url)) - before
    assert {exercise for _, exercise, _, _ in new} == {"EX-11-01"}
    assert {student for student, _, _, _ in new} == {f"s{i:02d}" for i in range(len(STUDENTS))}
