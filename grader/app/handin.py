"""The student's hand-in (``grader submit``): pack a student's answers into ``ID.zip``
with a manifest, and check a zip against its manifest (``--verify``).

The zip's root holds ``EX-NN-MM/<file>`` and ``manifest.json``::

    {"student": "alice", "exercises": ["EX-11-01", ...],
     "files": {"EX-11-01/retry_policy_probe.py": "<sha256>", ...},
     "grader_version": "0.1.0", "created_at": "2026-11-30T12:00:00+00:00"}

An untouched starter is left out (the batch grades it as missing, the same score). The
student id's rule and the zip's checks (``grader.app.archive``) are the ones ``grader grade``
applies: it reads them from here.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from grader.app.archive import MANIFEST, ArchiveProblem, extract, read_archive
from grader.app.course import EXERCISES_DIR
from grader.app.version import grader_version
from grader.errors import UsageError, VerifyRefused
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.safe_open import open_no_links
from grader.judge.starters import is_untouched_starter

STUDENT_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$")
NOTEBOOK_SUFFIX = ".ipynb"
#: Every entry gets this timestamp, so packing the same answers twice gives the same bytes.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def valid_student_id(text: str) -> bool:
    """1-64 characters of ``A-Za-z0-9._-``, not starting with ``.`` or ``-``."""
    return STUDENT_ID.fullmatch(text) is not None


@dataclass(frozen=True)
class Packed:
    path: Path
    exercises: tuple[str, ...]
    left_out: tuple[str, ...]


def pack(root: Path, student: str, out: Path | None = None, *, overwrite: bool = False) -> Packed:
    """Zip the student's started answers under ``root/exercises``. An existing file at the
    target is replaced only with ``overwrite`` (``--force``); else ``error.submit_exists``."""
    if not valid_student_id(student):
        raise UsageError("error.student_id", given=student[:80])
    files: dict[str, bytes] = {}
    left_out: list[str] = []
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        folder = root / EXERCISES_DIR / exercise_id
        chosen = _answer_file(folder, exercise.student_file)
        if chosen is None:
            continue
        data = _read(chosen)
        if is_untouched_starter(exercise_id, data.decode("utf-8", "replace")):
            left_out.append(exercise_id)
            continue
        files[f"{exercise_id}/{chosen.name}"] = data
    if not files:
        raise UsageError("submit.nothing")
    manifest = {
        "student": student,
        "exercises": sorted({name.split("/")[0] for name in files}),
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())},
        "grader_version": grader_version(),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    target = (out or Path.cwd() / f"{student}.zip").absolute()
    if not overwrite and os.path.lexists(target):
        raise UsageError("error.submit_exists", path=str(target))
    temporary = target.with_name(f".{target.name}.tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(zipfile.ZipInfo(name, _ZIP_TIME), data, zipfile.ZIP_DEFLATED)
        body = json.dumps(manifest, ensure_ascii=False, indent=2).encode("utf-8")
        archive.writestr(zipfile.ZipInfo(MANIFEST, _ZIP_TIME), body, zipfile.ZIP_DEFLATED)
    if overwrite:
        os.replace(temporary, target)
    else:
        try:  # never replaces a file that appeared meanwhile
            os.link(temporary, target)
        except FileExistsError:
            raise UsageError("error.submit_exists", path=str(target)) from None
        finally:
            temporary.unlink(missing_ok=True)
    return Packed(target, tuple(manifest["exercises"]), tuple(left_out))


def _answer_file(folder: Path, conventional: str) -> Path | None:
    if (folder / conventional).is_file():
        return folder / conventional
    notebooks = sorted(p for p in folder.glob(f"*{NOTEBOOK_SUFFIX}") if p.is_file())
    return notebooks[0] if len(notebooks) == 1 else None


def _read(path: Path) -> bytes:
    fd = open_no_links(path)
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def _check_names(path: Path, manifest: dict[str, object], folder: Path) -> None:
    """The manifest must name the file's own student and exactly the zip's exercises (a
    zip copied from another student keeps the other's manifest)."""
    student = str(manifest.get("student", ""))
    stem = path.name.removesuffix(".zip")
    if student != stem:
        raise VerifyRefused("submit.manifest_other_student", path=str(path), student=student,
                            stem=stem)  # fmt: skip
    listed = manifest.get("exercises")
    listed_set = {str(e) for e in listed} if isinstance(listed, list) else set()
    present = {p.name for p in folder.iterdir() if p.is_dir()}
    if listed_set != present:
        raise VerifyRefused(
            "submit.manifest_exercises",
            path=str(path),
            missing=", ".join(sorted(listed_set - present)) or "-",
            unlisted=", ".join(sorted(present - listed_set)) or "-",
        )


@dataclass(frozen=True)
class Verified:
    student: str
    files: int


def verify(path: Path) -> Verified:
    """Check a zip with the same rules as ``grader grade`` and against its manifest."""
    folder = Path(tempfile.mkdtemp(prefix="grader-verify-"))
    try:
        try:
            data = read_archive(path)
            extract(data, path.name, folder)
        except ArchiveProblem as problem:
            from grader.render.catalog import render_message

            detail = render_message(problem.message_id, problem.params, "en")
            raise UsageError("error.manifest", path=str(path), detail=detail) from None
        manifest_path = folder / MANIFEST
        if not manifest_path.is_file():
            raise UsageError("error.manifest", path=str(path), detail="no manifest.json")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        student = str(manifest.get("student", ""))
        if not valid_student_id(student):
            raise UsageError("error.manifest", path=str(path), detail="invalid student id")
        _check_names(path, manifest, folder)
        return Verified(student, len(manifest["files"]))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
