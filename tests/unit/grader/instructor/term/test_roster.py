"""The roster is read by header (case, spaces, underscores ignored; extra columns ignored),
UTF-8 with or without BOM, Chinese names intact; importing twice changes nothing; a file
without an id column, or with a bad or repeated id, is refused naming the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.roster import Student, read_roster
from grader.instructor.term.store import import_roster, roster

SPREADSHEET = (
    "\ufeff Section ,E-mail,Student ID,Name,SIS_User_ID,sis login id,Notes\r\n"
    "A,wang@example.edu,s001,王小明,1001,wang,x\r\n"
    "B,li@example.edu,s002,李 华,1002,li,\r\n"
    ",,,,,,\r\n"
)


@pytest.mark.parametrize("bom", [True, False])
def test_headers_by_name_with_or_without_bom(tmp_path: Path, bom: bool) -> None:
    path = tmp_path / "roster.csv"
    text = SPREADSHEET if bom else SPREADSHEET.removeprefix("\ufeff")
    path.write_bytes(text.encode("utf-8"))
    assert read_roster(path) == [
        Student("s001", "王小明", "wang@example.edu", "1001", "wang", "A"),
        Student("s002", "李 华", "li@example.edu", "1002", "li", "B"),
    ]


def test_only_the_id_is_required(tmp_path: Path) -> None:
    path = tmp_path / "ids.csv"
    path.write_text("ID\nalice\nbob\n", encoding="utf-8")
    assert read_roster(path) == [Student("alice"), Student("bob")]


@pytest.mark.parametrize(
    ("text", "reason", "line"),
    [
        ("name,email\n王,x@y\n", "error.roster_no_id", None),
        ("id,name\nalice,A\nbad id,B\n", "error.roster_bad_id", 3),
        ("id,name\nalice,A\nalice,B\n", "error.roster_duplicate", 3),
        ("", "error.roster_no_id", None),
    ],
)
def test_what_cannot_be_a_roster_is_refused_naming_the_line(
    tmp_path: Path, text: str, reason: str, line: int | None
) -> None:
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        read_roster(path)
    assert raised.value.message_id == reason
    assert raised.value.params.get("line") == line


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "gbk.csv"
    path.write_bytes("id,name\ns001,王小明\n".encode("gbk"))
    with pytest.raises(UsageError) as raised:
        read_roster(path)
    assert raised.value.message_id == "error.roster_unreadable"


def test_importing_twice_is_idempotent_and_a_change_updates(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_bytes(SPREADSHEET.encode("utf-8"))
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        assert import_roster(book, read_roster(path)) == (2, 0)
        assert import_roster(book, read_roster(path)) == (0, 0)
        moved = [Student("s001", "王小明", "wang@example.edu", "1001", "wang", "C")]
        assert import_roster(book, moved) == (0, 1)
        assert [s.section for s in roster(book)] == ["C", "B"]
