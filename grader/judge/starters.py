"""Recognising a student's starter: its text and fingerprint, as the release shipped them.

The fingerprints (``grader/judge/exercises/starters.json``, written by ``grader
build-starters``, see ``grader.instructor.starters``) let the grader recognise an untouched
starter ("not started") without shipping the solutions.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

FINGERPRINTS = Path(__file__).resolve().parent / "exercises" / "starters.json"


def normalize(text: str) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n")


def fingerprint(text: str) -> str:
    return hashlib.sha256(normalize(text).encode("utf-8")).hexdigest()


@cache
def _fingerprints() -> dict[str, dict[str, str]]:
    try:
        data = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def starter_template(exercise_id: str) -> str:
    """The starter text of ``exercise_id`` ('' if unknown)."""
    return str(_fingerprints().get(exercise_id, {}).get("template", ""))


def is_untouched_starter(exercise_id: str, text: str) -> bool:
    known = _fingerprints().get(exercise_id, {}).get("sha256")
    return known is not None and fingerprint(text) == known


def forget_fingerprints() -> None:
    """Read ``starters.json`` again on next use (after ``grader build-starters`` rewrote it)."""
    _fingerprints.cache_clear()
