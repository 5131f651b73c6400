"""``grader export --out``: a folder that does not exist is a usage error (exit 2, not 3),
and an existing file that is not an export of this gradebook is not replaced unless
``--force``; either way nothing is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.export_file import is_export_of
from tests.unit.grader.instructor.gradebook.factories import code_entry, prose_entry

FORMATS = ("csv", "canvas", "moodle", "json")


def _fill(path: Path, students: tuple[str, ...]) -> str:
    url = f"sqlite:///{path}"
    with Gradebook(url) as book:
        for student in students:
            book.record(code_entry(student))
            book.record(prose_entry(student))
    return url


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield _fill(tmp_path / "gradebook.db", ("alice", "bob"))


def _export(db: str, fmt: str, out: Path, *more: str) -> int:
    argv = ["export", "--db", db, "--format", fmt, "--out", str(out), "--lang", "en"]
    return main([*argv, "--identifier", "username", *more])


def test_an_out_folder_that_does_not_exist_is_exit_2_and_nothing_is_written(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "no-such-folder" / "grades.csv"
    assert _export(db, "csv", out) == 2
    err = capsys.readouterr().err
    assert "the folder" in err and "does not exist" in err and "Traceback" not in err
    assert not out.parent.exists()
    assert _export(db, "csv", tmp_path) == 2  # a folder as --out
    assert "is a folder" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", FORMATS)
def test_re_exporting_over_this_gradebooks_own_export_is_allowed(
    db: str, tmp_path: Path, fmt: str
) -> None:
    out = tmp_path / f"grades.{fmt}"
    assert _export(db, fmt, out) == 0
    first = out.read_bytes()
    with Gradebook(db) as book:  # a new student graded since: the export grows
        book.record(code_entry("carol"))
    assert _export(db, fmt, out) == 0
    assert out.read_bytes() != first and b"carol" in out.read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
def test_another_gradebooks_export_is_refused_and_kept_unless_force(
    db: str, tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    other = _fill(tmp_path / "section-b.db", ("zoe",))
    out = tmp_path / f"section-b.{fmt}"
    assert _export(other, fmt, out) == 0
    kept = out.read_bytes()
    capsys.readouterr()
    assert _export(db, fmt, out) == 2
    err = capsys.readouterr().err
    assert "is not a" in err and "export of this gradebook" in err and "--force" in err
    assert out.read_bytes() == kept
    assert _export(db, fmt, out, "--force") == 0
    assert b"alice" in out.read_bytes() and b"zoe" not in out.read_bytes()


@pytest.mark.parametrize(
    "content",
    [
        "id,name,email\r\nalice,Alice,a@example.org\r\n",  # a roster
        "my notes about the class\n",
        "",
    ],
)
def test_a_file_that_is_no_export_is_refused(db: str, tmp_path: Path, content: str) -> None:
    out = tmp_path / "roster.csv"
    out.write_bytes(content.encode("utf-8"))
    assert _export(db, "csv", out) == 2
    assert out.read_bytes() == content.encode("utf-8")


def test_is_export_of_reads_the_format_and_the_students() -> None:
    new = "\ufeffstudent,EX-11-01,total\r\nPoints Possible,3,3\r\nalice,3,3\r\nbob,1,1\r\n"
    assert is_export_of("student,EX-11-01,total\r\nalice,2,2\r\n", new, "csv")
    assert not is_export_of("student,EX-11-01,total\r\nmallory,2,2\r\n", new, "csv")
    assert not is_export_of("email,EX-11-01\r\nalice,2\r\n", new, "csv")
    assert not is_export_of(None, new, "csv")
    fresh = json.dumps({"exercises": [], "students": [{"student": "alice"}]})
    assert is_export_of(json.dumps({"exercises": [], "students": []}), fresh, "json")
    assert not is_export_of(json.dumps({"students": [{"student": "alice"}]}), fresh, "json")
    assert not is_export_of("[1, 2]", fresh, "json")
