"""Where the course is: the folder holding ``exercises/``, and the conventional file paths."""

from __future__ import annotations

from pathlib import Path

from grader.errors import CourseRootNotFound
from grader.exercises.spec import Exercise

EXERCISES_DIR = "exercises"
SOLUTIONS_DIR = "solutions"
CACHE_DIR = ".grader"


def find_course_root(explicit: Path | None = None, start: Path | None = None) -> Path:
    """``explicit`` if given (it must contain exercises/), else search upward from ``start``."""
    if explicit is not None:
        root = explicit.expanduser().resolve()
        if (root / EXERCISES_DIR).is_dir():
            return root
        raise CourseRootNotFound(start=str(root))
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / EXERCISES_DIR).is_dir():
            return candidate
    raise CourseRootNotFound(start=str(here))


def submission_path(root: Path, exercise: Exercise) -> Path:
    """Where the student's answer lives: exercises/<id>/<student_file>."""
    return root / EXERCISES_DIR / exercise.id / exercise.student_file


def hidden_paths(root: Path | None) -> tuple[Path, ...]:
    """What a student's run must not see: the grader (harness, mutants), solutions, tests.

    Only paths that exist at course level are listed, and the list does not depend on
    anything a check creates (``.grader/`` holds nothing secret), so a warm notebook keeps
    one fork server for every call.
    """
    import grader

    paths = [Path(grader.__file__).resolve().parent]
    if root is not None:
        for name in (SOLUTIONS_DIR, "tests"):
            candidate = root / name
            if candidate.exists():
                paths.append(candidate.resolve())
    return tuple(paths)
