"""Each export read back by its LMS's documented rules, cell by cell.

Canvas (Instructure's "How do I import grades in the Gradebook?"; OSU's "Import a CSV file
to Carmen grades"): the first columns are Student, ID, SIS User ID, SIS Login ID, Section;
a student row is matched by ID, SIS User ID or SIS Login ID; an unknown column becomes a
new assignment (so: no total); the Points Possible row comes second.
Moodle (grade/import/csv/classes/load_data.php, map_user_data_with_value and
check_user_exists): ONE identifier column maps each row to a user, and a row whose user is
unknown is an error for the whole import (so: no points row, no student without one).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import sha256_text
from grader.instructor.term import lms
from grader.instructor.term.roster import Student
from grader.instructor.term.store import (
    import_roster,
    receipts,
    record_receipts,
    roster,
    set_lateness,
)
from grader.judge.exercises import get_exercise
from tests.unit.grader.instructor.gradebook.factories import (
    absent_entry,
    broken_entry,
    code_entry,
    prose_entry,
)

ROSTER = [
    Student("alice", "王小明", "alice@example.edu", "1001", "alice.w", "A", canvas_id="91010"),
    Student("bob", '=HYPERLINK("http://x")', "bob@example.edu", "1002", "bob", "B"),
    Student("dave", "+Dave", "dave@example.edu", "1004", "dave", "A"),
]
COLUMNS = {"EX-11-01": "Probe 11 (12345)", "EX-11-02": "Answer 11 (12346)"}
OPTIONS = lms.ExportOptions(columns=COLUMNS)


@pytest.fixture
def table(tmp_path: Path) -> tuple[lms.Table, list]:  # type: ignore[type-arg]
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    book.record(code_entry("alice"))
    book.record(prose_entry("alice"))
    book.set_review("alice", "EX-11-02", final_score=2.0, comment="好的 good", reviewer="prof")
    book.record(broken_entry("bob"))
    book.record(absent_entry("bob", "EX-11-02"))
    book.record(code_entry("carol", text="v\n", survived=True))  # carol: not on the roster
    import_roster(book, ROSTER)
    late = datetime(2026, 12, 2, 10, tzinfo=UTC)
    record_receipts(book, [("carol", "EX-11-01", sha256_text("v\n"), late, "csv")])
    set_lateness(book, {("carol", "EX-11-01", sha256_text("v\n")): (late, 86400.0, 0.5)})
    results = book.results()
    made = lms.build_table(results, roster(book), receipts(book))
    book.close()
    return made, results


def _read(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")  # UTF-8 with a BOM, for spreadsheets
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def _no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")), cell


def test_canvas_reads_back_by_canvas_rules(table: tuple[lms.Table, list]) -> None:  # type: ignore[type-arg]
    made, results = table
    text, left_out = lms.to_canvas(made, results, OPTIONS)
    rows = _read(text)
    assert left_out == ["carol"]  # not on the roster: Canvas could not match the row
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "Probe 11 (12345)", "Answer 11 (12346)"]  # fmt: skip
    assert "total" not in [h.lower() for h in rows[0]]
    maxima = [f"{get_exercise(e).max_score:g}" for e in COLUMNS]  # from the specs
    assert rows[1] == ["Points Possible", "", "", "", "", *maxima]
    body = rows[2:]
    assert all(any(row[1:4]) for row in body)  # every student row can be matched
    assert body == [
        ["王小明", "91010", "1001", "alice.w", "A", "2", "2"],  # Canvas's own id filled
        ['\'=HYPERLINK("http://x")', "", "1002", "bob", "B", "", ""],  # error: empty
        ["'+Dave", "", "1004", "dave", "A", "", ""],  # on the roster, nothing handed in
    ]
    _no_formula(rows)


def test_moodle_reads_back_by_moodle_rules(table: tuple[lms.Table, list]) -> None:  # type: ignore[type-arg]
    made, _ = table
    text, unmapped = lms.to_moodle(made, lms.ExportOptions(columns=COLUMNS, feedback=True))
    rows = _read(text)
    assert rows[0] == ["Email address", "Probe 11 (12345)", "Probe 11 (12345) (feedback)",
                       "Answer 11 (12346)", "Answer 11 (12346) (feedback)"]  # fmt: skip
    emails = {s.email for s in ROSTER}
    assert all(row[0] in emails for row in rows[1:])  # no row Moodle cannot map
    assert rows[1:] == [
        ["alice@example.edu", "2", "", "2", "好的 good"],
        ["bob@example.edu", "", "", "", ""],
        ["dave@example.edu", "", "", "", ""],
    ]
    assert unmapped == ["carol"]  # named on stderr by the command
    by_username, none_left = lms.to_moodle(made, lms.ExportOptions(identifier="username"))
    assert _read(by_username)[0][0] == "Username" and none_left == ["carol"]
    assert [row[0] for row in _read(by_username)[1:]] == ["alice.w", "bob", "dave"]


def test_errors_as_zero_and_the_loud_count(table: tuple[lms.Table, list]) -> None:  # type: ignore[type-arg]
    made, results = table
    assert made.errors() == [("bob", "EX-11-01")]
    zero = _read(lms.to_csv(made, results, lms.ExportOptions(errors_as_zero=True)))
    assert zero[3] == ["bob", "0", "", "0"]
    plain = _read(lms.to_csv(made, results, lms.ExportOptions()))
    assert plain[0] == ["student", "EX-11-01", "EX-11-02", "total"]
    assert plain[3] == ["bob", "", "", "0"]


def test_json_carries_everything(table: tuple[lms.Table, list]) -> None:  # type: ignore[type-arg]
    made, results = table
    data = lms.to_json(made, results, OPTIONS)
    students = {s["student"]: s for s in data["students"]}
    carol = students["carol"]["results"]["EX-11-01"]
    assert (carol["score"], carol["exported_score"], carol["penalty"]) == (1.0, 0.5, 0.5)
    assert carol["late_by_seconds"] == 86400.0 and carol["received_from"] == "csv"
    assert carol["received_at"].startswith("2026-12-02T10:00:00")
    bob = students["bob"]["results"]["EX-11-01"]
    assert (bob["exported_score"], bob["reason"]) == (None, "batch.archive_unsafe_path")
    assert bob["reason_params"]["entry"] == "../evil.py"
    alice = students["alice"]
    assert alice["roster"]["name"] == "王小明"
    assert alice["results"]["EX-11-02"]["review"]["comment"] == "好的 good"
    assert students["dave"]["results"] == {} and students["dave"]["roster"] is not None
    first = {"id": "EX-11-01", "column": "Probe 11 (12345)"}
    assert data["exercises"][0] == first | {"max_score": get_exercise("EX-11-01").max_score}
