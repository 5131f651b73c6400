"""Last results per (exercise, submission content, grader version), under ``.grader/``.

``grader list`` reads it so it does not re-run probes whose files have not changed. The
key includes a fingerprint of the grader's and ticketflow's source files, so a changed
grader or library never serves a stale verdict.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from grader.course import CACHE_DIR
from grader.results import CheckReport
from grader.starters import normalize

CACHE_FILE = "results.json"


@cache
def code_fingerprint() -> str:
    import grader
    import ticketflow

    digest = hashlib.sha256()
    for package in (grader, ticketflow):
        base = Path(package.__file__ or ".").resolve().parent
        for path in sorted(base.rglob("*.py")):
            stat = path.stat()
            digest.update(
                f"{path.relative_to(base)}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode()
            )
    return digest.hexdigest()


def cache_key(exercise_id: str, text: str) -> str:
    material = f"{exercise_id}\0{code_fingerprint()}\0{normalize(text)}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def load(root: Path) -> dict[str, Any]:
    try:
        data = json.loads((root / CACHE_DIR / CACHE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def lookup(root: Path, exercise_id: str, text: str) -> dict[str, Any] | None:
    entry = load(root).get(exercise_id)
    if isinstance(entry, dict) and entry.get("key") == cache_key(exercise_id, text):
        return entry
    return None


def store(root: Path, report: CheckReport, text: str) -> None:
    """Remember ``report`` (best effort: a read-only course folder just means no cache)."""
    folder = root / CACHE_DIR
    with contextlib.suppress(OSError):
        folder.mkdir(exist_ok=True)
        data = load(root)
        data[report.exercise] = {
            "key": cache_key(report.exercise, text),
            "status": report.status,
            "score": report.score,
            "max_score": report.max_score,
        }
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".results-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=2, sort_keys=True)
            os.replace(temp, folder / CACHE_FILE)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(temp)
