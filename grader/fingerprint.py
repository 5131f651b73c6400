"""The verdict fingerprint: changes whenever anything that can change a verdict changes.

Fail-safe by construction: it covers EVERY file of the grader package except an explicit
list of presentation-only modules (a new module counts until someone argues it away), the
installed ``ticketflow`` package (the code under test), and the exercise's own files (its
spec module, its target's stand-ins file and real module, wherever they live). The verdict
cache (``grader.cache``) and the gradebook key their entries on it.

Content, not modification times, decides, and it is re-read on every call (about 0.3 MB,
a few milliseconds): a long-lived kernel or worker never serves a verdict from before an
edit, however quickly the edit followed.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.exercises.spec import Exercise

GRADER_DIR = Path(__file__).resolve().parent

#: Paths under grader/ that only present a verdict (words, layout, front ends), never make
#: one. Everything else in grader/ is part of the fingerprint.
PRESENTATION_ONLY = (
    "README.md",
    "__main__.py",
    "cli.py",
    "commands",
    "message.py",
    "notebook.py",
    "render",
)
_SKIPPED_PARTS = ("__pycache__",)
_SKIPPED_SUFFIXES = (".pyc", ".pyo")


def verdict_fingerprint(exercise: Exercise | None = None) -> str:
    """A hex digest of the grader (minus presentation), ticketflow and ``exercise``'s files."""
    digest = hashlib.sha256()
    for label, path in _files(exercise):
        digest.update(label.encode("utf-8") + b"\0" + _file_digest(path) + b"\0")
    return digest.hexdigest()


def verdict_files(exercise: Exercise | None = None) -> list[Path]:
    """Every file the fingerprint covers (for tests and for explaining a cache miss)."""
    return [path for _, path in _files(exercise)]


def _files(exercise: Exercise | None) -> list[tuple[str, Path]]:
    files = [(f"grader/{p.relative_to(GRADER_DIR)}", p) for p in _tree(GRADER_DIR)]
    files = [(label, p) for label, p in files if not _presentation(p)]
    ticketflow = _package_dir("ticketflow")
    if ticketflow is not None:
        files += [(f"ticketflow/{p.relative_to(ticketflow)}", p) for p in _tree(ticketflow)]
    known = {p for _, p in files}
    for path in _exercise_files(exercise):
        if path not in known:
            files.append((f"exercise/{path.name}", path))
            known.add(path)
    return files


def _presentation(path: Path) -> bool:
    first = path.relative_to(GRADER_DIR).parts[0]
    return first in PRESENTATION_ONLY


def _tree(folder: Path) -> list[Path]:
    found = []
    for directory, subdirs, names in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if d not in _SKIPPED_PARTS)
        found += [Path(directory) / n for n in sorted(names) if not n.endswith(_SKIPPED_SUFFIXES)]
    return found


def _exercise_files(exercise: Exercise | None) -> list[Path]:
    if exercise is None:
        return []
    from grader.exercises import module_file

    files = [module_file(exercise.id)]
    if exercise.kind == "code":
        target = exercise.function_under_test
        files.append(target.stand_ins.resolve())
        origin = _module_origin(target.module)
        if origin is not None:
            files.append(origin)
    return [p for p in files if p is not None]


def _module_origin(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    return Path(spec.origin).resolve()


def _package_dir(name: str) -> Path | None:
    origin = _module_origin(name)
    return None if origin is None else origin.parent


def _file_digest(path: Path) -> bytes:
    """The file's SHA-256 (b"unreadable" if it cannot be read: that too is a change)."""
    try:
        return hashlib.sha256(path.read_bytes()).digest()
    except OSError:
        return b"unreadable"
