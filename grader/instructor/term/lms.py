"""``grader export --format canvas|moodle|csv|json``: files an LMS imports as they are.

The rules each file follows, from the LMSs' own documentation and code:

- **Canvas** (Instructure guide "How do I import grades in the Gradebook?", and the
  gradebook-CSV notes of universities' Canvas guides, e.g. OSU "Import a CSV file to
  Carmen grades": the student is matched by ``ID``, ``SIS User ID`` or ``SIS Login ID``;
  ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section`` come first (``ID``
  is Canvas's user id, from a roster imported from Canvas's own export; with a roster, a
  student not on it is left out and named); a column
  Canvas does not know becomes a NEW assignment, so there is no total column; the second
  row may be ``Points Possible``, as in Canvas's own export). Columns are named as the
  instructor maps them (``--column EX-11-01="Probe 11 (12345)"``: Canvas matches an
  existing assignment by "Name (id)").
- **Moodle** (``grade/import/csv/classes/load_data.php``: the user is mapped from ONE
  identifier column, email, ID number or username, and a row whose user is not found is an
  error that stops the import; a grade item per column, optional feedback columns): one
  identifier column, then a column per grade item and, with ``--feedback``, a feedback
  column per item; every row is a student (no points row).
- **csv**: ``student, EX-…, total`` with a ``Points Possible`` row (a generic spreadsheet).
- **json**: everything: the grade's state, ``raw_score``, the decision, the penalty,
  ``final_score`` and ``exported_score`` (what the LMS files carry), lateness, the
  instructor's comment, and the reason of an error.

Every cell is the official grade (``grader.instructor.grade``; no score is computed
here): the late penalty is part of it; code that does not parse is 0 unless decided
otherwise; a submission that needs re-submission (a corrupt zip) is EMPTY (``--errors-as-
zero`` exports those as 0); a missing submission is empty; a prose answer awaiting the
instructor is empty unless ``provisional``. No text cell can be read as a formula (a
leading ``= + - @``, tab or CR gets a ``'``, OWASP's advice for CSV injection).
Spreadsheet-bound files start with a UTF-8 BOM, so Excel reads Chinese names right.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.instructor.grade import Grade, State
from grader.instructor.gradebook.columns import columns_of, max_score_of
from grader.instructor.gradebook.views import ResultView
from grader.instructor.term.roster import Student
from grader.instructor.term.store import ReceiptView

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
POINTS_POSSIBLE = "Points Possible"
CANVAS_HEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_IDENTIFIERS = {"email": "Email address", "idnumber": "ID number", "username": "Username"}


@dataclass(frozen=True)
class ExportOptions:
    #: Exercise id -> the LMS column (grade item) name; unmapped: the exercise id.
    columns: Mapping[str, str] = field(default_factory=dict)
    errors_as_zero: bool = False
    #: Moodle's identifier: email, idnumber or username.
    identifier: str = "email"
    #: Moodle: a feedback column per grade item.
    feedback: bool = False
    #: Export the provisional score of a prose answer awaiting the instructor.
    provisional: bool = False


@dataclass(frozen=True)
class Cell:
    result: ResultView
    receipt: ReceiptView | None

    @property
    def grade(self) -> Grade:
        return self.result.grade

    def value(self, options: ExportOptions) -> float | None:
        """The score the LMS gets: the grade's (None: an empty cell)."""
        if self.grade.state is State.NEEDS_RESUBMISSION:
            return 0.0 if options.errors_as_zero else None
        return self.grade.exported(options.provisional)


@dataclass(frozen=True)
class Table:
    exercises: tuple[str, ...]
    #: student id -> exercise id -> cell; every student of the gradebook or the roster
    rows: dict[str, dict[str, Cell]]
    roster: dict[str, Student]

    def in_state(self, state: State) -> list[tuple[str, str]]:
        """(student, exercise) of every cell whose grade is in ``state``, sorted."""
        return sorted(
            (student, exercise)
            for student, cells in self.rows.items()
            for exercise, cell in cells.items()
            if cell.grade.state is state
        )

    def errors(self) -> list[tuple[str, str]]:
        """The cells that need re-submission (empty, or 0 with ``--errors-as-zero``)."""
        return self.in_state(State.NEEDS_RESUBMISSION)

    def awaiting(self) -> list[tuple[str, str]]:
        """Prose answers awaiting the instructor (empty unless ``--provisional``)."""
        return self.in_state(State.AWAITING_REVIEW)


def build_table(
    results: Sequence[ResultView],
    roster: Sequence[Student],
    receipts: Mapping[tuple[str, str, str], ReceiptView],
) -> Table:
    rows: dict[str, dict[str, Cell]] = {student.student: {} for student in roster}
    for result in results:
        key = (result.student, result.exercise, result.content_sha256)
        rows.setdefault(result.student, {})[result.exercise] = Cell(result, receipts.get(key))
    return Table(
        tuple(columns_of(list(results))),
        dict(sorted(rows.items())),
        {s.student: s for s in roster},
    )


def safe(text: str) -> str:
    """A text cell no spreadsheet evaluates."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def _write(rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([[safe(cell) for cell in row] for row in rows])
    return BOM + out.getvalue()


def _maxima(table: Table, results: Sequence[ResultView]) -> list[float]:
    return [max_score_of(exercise, list(results)) for exercise in table.exercises]


def to_canvas(
    table: Table, results: Sequence[ResultView], options: ExportOptions
) -> tuple[str, list[str]]:
    """The file, and the students left out: with a roster, a student not on it has no
    Canvas identity, so their row is left out and named (never a row Canvas cannot map)."""
    names = [options.columns.get(e, e) for e in table.exercises]
    points = [POINTS_POSSIBLE, "", "", "", "", *map(_number, _maxima(table, results))]
    rows, unmapped = [[*CANVAS_HEAD, *names], points], []
    for student, cells in table.rows.items():
        who = table.roster.get(student)
        if who is None and table.roster:
            unmapped.append(student)
            continue
        head = [student, "", "", student, ""]
        if who is not None:
            login = who.sis_login_id or student
            head = [who.name or student, who.canvas_id, who.sis_user_id, login, who.section]
        values = [_cell(cells, e, options) for e in table.exercises]
        rows.append([*head, *values])
    return _write(rows), unmapped


def moodle_rows(table: Table, options: ExportOptions) -> tuple[list[list[str]], list[str]]:
    """The rows, and the students left out because they have no identifier (a row Moodle
    cannot map would abort the whole import)."""
    names = [options.columns.get(e, e) for e in table.exercises]
    header = [MOODLE_IDENTIFIERS[options.identifier]]
    for name in names:
        header += [name, f"{name} (feedback)"] if options.feedback else [name]
    rows, unmapped = [header], []
    for student, cells in table.rows.items():
        identifier = _identifier(table.roster.get(student), student, options.identifier)
        if not identifier or (table.roster and student not in table.roster):
            unmapped.append(student)
            continue
        row = [identifier]
        for exercise in table.exercises:
            row.append(_cell(cells, exercise, options))
            if options.feedback:
                cell = cells.get(exercise)
                row.append(cell.grade.comment if cell else "")  # a decision on this file
        rows.append(row)
    return rows, unmapped


def to_moodle(table: Table, options: ExportOptions) -> tuple[str, list[str]]:
    rows, unmapped = moodle_rows(table, options)
    return _write(rows), unmapped


def _identifier(who: Student | None, student: str, kind: str) -> str:
    if kind == "username":
        return who.sis_login_id if who and who.sis_login_id else student
    if who is None:
        return ""
    return who.email if kind == "email" else who.sis_user_id


def to_csv(table: Table, results: Sequence[ResultView], options: ExportOptions) -> str:
    maxima = _maxima(table, results)
    rows = [
        ["student", *table.exercises, "total"],
        [POINTS_POSSIBLE, *map(_number, maxima), _number(sum(maxima))],
    ]
    for student, cells in table.rows.items():
        values = [_value(cells, e, options) for e in table.exercises]
        total = round(sum(v or 0.0 for v in values), 2)
        rows.append([student, *map(_number, values), _number(total)])
    return _write(rows)


def _value(cells: Mapping[str, Cell], exercise: str, options: ExportOptions) -> float | None:
    cell = cells.get(exercise)
    return None if cell is None else cell.value(options)


def _cell(cells: Mapping[str, Cell], exercise: str, options: ExportOptions) -> str:
    return _number(_value(cells, exercise, options))


def to_json(table: Table, results: Sequence[ResultView], options: ExportOptions) -> dict[str, Any]:
    maxima = dict(zip(table.exercises, _maxima(table, results), strict=True))
    students = []
    for student, cells in table.rows.items():
        who = table.roster.get(student)
        entries = {exercise: _json_cell(cell, options) for exercise, cell in cells.items()}
        total = sum(v for c in cells.values() if (v := c.value(options)))
        students.append(
            {
                "student": student,
                "roster": None if who is None else _roster_json(who),
                "total": round(total, 2),
                "results": entries,
            }
        )
    return {
        "exercises": [
            {"id": e, "column": options.columns.get(e, e), "max_score": maxima[e]}
            for e in table.exercises
        ],
        "students": students,
    }


def _roster_json(who: Student) -> dict[str, str]:
    return {
        "name": who.name,
        "email": who.email,
        "sis_user_id": who.sis_user_id,
        "sis_login_id": who.sis_login_id,
        "section": who.section,
        "canvas_id": who.canvas_id,
        "moodle_participant": who.moodle_participant,
    }


def _json_cell(cell: Cell, options: ExportOptions) -> dict[str, Any]:
    result, receipt, grade = cell.result, cell.receipt, cell.grade
    review = result.review
    return {
        "state": grade.state.value,
        "status": result.shown_status,
        "graded_status": result.status,
        "score": result.score,
        "raw_score": grade.raw_score,
        "decision": grade.decision,
        "penalty": grade.penalty,
        "final_score": grade.final_score,
        "provisional_score": grade.provisional_score,
        "exported_score": cell.value(options),
        "max_score": result.max_score,
        "reviewed": result.reviewed,
        "review": None
        if review is None
        else {
            "final_score": review.final_score,
            "comment": review.comment,
            "reviewer": review.reviewer,
            "changed_since_review": review.changed_since_review,
        },
        "received_at": None if receipt is None else receipt.received_at.isoformat(),
        "received_from": None if receipt is None else receipt.source,
        "due_at": None if receipt is None or receipt.due_at is None else receipt.due_at.isoformat(),
        "late_by_seconds": grade.late_by_seconds,
        "content_sha256": result.content_sha256,
        "isolation": result.isolation,
        "reason": None if result.reason is None else result.reason.id,
        "reason_params": None if result.reason is None else dict(result.reason.params),
    }
