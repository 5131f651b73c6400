"""The submissions folder: one folder or one .zip per student, named by the student id.

    SUBMISSIONS/
      alice/                            a folder named after the student id, or
        EX-11-01/retry_policy_probe.py  the exercise's conventional file (or a single .ipynb)
        EX-11-02/answer.md
      bob.zip                           a zip whose root holds the same EX-NN-MM/ folders

A folder and a zip with the same id are neither graded: that student is a ``clash`` source,
recorded as an ``error`` row per exercise saying so (the instructor keeps one of the two).
Listing the folder reads names and ``lstat`` only: the master process that calls this never
opens a submission. Anything that is not a valid student folder or zip is reported once, by
name, and skipped (a symbolic link included: it is neither).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from grader.app.handin import NOTEBOOK_SUFFIX, valid_student_id
from grader.errors import UsageError
from grader.judge.exercises.spec import Exercise

EXERCISE_FOLDER = re.compile(r"^EX-\d{2}-\d{2}$")
#: Entries of a course tree (the course copy given instead of SUBMISSIONS).
COURSE_MARKERS = ("exercises", "grader", "lessons", "pyproject.toml", "src")
ZIP_SUFFIX = ".zip"
#: Where ``grader inbox`` keeps every version of every hand-in; not a student, never listed.
VERSIONS_FOLDER = ".versions"


SourceKind = Literal["folder", "zip", "clash"]


@dataclass(frozen=True)
class StudentSource:
    student: str
    path: Path
    kind: SourceKind


@dataclass(frozen=True)
class Discovery:
    students: tuple[StudentSource, ...]
    #: Entry names that were skipped (each reported once).
    skipped: tuple[str, ...]


def discover(folder: Path) -> Discovery:
    """Every student in ``folder``, sorted by id; a missing folder is a usage error."""
    try:
        info = os.stat(folder)
    except OSError:
        raise UsageError("error.no_submissions_folder", path=str(folder)) from None
    if not stat.S_ISDIR(info.st_mode):
        raise UsageError("error.no_submissions_folder", path=str(folder))
    found: dict[str, StudentSource] = {}
    skipped: list[str] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.name == VERSIONS_FOLDER:
            continue
        source = _source(Path(entry.path), entry.name, entry.is_dir(follow_symlinks=False))
        if source is None:
            skipped.append(entry.name)
        elif source.student in found:  # a folder and a zip of one id: refuse both
            found[source.student] = StudentSource(source.student, folder, "clash")
        else:
            found[source.student] = source
    return Discovery(tuple(found[key] for key in sorted(found)), tuple(skipped))


def not_a_class(folder: Path) -> UsageError | None:
    """Why ``folder`` is not a class (the error to raise), or None: it holds exercise
    folders (one student's folder given instead of SUBMISSIONS), or it is a course tree
    (``pyproject.toml``, or two of ``exercises/``, ``grader/``, ``lessons/``, ``src/``)."""
    names = sorted(entry.name for entry in os.scandir(folder))
    exercises = [name for name in names if EXERCISE_FOLDER.fullmatch(name)]
    if exercises:
        return UsageError(
            "error.not_a_class_student", path=str(folder), found=", ".join(exercises[:4])
        )
    markers = [name for name in names if name in COURSE_MARKERS]
    if "pyproject.toml" in markers or len(markers) >= 2:
        return UsageError("error.not_a_class_course", path=str(folder), found=", ".join(markers))
    return None


def _source(path: Path, name: str, is_dir: bool) -> StudentSource | None:
    if is_dir:
        return StudentSource(name, path, "folder") if valid_student_id(name) else None
    if not name.endswith(ZIP_SUFFIX) or not stat.S_ISREG(os.lstat(path).st_mode):
        return None
    stem = name[: -len(ZIP_SUFFIX)]
    return StudentSource(stem, path, "zip") if valid_student_id(stem) else None


@dataclass(frozen=True)
class Located:
    """Where a student's answer to one exercise is: ``path``, or why there is none."""

    path: Path | None
    missing: bool = False
    problem_id: str | None = None
    problem_params: tuple[tuple[str, str], ...] = ()


def locate(student_root: Path, exercise: Exercise) -> Located:
    """``<root>/<EX-ID>/<conventional file>``, else the folder's single ``.ipynb``.

    An absent exercise folder is ``missing``; a folder with neither, or with several
    notebooks, is a problem naming what to hand in. Names only (``lstat``): reading, and
    refusing links, is ``load_submission``'s job.
    """
    folder = student_root / exercise.id
    if not _is_real_dir(folder):
        if os.path.lexists(folder):  # a link or a file where the folder should be
            return Located(folder / exercise.student_file)
        return Located(None, missing=True)
    conventional = folder / exercise.student_file
    if os.path.lexists(conventional):
        return Located(conventional)
    notebooks = sorted(p.name for p in folder.iterdir() if p.suffix.lower() == NOTEBOOK_SUFFIX)
    if len(notebooks) == 1:
        return Located(folder / notebooks[0])
    shown = f"{student_root.name}/{exercise.id}/"
    params: tuple[tuple[str, str], ...]
    if notebooks:
        files = ", ".join(notebooks[:5])
        params = (("folder", shown), ("files", files), ("file", exercise.student_file))
        return Located(None, problem_id="batch.exercise_ambiguous", problem_params=params)
    params = (("folder", shown), ("file", exercise.student_file))
    return Located(None, problem_id="batch.exercise_empty", problem_params=params)


def _is_real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False
