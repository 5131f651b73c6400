"""The verdict fingerprint: changes whenever anything that can change a verdict changes.

By inclusion: it hashes exactly the packages that decide a verdict (``VERDICT_PACKAGES``:
``judge/``, ``proxy/``, ``variants/``, ``runner/``), the installed ``ticketflow`` package (the
code under test), and the exercise's own files (its spec module, its target's stand-ins file
and real module, its answer key ``grader/private/<id>.toml``). Front ends, rendering,
instructor tools and this ``app/`` layer only present or record verdicts, so editing them
re-grades nothing; nor do the ``*.texts.toml`` beside exercises and stand-ins (titles and
descriptions, ``grader.judge.texts``). The verdict
cache (``grader.app.cache``) and the gradebook key their entries on it.

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

from grader.judge.texts import TEXTS_SUFFIX

if TYPE_CHECKING:
    from grader.judge.exercises.spec import Exercise

#: The grader package whose files are hashed (a test may point it at a copy of the package).
GRADER_DIR = Path(__file__).resolve().parents[1]
_INSTALLED = GRADER_DIR

#: The grader's packages whose code can change a verdict; nothing else of grader/ counts.
VERDICT_PACKAGES = ("judge", "proxy", "variants", "runner")
_SKIPPED_PARTS = ("__pycache__",)
_SKIPPED_SUFFIXES = (".pyc", ".pyo", TEXTS_SUFFIX)


def verdict_fingerprint(exercise: Exercise | None = None) -> str:
    """A hex digest of the verdict packages, ticketflow and ``exercise``'s own files."""
    digest = hashlib.sha256()
    for label, path in _files(exercise):
        digest.update(label.encode("utf-8") + b"\0" + _file_digest(path) + b"\0")
    return digest.hexdigest()


def verdict_files(exercise: Exercise | None = None) -> list[Path]:
    """Every file the fingerprint covers (for tests and for explaining a cache miss)."""
    return [path for _, path in _files(exercise)]


def _files(exercise: Exercise | None) -> list[tuple[str, Path]]:
    own = _per_exercise_files()
    files = [
        (f"grader/{p.relative_to(GRADER_DIR).as_posix()}", p)
        for package in VERDICT_PACKAGES
        for p in _tree(GRADER_DIR / package)
        if p.relative_to(GRADER_DIR).as_posix() not in own
    ]
    ticketflow = _package_dir("ticketflow")
    if ticketflow is not None:
        files += [(f"ticketflow/{p.relative_to(ticketflow)}", p) for p in _tree(ticketflow)]
    known = {p for _, p in files}
    for path in _exercise_files(exercise):
        if path not in known:
            files.append((f"exercise/{path.name}", path))
            known.add(path)
    return files


def _per_exercise_files() -> set[str]:
    """Files that count only for their own exercise: spec modules and stand-ins files.

    Editing EX-12-01's mutants changes EX-12-01's fingerprint (and that of any exercise
    judged against the same target), never EX-11-01's, so a batch re-grades only those.
    """
    from grader.judge.exercises import exercise_ids, module_file
    from grader.variants.targets import TARGETS

    specs = {module_file(exercise_id) for exercise_id in exercise_ids()}
    stand_ins = {target.stand_ins.resolve() for target in TARGETS.values()}
    paths = {path for path in specs | stand_ins if path is not None}
    return {p.relative_to(_INSTALLED).as_posix() for p in paths if _INSTALLED in p.parents}


def _tree(folder: Path) -> list[Path]:
    found = []
    for directory, subdirs, names in os.walk(folder):
        subdirs[:] = sorted(d for d in subdirs if d not in _SKIPPED_PARTS)
        found += [Path(directory) / n for n in sorted(names) if not n.endswith(_SKIPPED_SUFFIXES)]
    return found


def _exercise_files(exercise: Exercise | None) -> list[Path]:
    if exercise is None:
        return []
    from grader.judge.exercises import module_file
    from grader.judge.exercises.answer_key import answer_key_file

    files = [module_file(exercise.id)]
    if exercise.kind == "prose":
        files.append(answer_key_file(exercise.id))
    if exercise.kind == "code":
        target = exercise.function_under_test
        files.append(target.stand_ins.resolve())
        origin = _module_origin(target.module)
        if origin is not None:
            files.append(origin)
    return [_in_grader_dir(p) for p in files if p is not None]


def _in_grader_dir(path: Path) -> Path:
    """``path`` of the installed grader package, as the same file under ``GRADER_DIR``."""
    if _INSTALLED in path.parents and GRADER_DIR != _INSTALLED:
        return GRADER_DIR / path.relative_to(_INSTALLED)
    return path


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
