"""``grader release``: the student copy of the course, without anything that gives an answer.

The copy is made **by inclusion**: only what ``SHIPPED`` names goes in, so a new file or
folder in the course stays out until someone decides it is for students. What goes in: the
lessons (with their captures), every exercise statement with a fresh starter (written from
the grader's starter templates, never copied from ``exercises/``, where an instructor may
have solved them), ``ticketflow`` and the lab harness, the student side of the grader
(``check``, ``list``, ``submit``, the notebook API, the judge, the runner), ``README.md``,
``Makefile`` and ``pyproject.toml``. What stays out, and why, is written to
``RELEASE-MANIFEST.json`` in the copy.

Files are copied as they are: nothing is rewritten. Two parts of ``grader/`` never ship: the
instructor wing (``grader/instructor/``: grading a class, the gradebook, the review page,
the integrity detector and its thresholds), whose commands the copy's ``grader`` then does
not list; and the answer key, ``grader/private/``, each prose exercise's rubric (patterns
and concept summaries): there a prose answer is checked for length and then waits for the
instructor ("needs_review"; ``grader.judge.exercises.answer_key``).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError

#: Everything the copy holds besides ``exercises/`` (written apart): copied as they are
#: (folders recursively), relative to the course root. The grader's student side only.
SHIPPED = (
    "README.md",
    "Makefile",
    "pyproject.toml",
    "lessons",
    "src/ticketflow",
    "src/ticketflow_lab",
    "grader/__init__.py",
    "grader/__main__.py",
    "grader/errors.py",
    "grader/README.md",
    "grader/frontends",
    "grader/app",
    "grader/render",
    "grader/judge",
    "grader/proxy",
    "grader/variants",
    "grader/runner",
)
#: Why an entry that is not shipped stays out, as the manifest says (anything else: "not
#: part of the student copy").
LEFT_OUT_REASONS = {
    "solutions": "reference solutions",
    "tests": "the test suite: reference probes, expected outputs, the hostile corpus",
    "benchmarks": "instructor tooling",
    ".grader": "a local verdict cache",
    ".git": "history: holds every version of every file, solutions included",
    "grader/private": "the answer key: prose rubric patterns and concept summaries",
    "grader/instructor": (
        "the instructor wing: grading a class, the gradebook, the review page, the"
        " integrity detector and its thresholds"
    ),
}
MANIFEST = "RELEASE-MANIFEST.json"
NOTE = "STUDENT-COPY.md"
#: Caches, never copied from inside a shipped folder.
_NEVER_COPIED = (
    "__pycache__",
    ".grader",
    ".ipynb_checkpoints",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
)


@dataclass(frozen=True)
class Entry:
    path: str
    reason: str


@dataclass(frozen=True)
class Release:
    out: Path
    files: tuple[str, ...]
    left_out: tuple[Entry, ...]


Progress = Callable[[str, Mapping[str, str]], None]


def build_release(root: Path, out: Path, progress: Progress | None = None) -> Release:
    """Write the student copy of the course at ``root`` into ``out`` (new or empty).

    ``progress(message_id, params)`` is told each step (a catalogue message).
    """
    say = progress or (lambda _id, _params: None)
    root = root.resolve()
    out = out.resolve()
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise UsageError("error.release_out_not_empty", out=str(out))
    if out == root or root in out.parents:
        raise UsageError("error.release_out_inside", out=str(out), root=str(root))
    out.mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    for name in SHIPPED:
        say("release.step.copy", {"name": name})
        files += _copy(root, out, name)
    files.append(_write_note(out))
    say("release.step.exercises", {})
    files += _write_exercises(root, out)
    left_out = _left_out(root)
    release = Release(out, tuple(sorted(set(files))), left_out)
    (out / MANIFEST).write_text(_manifest(release), encoding="utf-8")
    return release


def _copy(root: Path, out: Path, name: str) -> list[str]:
    source = root / name
    if source.is_file():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, out / name)
        return [name]
    copied = []
    for path in _walk(source, root):
        relative = path.relative_to(root).as_posix()
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        copied.append(relative)
    return copied


def _write_note(out: Path) -> str:
    """A new file saying what this copy is (the README itself is copied as it is)."""
    (out / NOTE).write_text(
        "# Student copy\n\n"
        "Built by `grader release`: the reference solutions, the tests, the prose rubrics\n"
        "(the answer key, `grader/private/`) and the instructor's tools (`grader/instructor/`:\n"
        "`grader grade`, `review`, `export`, ...) are not included, so `grader --help` lists\n"
        f"only `check`, `list` and `submit`; `{MANIFEST}` lists every file and everything left\n"
        "out. Where README.md mentions them, it describes the instructors' repository.\n",
        encoding="utf-8",
    )
    return NOTE


def _walk(folder: Path, root: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if any(part in _NEVER_COPIED for part in path.parts) or path.suffix == ".pyc":
            continue
        if path.is_file() and not path.is_symlink():
            yield path


def _write_exercises(root: Path, out: Path) -> list[str]:
    from grader.judge.exercises import exercise_ids, get_exercise
    from grader.judge.starters import starter_template

    written = []
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        folder = out / "exercises" / exercise_id
        folder.mkdir(parents=True, exist_ok=True)
        statement = root / "exercises" / exercise_id / "README.md"
        shutil.copy2(statement, folder / "README.md")
        (folder / exercise.student_file).write_text(starter_template(exercise_id), encoding="utf-8")
        written += [
            f"exercises/{exercise_id}/README.md",
            f"exercises/{exercise_id}/{exercise.student_file}",
        ]
    return written


def _left_out(root: Path) -> tuple[Entry, ...]:
    """Every entry of the course that is not shipped, down to the folders that hold a
    shipped part (``src/``, ``grader/``), each with its reason."""
    shipped = {*SHIPPED, "exercises"}
    holding = {"/".join(name.split("/")[:depth]) for name in shipped for depth in (1, 2)}
    entries = []
    pending = [root]
    while pending:
        for path in sorted(pending.pop(0).iterdir()):
            relative = path.relative_to(root).as_posix()
            if relative in shipped or ("/" in relative and path.name in _NEVER_COPIED):
                continue
            if relative in holding and path.is_dir():
                pending.append(path)
                continue
            reason = LEFT_OUT_REASONS.get(relative, "not part of the student copy")
            entries.append(Entry(relative, reason))
    entries.append(Entry(f"{{{','.join(_NEVER_COPIED)}}}, *.pyc", "caches, rebuilt when used"))
    entries.append(Entry("exercises/*/<student file>", "replaced by the untouched starter"))
    return tuple(entries)


def _manifest(release: Release) -> str:
    data = {
        "what": "student copy built by `grader release`",
        "files": list(release.files),
        "left_out": [{"path": e.path, "reason": e.reason} for e in release.left_out],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
