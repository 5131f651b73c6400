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


#: What decides a verdict: the exercise specs, the harness and mutants, the judging code
#: and the library under test (the runner only carries observations, so it is left out).
_VERDICT_SOURCES = ("exercises", "harness", "verdict.py", "rubric", "grading.py", "starters.py")


@cache
def code_fingerprint() -> str:
    """A hash of every source file a verdict depends on (content, not mtime)."""
    import grader
    import ticketflow

    grader_dir = Path(grader.__file__ or ".").resolve().parent
    ticketflow_dir = Path(ticketflow.__file__ or ".").resolve().parent
    files = [p for name in _VERDICT_SOURCES for p in _sources(grader_dir / name)]
    files += _sources(ticketflow_dir)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _sources(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.suffix in (".py", ".json"))


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
