"""``grader release``: the student copy of the course, without anything that gives an answer.

What goes in: the lessons (with their captures), every exercise statement with a fresh
starter (written from the grader's starter templates, never copied from ``exercises/``,
where an instructor may have solved them), ``ticketflow`` and the lab harness, the grader,
``README.md``, ``Makefile`` and ``pyproject.toml``. What stays out, and why, is written to
``RELEASE-MANIFEST.json`` in the copy.

Two things inside the grader would give prose answers away, so the copy carries them
redacted: the prose rubrics (``grader/judge/exercises/ex_*`` of prose exercises: their patterns
spell out the expected points) become a rubric with no concept, so a prose answer is
still checked for length and then waits for the instructor ("needs_review"); and the
catalogues lose their ``concept.EX-…`` texts (a summary of each expected point).
"""

from __future__ import annotations

import ast
import json
import shutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from grader.errors import UsageError

#: Copied as they are (folders recursively), relative to the course root.
SHIPPED = (
    "README.md",
    "Makefile",
    "pyproject.toml",
    "lessons",
    "src/ticketflow",
    "src/ticketflow_lab",
    "grader",
)
#: Top-level entries left out on purpose, with the reason the manifest gives.
LEFT_OUT_REASONS = {
    "solutions": "reference solutions",
    "tests": "the test suite: reference probes, expected outputs, the hostile corpus",
    "benchmarks": "instructor tooling",
    ".grader": "a local verdict cache",
    ".git": "history: holds every version of every file, solutions included",
}
CATALOGUES = ("grader/render/messages_zh.py", "grader/render/messages_en.py")
REDACTED_KEY_PREFIX = "concept.EX-"
MANIFEST = "RELEASE-MANIFEST.json"
_NEVER_COPIED = ("__pycache__", ".ipynb_checkpoints", ".pytest_cache", ".mypy_cache")


@dataclass(frozen=True)
class Entry:
    path: str
    reason: str


@dataclass(frozen=True)
class Release:
    out: Path
    files: tuple[str, ...]
    left_out: tuple[Entry, ...]
    redacted: tuple[Entry, ...]


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
    _mark_readme(out / "README.md")
    say("release.step.exercises", {})
    files += _write_exercises(root, out)
    say("release.step.redact", {})
    redacted = _redact(out)
    left_out = _left_out(root)
    release = Release(out, tuple(sorted(set(files))), left_out, redacted)
    (out / MANIFEST).write_text(_manifest(release), encoding="utf-8")
    return release


def _copy(root: Path, out: Path, name: str) -> list[str]:
    source = root / name
    if source.is_file():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, out / name)
        return [name]
    copied = []
    for path in _walk(source):
        relative = path.relative_to(root).as_posix()
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        copied.append(relative)
    return copied


def _mark_readme(readme: Path) -> None:
    note = (
        "> **Student copy** built by `grader release`: the reference solutions, the tests and\n"
        f"> the prose rubrics are not included (see `{MANIFEST}`). Where this README mentions\n"
        "> them, it describes the instructors' repository.\n\n"
    )
    readme.write_text(note + readme.read_text(encoding="utf-8"), encoding="utf-8")


def _walk(folder: Path) -> Iterator[Path]:
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


def _redact(out: Path) -> tuple[Entry, ...]:
    from grader.judge.exercises import exercise_ids, get_exercise

    redacted = []
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        if exercise.kind != "prose":
            continue
        module = f"grader/judge/exercises/{exercise_id.lower().replace('-', '_')}.py"
        (out / module).write_text(
            _withheld_rubric(exercise_id, exercise.student_file, exercise.min_chars),
            encoding="utf-8",
        )
        redacted.append(Entry(module, "prose rubric withheld: its patterns state the answer"))
    for catalogue in CATALOGUES:
        path = out / catalogue
        path.write_text(_without_concepts(path.read_text(encoding="utf-8")), encoding="utf-8")
        redacted.append(Entry(catalogue, f"'{REDACTED_KEY_PREFIX}…' texts removed"))
    return tuple(redacted)


def _withheld_rubric(exercise_id: str, student_file: str, min_chars: int) -> str:
    return (
        f'"""{exercise_id} [prose]: the rubric is withheld in the student release.\n\n'
        "The answer is checked for length here; the instructor grades what it says.\n"
        '"""\n\n'
        "from __future__ import annotations\n\n"
        "from grader.judge.exercises.spec import ProseExercise\n\n"
        f"EXERCISE = ProseExercise(\n"
        f"    id={exercise_id!r}, student_file={student_file!r}, concepts=(), "
        f"min_chars={min_chars}\n)\n"
    )


def _without_concepts(source: str) -> str:
    """The catalogue without its ``concept.EX-…`` entries (one line, or a ``(…)`` block)."""
    kept: list[str] = []
    skipping_block = False
    for line in source.splitlines(keepends=True):
        if skipping_block:
            skipping_block = line.strip() != "),"
            continue
        if line.lstrip().startswith(f'"{REDACTED_KEY_PREFIX}'):
            skipping_block = line.rstrip().endswith("(")
            continue
        kept.append(line)
    text = "".join(kept)
    left = [key for key in _catalogue_keys(text) if key.startswith(REDACTED_KEY_PREFIX)]
    if left:  # a format this function does not know: refuse rather than ship the text
        raise UsageError("error.release_redaction", keys=", ".join(left))
    return text


def _catalogue_keys(text: str) -> list[str]:
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            return [str(k.value) for k in node.keys if isinstance(k, ast.Constant)]
    return []


def _left_out(root: Path) -> tuple[Entry, ...]:
    shipped_tops = {name.split("/")[0] for name in SHIPPED} | {"exercises"}
    entries = []
    for path in sorted(root.iterdir()):
        if path.name in shipped_tops:
            continue
        reason = LEFT_OUT_REASONS.get(path.name, "not part of the student copy")
        entries.append(Entry(path.name, reason))
    for path in sorted((root / "src").iterdir()) if (root / "src").is_dir() else []:
        if f"src/{path.name}" not in SHIPPED:
            entries.append(Entry(f"src/{path.name}", "not part of the student copy"))
    entries.append(Entry("exercises/*/<student file>", "replaced by the untouched starter"))
    return tuple(entries)


def _manifest(release: Release) -> str:
    data = {
        "what": "student copy built by `grader release`",
        "files": list(release.files),
        "left_out": [{"path": e.path, "reason": e.reason} for e in release.left_out],
        "redacted": [{"path": e.path, "reason": e.reason} for e in release.redacted],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
