"""The class list: ``grader roster import roster.csv`` reads it, the exports use it.

Columns are found by header, ignoring case, spaces, underscores and extra columns:
``id`` (or ``student``), ``name``, ``email``, ``sis_user_id``, ``sis_login_id``,
``section``. The file is UTF-8 with or without a BOM (what spreadsheets save), so Chinese
names come through as they are. Only ``id`` is required; an id must be a valid student id
(the submission's folder or zip name). Importing the same file twice changes nothing.

A Canvas gradebook export, a Moodle grade export or a Moodle grading worksheet is read as
the LMS wrote it (``lms_files``), told apart by its header. A repeated id, email or SIS
id is refused, with both lines named.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from grader.app.handin import valid_student_id
from grader.errors import UsageError

FIELDS = (
    "name",
    "email",
    "sis_user_id",
    "sis_login_id",
    "section",
    "canvas_id",
    "moodle_participant",
)
#: Normalised header -> field.
HEADERS = {
    "id": "student",
    "student": "student",
    "studentid": "student",
    "name": "name",
    "email": "email",
    "sisuserid": "sis_user_id",
    "sisloginid": "sis_login_id",
    "section": "section",
}
MAX_BYTES = 5 << 20
#: The fields that name one person each: two students may not share one.
IDENTITIES = ("email", "sis_user_id", "sis_login_id", "canvas_id", "moodle_participant")


@dataclass(frozen=True)
class Student:
    student: str
    name: str = ""
    email: str = ""
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    #: Canvas's own user id (its gradebook's ``ID`` column; its downloads name files by it).
    canvas_id: str = ""
    #: Moodle's participant number ("Participant N": its downloads name folders by it).
    moodle_participant: str = ""


def normalised(header: str) -> str:
    return "".join(ch for ch in header.casefold() if ch not in " _-\t\ufeff")


def read_text(path: Path) -> str:
    """The file's text (UTF-8, a BOM dropped); a usage error names what is wrong."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError("error.roster_unreadable", path=str(path), detail=error.strerror) from None
    if len(data) > MAX_BYTES:
        raise UsageError("error.roster_unreadable", path=str(path), detail="larger than 5 MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError("error.roster_unreadable", path=str(path), detail="not UTF-8") from None


def read_roster(path: Path) -> list[Student]:
    """The students of the grader's own roster CSV ``path``, in file order."""
    return parse_roster(read_text(path), str(path))


def parse_roster(text: str, shown: str) -> list[Student]:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise UsageError("error.roster_no_id", path=shown)
    columns = {HEADERS[normalised(h)]: i for i, h in enumerate(rows[0]) if normalised(h) in HEADERS}
    if "student" not in columns:
        raise UsageError("error.roster_no_id", path=shown)
    students: dict[str, Student] = {}
    lines: list[int] = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {field: _cell(row, index) for field, index in columns.items()}
        student = values.pop("student")
        if not valid_student_id(student):
            raise UsageError("error.roster_bad_id", path=shown, line=line, given=student[:80])
        if student in students:
            raise UsageError("error.roster_duplicate", path=shown, line=line, given=student)
        students[student] = Student(student, **values)
        lines.append(line)
    return unique(list(students.values()), shown, [f"line {n}" for n in lines])


def unique(students: Sequence[Student], shown: str, where: Sequence[str]) -> list[Student]:
    """Refuse a repeated id, email, SIS id, Canvas id or participant, naming both places
    (``where``: each student's line, or id)."""
    for field in ("student", *IDENTITIES):
        seen: dict[str, str] = {}
        for student, line in zip(students, where, strict=True):
            value = getattr(student, field)
            key = value.casefold() if field == "email" else value
            if not value:
                continue
            if key in seen:
                raise UsageError("error.roster_repeated", path=shown, field=field,
                                 given=value[:80], first=seen[key], line=line)  # fmt: skip
            seen[key] = line
    return list(students)


def _cell(row: list[str], index: int) -> str:
    return row[index].strip() if index < len(row) else ""
