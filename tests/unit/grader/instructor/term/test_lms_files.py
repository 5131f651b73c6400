"""The LMSs' files as they come: Canvas's gradebook export, Moodle's grade export and
grading worksheet as rosters, and their bulk downloads' names (files beside this test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.lms_files import map_download_names, read_any_roster
from grader.instructor.term.roster import Student
from grader.instructor.term.store import import_roster, roster

FILES = Path(__file__).parent / "files"
CANVAS = FILES / "canvas_gradebook_export.csv"
MOODLE = FILES / "moodle_grade_export.csv"
WORKSHEET = FILES / "moodle_grading_worksheet.csv"


def test_a_canvas_gradebook_export_is_a_roster_as_it_comes() -> None:
    students = read_any_roster(CANVAS)
    assert [(s.student, s.name, s.canvas_id, s.sis_user_id, s.section) for s in students] == [
        ("zhangwei", "Zhang, Wei", "91010", "2025013010", "Section A"),
        ("lihua", "Li, Hua", "91011", "2025013011", "Section B"),
        ("wangxm", "王小明", "91012", "2025013012", "Section A"),
    ]  # no Points Possible, Manual Posting or test student row
    by_sis = read_any_roster(CANVAS, "sis_user_id")
    assert [s.student for s in by_sis] == ["2025013010", "2025013011", "2025013012"]
    assert by_sis[0].sis_login_id == "zhangwei"


def test_a_moodle_export_then_its_worksheet_give_names_emails_and_participants() -> None:
    students = read_any_roster(MOODLE)
    assert [(s.student, s.name, s.email) for s in students] == [
        ("2025013010", "Wei Zhang", "zhangwei@example.edu"),
        ("2025013011", "Hua Li", "lihua@example.edu"),
        ("2025013012", "小明 王", "wangxm@example.edu"),
    ]
    merged = read_any_roster(WORKSHEET, existing=students)
    assert [(s.student, s.moodle_participant, s.email) for s in merged] == [
        ("2025013010", "3344556", "zhangwei@example.edu"),
        ("2025013011", "3344557", "lihua@example.edu"),
        ("2025013012", "3344558", "wangxm@example.edu"),
    ]


def test_a_worksheet_naming_students_not_on_the_roster_is_refused() -> None:
    with pytest.raises(UsageError) as raised:
        read_any_roster(WORKSHEET, existing=[Student("x", email="zhangwei@example.edu")])
    assert raised.value.message_id == "error.worksheet_unknown"
    assert raised.value.params["lines"] == "3, 4"


@pytest.mark.parametrize(
    ("edit", "field", "where"),
    [
        (("lihua@example.edu", "zhangwei@example.edu"), "email", ("line 2", "line 3")),
        (("2025013011", "2025013010"), "student", ("line 2", "line 3")),
    ],
)
def test_a_repeated_identity_is_refused_with_both_lines(
    tmp_path: Path, edit: tuple[str, str], field: str, where: tuple[str, str]
) -> None:
    copy = tmp_path / "moodle.csv"
    copy.write_text(MOODLE.read_text(encoding="utf-8").replace(*edit), encoding="utf-8")
    with pytest.raises(UsageError) as raised:
        read_any_roster(copy)
    assert raised.value.message_id == "error.roster_repeated"
    assert raised.value.params["field"] == field
    assert (raised.value.params["first"], raised.value.params["line"]) == where


def test_a_canvas_login_that_cannot_be_an_id_is_refused_naming_the_line(tmp_path: Path) -> None:
    copy = tmp_path / "canvas.csv"
    copy.write_text(CANVAS.read_text(encoding="utf-8").replace(",lihua,", ",li@hua,"))
    with pytest.raises(UsageError) as raised:
        read_any_roster(copy)
    assert raised.value.message_id == "error.roster_lms_id"
    assert raised.value.params["line"] == 5


def test_importing_keeps_what_a_file_leaves_empty_and_refuses_a_shared_identity(
    tmp_path: Path,
) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        import_roster(book, read_any_roster(CANVAS, "sis_user_id"))
        import_roster(book, read_any_roster(MOODLE))  # adds emails, keeps Canvas's ids
        held = {s.student: s for s in roster(book)}
        assert held["2025013010"].canvas_id == "91010"
        assert held["2025013010"].email == "zhangwei@example.edu"
        assert held["2025013010"].name == "Wei Zhang"
        before = roster(book)
        with pytest.raises(UsageError) as raised:  # a second student with zhangwei's email
            import_roster(book, [Student("intruder", email="ZhangWei@example.edu")])
        assert raised.value.message_id == "error.roster_repeated"
        assert roster(book) == before  # nothing written


def test_bulk_download_names_map_through_the_roster() -> None:
    students = [
        Student("zhangwei", canvas_id="91010", moodle_participant="3344556"),
        Student("lihua", canvas_id="91011"),
    ]
    names = [
        "zhangwei_91010_3344556_zhangwei.zip",
        "lihua_LATE_91011_3344600_lihua-1.zip",
        "ghost_99999_3344601_ghost.zip",
        "zhangwei_91010_3344556_notes.txt",  # not a hand-in zip: not an LMS hand-in
        "Wei Zhang_3344556_assignsubmission_file_",
        "Nobody_1234567_assignsubmission_file_",
        "alice",  # the grader's own layout: left alone
    ]
    mapped = {m.entry: (m.student, m.problem) for m in map_download_names(names, students)}
    assert mapped == {
        "zhangwei_91010_3344556_zhangwei.zip": ("zhangwei", ""),
        "lihua_LATE_91011_3344600_lihua-1.zip": ("lihua", ""),
        "ghost_99999_3344601_ghost.zip": (None, "batch.lms_unknown_canvas_id"),
        "Wei Zhang_3344556_assignsubmission_file_": ("zhangwei", ""),
        "Nobody_1234567_assignsubmission_file_": (None, "batch.lms_unknown_participant"),
    }
    assert map_download_names(names, [Student("zhangwei")]) == []  # no LMS ids: no mapping
