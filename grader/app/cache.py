"""Last verdicts per (exercise, submission content, verdict fingerprint), under ``.grader/``.

``grader list`` reads it so it does not re-run probes whose files have not changed; the key
includes ``grader.app.fingerprint.verdict_fingerprint`` of the exercise, so a changed grader,
stand-in, exercise or library never serves a stale verdict.

The folder lives in the course tree, which the student (and, in "rlimits" mode, their run)
can write to, so it is opened like a submission: ``.grader`` must be a real folder (never a
link), ``results.json`` a regular file opened with ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO or a
link there is ignored at once, never waited on or written through), and writes go to a
fresh file created inside that folder's descriptor and renamed over the old one. Anything
odd means "no cache", never an error. The cache is a convenience for the student's own
checks: its entries are claims anyone with write access can forge, so official grading
never reads it (``GradingSettings(use_cache=False)``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any

from grader.app.course import CACHE_DIR
from grader.app.fingerprint import verdict_fingerprint
from grader.judge.exercises.spec import Exercise
from grader.judge.results import CheckReport
from grader.judge.safe_open import FILE_FLAGS, open_flag
from grader.judge.starters import normalize

CACHE_FILE = "results.json"
#: A cache file larger than this is ignored (it only ever holds a few small entries).
MAX_BYTES = 1 << 20
_DIR_FLAGS = os.O_RDONLY | open_flag("DIRECTORY") | open_flag("NOFOLLOW") | open_flag("CLOEXEC")
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | open_flag("NOFOLLOW")
_NEW_FILE |= open_flag("CLOEXEC")


def cache_key(exercise: Exercise, text: str) -> str:
    material = f"{exercise.id}\0{verdict_fingerprint(exercise)}\0{normalize(text)}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def load(root: Path) -> dict[str, Any]:
    """The cache's entries ({} when it is missing, not a regular file, a link, or garbage)."""
    try:
        with _cache_dir(root, create=False) as folder:
            fd = os.open(CACHE_FILE, FILE_FLAGS, dir_fd=folder)
            try:
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
                    return {}
                raw = os.read(fd, MAX_BYTES + 1)
            finally:
                os.close(fd)
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def lookup(root: Path, exercise: Exercise, text: str) -> dict[str, Any] | None:
    entry = load(root).get(exercise.id)
    if isinstance(entry, dict) and entry.get("key") == cache_key(exercise, text):
        return entry
    return None


def store(
    root: Path, exercise: Exercise, report: CheckReport, text: str, *, key: str | None = None
) -> None:
    """Remember ``report`` (best effort: a read-only or odd course folder just means no cache).
    ``key``: ``cache_key(exercise, text)`` if the caller already has it."""
    data = load(root)
    data[report.exercise] = {
        "key": key or cache_key(exercise, text),
        "status": report.status,
        "score": report.score,
        "max_score": report.max_score,
    }
    body = json.dumps(data, indent=2, sort_keys=True).encode("utf-8")
    with contextlib.suppress(OSError), _cache_dir(root, create=True) as folder:
        temp = f".results-{secrets.token_hex(8)}.json"
        fd = os.open(temp, _NEW_FILE, 0o644, dir_fd=folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(body)
            os.replace(temp, CACHE_FILE, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=folder)
            raise


@contextlib.contextmanager
def _cache_dir(root: Path, *, create: bool) -> Any:
    """A descriptor of ``root/.grader``, refusing a link there (``ELOOP``/``ENOTDIR``).
    Where there is no ``openat`` (Windows) there is no cache: an ``OSError``."""
    if os.open not in os.supports_dir_fd:
        raise OSError("no openat on this platform: the verdict cache is not used")
    base = os.open(root, os.O_RDONLY | open_flag("DIRECTORY") | open_flag("CLOEXEC"))
    try:
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(CACHE_DIR, 0o755, dir_fd=base)
        folder = os.open(CACHE_DIR, _DIR_FLAGS, dir_fd=base)
    finally:
        os.close(base)
    try:
        yield folder
    finally:
        os.close(folder)
