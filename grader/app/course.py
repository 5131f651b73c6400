"""Where the course is: the folder holding ``exercises/``, and the conventional file paths."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from grader.errors import CourseRootNotFound
from grader.judge.exercises.spec import Exercise

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


#: Folders of a course tree that a student's run never needs and must not read: reference
#: solutions, tests (wrong probes, hostile corpus), the result cache, git history (it holds
#: every source file), other answers, lesson material. Listed whether or not they exist yet
#: (the runner skips missing ones), so the list never changes between calls.
#: The installed ``grader`` package folder (this file is ``grader/app/course.py``).
GRADER_PACKAGE = Path(__file__).resolve().parents[1]
SECRET_DIRS = (SOLUTIONS_DIR, "tests", CACHE_DIR, ".git", EXERCISES_DIR, "lessons", "benchmarks")


def installed_tree() -> Path:
    """The course tree this grader is installed in (the folder holding ``grader/``)."""
    return GRADER_PACKAGE.parent


def hidden_paths(root: Path | None) -> tuple[Path, ...]:
    """What a student's run must not see.

    The grader package (the proxy, exercise specs), ticketflow's source files (a run must not
    load a fresh, unpatched copy of the code under test as an oracle: the modules a probe
    needs are preloaded, in memory), and ``SECRET_DIRS`` of both the installed course tree
    and ``root`` (a grading machine may check a student's copy with ``--root``: the
    installed tree's solutions must stay hidden regardless). A path the interpreter needs
    (the venv, a ``sys.path`` entry) is never hidden.
    """
    paths = [GRADER_PACKAGE]
    for name in ("ticketflow", "ticketflow_lab"):  # the lab moved out of ticketflow: still hidden
        package = _package_dir(name)
        if package is not None:
            paths.append(package)
    bases = [installed_tree()]
    if root is not None and root.resolve() not in bases:
        bases.append(root.resolve())
    if any(_looks_like_course(base) for base in bases[:1]):
        paths += [bases[0] / name for name in SECRET_DIRS]
    paths += [base / name for base in bases[1:] for name in SECRET_DIRS]
    needed = _needed()
    return tuple(dict.fromkeys(p for p in paths if not any(_inside(n, p) for n in needed)))


def _looks_like_course(folder: Path) -> bool:
    """An installed tree with the grader next to exercises/ (not, say, site-packages)."""
    return (folder / EXERCISES_DIR).is_dir() or (folder / SOLUTIONS_DIR).is_dir()


def _package_dir(name: str) -> Path | None:
    from importlib.util import find_spec

    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).resolve().parent


def _needed() -> list[Path]:
    """The interpreter's own folders: hiding one of them (or a parent) breaks every run."""
    cwd = os.getcwd()  # never passed on to the sandbox by the runner, so not needed there
    entries = [sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(sys.executable).parent)]
    entries += [e for e in sys.path if e and os.path.isabs(e) and os.path.normpath(e) != cwd]
    return [Path(entry).resolve() for entry in entries]


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents
