"""The LMSs' own files, read as they come: rosters exported from Canvas and Moodle, and the
names of their bulk downloads.

Rosters (``grader roster import FILE``; the format is told by its header):

- **Canvas gradebook export**: ``Student, ID, SIS User ID, SIS Login ID, [Integration ID,]
  Section``, then a column per assignment, and a ``Points Possible`` row (and, in newer
  exports, a ``Manual Posting`` row). Canvas's ``ID`` is kept as the student's Canvas id
  (the bulk download names files by it, the grade import matches it); the student id is the
  SIS login (``--id-from sis_login_id``, the default) or the SIS user id. Canvas's test
  student (no SIS ids) is left out.
- **Moodle grade export**: ``First name, Last name`` (``Surname`` in older Moodles),
  ``ID number``, ``Email address``…; the student id is the ID number (``--id-from
  idnumber``).
- **Moodle grading worksheet** (an assignment's "Download grading worksheet"):
  ``Identifier`` ("Participant 1234567": how "Download all submissions" names folders),
  ``Full name``, ``Email address``. It adds the participant number to students already on
  the roster, found by email (or ID number, where the worksheet has that column).

A repeated email, SIS id, Canvas id or participant is refused with its lines named.

Bulk downloads (``grade`` maps them through the roster):

- Canvas: flat files ``lastfirst[_LATE]_CANVASID_SUBMISSIONID_original.zip``;
- Moodle: folders ``Full Name_PARTICIPANT_assignsubmission_file_/`` holding the zip.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from grader.app.handin import valid_student_id
from grader.errors import UsageError
from grader.instructor.term.roster import Student, normalised, parse_roster, read_text, unique

CANVAS_FILE = re.compile(
    r"^(?P<name>[^_]*)(?:_LATE)?_(?P<user>\d+)_(?P<submission>\d+)_(?P<original>.+)$"
)
MOODLE_FOLDER = re.compile(r"^(?P<name>.+)_(?P<participant>\d+)_assignsubmission_[a-z]+_?$")
PARTICIPANT = re.compile(r"^\s*(?:Participant|参与者)\s*(?P<number>\d+)\s*$", re.IGNORECASE)
CANVAS_NOT_STUDENTS = ("pointspossible", "manualposting", "mutedassignment")
CANVAS_TEST_STUDENT = ("student, test", "test student")
ID_FROM = ("sis_login_id", "sis_user_id", "idnumber")


@dataclass(frozen=True)
class Sheet:
    """A CSV as rows of cells, with its header normalised (``normalised``)."""

    header: tuple[str, ...]
    rows: tuple[tuple[int, list[str]], ...]  # (line number, cells)
    shown: str

    def column(self, *names: str) -> int | None:
        for name in names:
            if name in self.header:
                return self.header.index(name)
        return None

    @staticmethod
    def cell(row: Sequence[str], index: int | None) -> str:
        return row[index].strip() if index is not None and index < len(row) else ""


def roster_kind(path: Path) -> str | None:
    """The LMS file kind of ``path`` from its first line (None: not an LMS's, or unreadable:
    ``read_any_roster`` then says what is wrong)."""
    try:
        first = read_text(path).split("\n", 1)[0]
    except UsageError:
        return None
    delimiter = "\t" if "\t" in first and "," not in first else ","
    header = next(csv.reader(io.StringIO(first), delimiter=delimiter), [])
    return lms_kind(header)


def read_any_roster(
    path: Path, id_from: str | None = None, existing: Sequence[Student] = ()
) -> list[Student]:
    """The students of ``path``: an LMS's own file (told by its header) or the grader's
    roster CSV. ``existing``: the roster now (a Moodle grading worksheet adds to it)."""
    text = read_text(path)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first and "," not in first else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    kind = lms_kind(rows[0]) if rows else None
    if kind is None:
        if id_from is not None:
            raise UsageError("error.roster_id_from_plain", path=str(path))
        return parse_roster(text, str(path))
    header = tuple(normalised(cell) for cell in rows[0])
    sheet = Sheet(header, tuple(enumerate(rows[1:], start=2)), str(path))
    if kind == "canvas":
        return read_canvas(sheet, id_from or "sis_login_id")
    if kind == "moodle":
        return read_moodle(sheet, id_from or "idnumber")
    return read_moodle_worksheet(sheet, existing)


def lms_kind(header: Iterable[str]) -> str | None:
    """ "canvas", "moodle", "moodle_worksheet", or None (the grader's own roster CSV)."""
    names = {normalised(cell) for cell in header}
    if {"student", "id", "sisloginid"} <= names:
        return "canvas"
    if {"identifier", "fullname"} <= names:
        return "moodle_worksheet"
    if "firstname" in names and names & {"lastname", "surname"}:
        return "moodle"
    return None


def read_canvas(sheet: Sheet, id_from: str) -> list[Student]:
    if id_from not in ("sis_login_id", "sis_user_id"):
        raise UsageError("error.roster_id_from", given=id_from, allowed="sis_login_id, sis_user_id")
    at = {
        "name": sheet.column("student"),
        "canvas_id": sheet.column("id"),
        "sis_user_id": sheet.column("sisuserid"),
        "sis_login_id": sheet.column("sisloginid"),
        "section": sheet.column("section"),
    }
    students, lines = [], []
    for line, row in sheet.rows:
        values = {field: Sheet.cell(row, index) for field, index in at.items()}
        if normalised(values["name"]) in CANVAS_NOT_STUDENTS or not values["canvas_id"]:
            continue  # Canvas's Points Possible / Manual Posting rows
        if values["name"].casefold() in CANVAS_TEST_STUDENT and not values[id_from]:
            continue
        student = _student_id(values[id_from], sheet.shown, line, id_from)
        students.append(Student(student, **values))
        lines.append(line)
    return unique(students, sheet.shown, [f"line {n}" for n in lines])


def read_moodle(sheet: Sheet, id_from: str) -> list[Student]:
    if id_from != "idnumber":
        raise UsageError("error.roster_id_from", given=id_from, allowed="idnumber")
    first, last = sheet.column("firstname"), sheet.column("lastname", "surname")
    number, email = sheet.column("idnumber"), sheet.column("emailaddress", "email")
    if number is None:
        raise UsageError("error.roster_no_id", path=sheet.shown)
    students, lines = [], []
    for line, row in sheet.rows:
        if not any(cell.strip() for cell in row):
            continue
        name = " ".join(part for part in (Sheet.cell(row, first), Sheet.cell(row, last)) if part)
        student = _student_id(Sheet.cell(row, number), sheet.shown, line, "idnumber")
        students.append(
            Student(student, name, Sheet.cell(row, email), sis_user_id=Sheet.cell(row, number))
        )
        lines.append(line)
    return unique(students, sheet.shown, [f"line {n}" for n in lines])


def read_moodle_worksheet(sheet: Sheet, existing: Sequence[Student]) -> list[Student]:
    """The roster's students with their participant numbers added (nothing else changes)."""
    identifier = sheet.column("identifier")
    email, number = sheet.column("emailaddress", "email"), sheet.column("idnumber")
    by_email = {s.email.casefold(): s for s in existing if s.email}
    by_number = {s.sis_user_id: s for s in existing if s.sis_user_id}
    updated: dict[str, Student] = {}
    unknown = []
    for line, row in sheet.rows:
        match = PARTICIPANT.match(Sheet.cell(row, identifier))
        if match is None:
            continue
        who = by_number.get(Sheet.cell(row, number)) or by_email.get(
            Sheet.cell(row, email).casefold()
        )
        if who is None:
            unknown.append(str(line))
            continue
        updated[who.student] = replace(who, moodle_participant=match["number"])
    if unknown:
        raise UsageError("error.worksheet_unknown", path=sheet.shown, lines=", ".join(unknown[:10]))
    merged = [updated.get(s.student, s) for s in existing]
    return unique(merged, sheet.shown, [s.student for s in merged])


def _student_id(given: str, shown: str, line: int, id_from: str) -> str:
    if not valid_student_id(given):
        raise UsageError("error.roster_lms_id", path=shown, line=line, given=given[:80],
                         column=id_from)  # fmt: skip
    return given


# -- bulk downloads -------------------------------------------------------------------------


@dataclass(frozen=True)
class Mapped:
    """A bulk download's entry named as the LMS names it, and the roster student it is."""

    entry: str
    student: str | None
    #: Why it maps to no student (a catalogue id), when ``student`` is None.
    problem: str = ""


def map_download_names(names: Iterable[str], roster: Sequence[Student]) -> list[Mapped]:
    """Each entry that is named as Canvas or Moodle name their downloads, mapped through
    the roster's Canvas ids and participant numbers (others are not LMS names: left out)."""
    canvas = _index(roster, "canvas_id")
    moodle = _index(roster, "moodle_participant")
    found = []
    for name in names:
        folder = MOODLE_FOLDER.match(name)
        if moodle and folder:
            student = moodle.get(folder["participant"])
            found.append(Mapped(name, student, "" if student else "batch.lms_unknown_participant"))
            continue
        file = CANVAS_FILE.match(name)
        if canvas and file and file["original"].lower().endswith(".zip"):
            student = canvas.get(file["user"])
            found.append(Mapped(name, student, "" if student else "batch.lms_unknown_canvas_id"))
    return found


def _index(roster: Sequence[Student], field: str) -> Mapping[str, str]:
    return {getattr(s, field): s.student for s in roster if getattr(s, field)}
