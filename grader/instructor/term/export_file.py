"""Where ``grader export --out FILE`` may write, checked before anything is written.

- The folder must exist (a usage error, exit 2, naming it), and ``FILE`` must not be a folder.
- An existing ``FILE`` is replaced only when it is an export of this gradebook, in the same
  format: its header starts as the new export's does, and every student it lists is one
  the new export lists (csv: the ``student`` column; canvas: ``SIS Login ID``; moodle: the
  identifier column; json: ``students[].student``). Anything else (another class's grades,
  a roster, a hand-written sheet) is refused, saying so; ``--force`` replaces it anyway.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from grader.errors import UsageError
from grader.instructor.term.lms import CANVAS_HEAD, POINTS_POSSIBLE

#: The column that names the student, per spreadsheet format.
_KEY_COLUMN = {"csv": 0, "canvas": 3, "moodle": 0}
#: Larger than any export of a class: such a file is not one.
_MAX_READ = 64 << 20


def check_out_folder(out: Path) -> None:
    """``--out`` names a file in a folder that exists."""
    if out.is_dir():
        raise UsageError("error.export_out_is_folder", path=str(out))
    folder = out.absolute().parent
    if not folder.is_dir():
        raise UsageError("error.export_out_folder", path=str(out), folder=str(folder))


def check_overwrite(out: Path, new_text: str, export_format: str, *, force: bool) -> None:
    """Refuse to replace an existing ``out`` that is not an export of this gradebook."""
    if force or not out.exists():
        return
    if not is_export_of(_read(out), new_text, export_format):
        raise UsageError("error.export_overwrite", path=str(out), format=export_format)


def is_export_of(existing: str | None, new_text: str, export_format: str) -> bool:
    """Whether ``existing`` is an export, in ``export_format``, of the gradebook whose export
    is ``new_text`` (see the module's docstring)."""
    if existing is None:
        return False
    if export_format == "json":
        old, new = _json_students(existing), _json_students(new_text)
        return old is not None and new is not None and old <= new
    old_rows, new_rows = _rows(existing), _rows(new_text)
    if not old_rows or not new_rows:
        return False
    fixed = _fixed_head(export_format, new_rows[0])
    if old_rows[0][:fixed] != new_rows[0][:fixed]:
        return False
    column = _KEY_COLUMN[export_format]
    return _keys(old_rows[1:], column) <= _keys(new_rows[1:], column)


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_READ + 1)
    except OSError:
        return None
    if len(data) > _MAX_READ:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _rows(text: str) -> list[list[str]]:
    try:
        return [row for row in csv.reader(text.lstrip("\ufeff").splitlines()) if row]
    except csv.Error:
        return []


def _fixed_head(export_format: str, header: list[str]) -> int:
    """The header cells every export of this format starts with (the exercise columns after
    them may grow during a term)."""
    return {"csv": 1, "canvas": len(CANVAS_HEAD), "moodle": 1}.get(export_format, len(header))


def _keys(rows: list[list[str]], column: int) -> set[str]:
    return {
        row[column]
        for row in rows
        if len(row) > column and row[column] and POINTS_POSSIBLE not in row[0]
    }


def _json_students(text: str) -> set[str] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("students"), list):
        return None
    if not isinstance(data.get("exercises"), list):
        return None
    found = {item.get("student") for item in data["students"] if isinstance(item, dict)}
    return {str(s) for s in found if s}
