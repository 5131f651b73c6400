"""An exercise's statement (``exercises/<id>/README.md``, its hint included), as the rubric
compares a prose answer with it: what is copied from it counts for nothing.

Read from the course tree the grader sits in (``grader/`` and ``exercises/`` are siblings
in the instructors' tree and in the student copy alike); '' when there is none.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

COURSE_DIR = Path(__file__).resolve().parents[2]
#: Bytes of a statement read at most.
MAX_BYTES = 64_000


def statement_file(exercise_id: str) -> Path:
    return COURSE_DIR / "exercises" / exercise_id / "README.md"


def statement_text(exercise_id: str) -> str:
    path = statement_file(exercise_id)
    try:
        stat = path.stat()
    except OSError:
        return ""
    return _read(path, stat.st_mtime_ns, stat.st_size)


@cache
def _read(path: Path, _mtime_ns: int, _size: int) -> str:
    try:
        with path.open("rb") as handle:
            return handle.read(MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""
