"""Nothing provisional reaches the LMS by default: ``export`` leaves an undecided prose cell
blank and says how many; ``--provisional`` exports it and names each on stderr. A
submission that needs re-submission is blank and named; code that does not parse is 0."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import error_entry
from tests.unit.grader.instructor.gradebook.factories import (
    broken_entry,
    code_entry,
    key,
    prose_entry,
)


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with Gradebook(url) as book:
        book.record(code_entry("alice"))
        book.record(prose_entry("alice"))  # provisional 1 of 2, undecided
        book.record(broken_entry("bob"))  # an unsafe zip: needs re-submission
        book.record(
            error_entry(key("carol", "EX-11-01", "def (:\n"), "code", 2.0, "error.syntax", {})
        )
    return url


def _cells(out: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(out.removeprefix("\ufeff"))))
    return {row[0]: row[1:] for row in rows[2:]}


def test_by_default_the_undecided_answer_is_blank_and_counted(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--db", url, "--format", "csv", "--lang", "en"]) == 0
    captured = capsys.readouterr()
    cells = _cells(captured.out)
    assert cells["alice"][:2] == ["2", ""]
    assert cells["bob"][0] == "" and cells["carol"][0] == "0"  # does not parse: a real 0
    assert "1 prose answer(s) still await the instructor and were exported EMPTY" in captured.err
    assert "alice EX-11-02" in captured.err
    assert "1 cell(s) need re-submission" in captured.err and "bob EX-11-01" in captured.err
    assert "carol" not in captured.err


def test_provisional_exports_them_each_named(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["export", "--db", url, "--format", "csv", "--lang", "en", "--provisional"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert _cells(captured.out)["alice"][:2] == ["2", "1"]
    assert "1 provisional score(s), not decided by the instructor" in captured.err
    assert "alice EX-11-02" in captured.err
