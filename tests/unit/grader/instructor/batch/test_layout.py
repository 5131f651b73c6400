"""The submissions layout: student ids, what is skipped, where an exercise's file is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grader.app.handin import valid_student_id
from grader.errors import UsageError
from grader.instructor.batch.layout import discover, locate
from grader.judge.exercises import get_exercise


@pytest.mark.parametrize("good", ["alice", "a", "s001-ref", "Li.Lei_2", "9", "x" * 64, "_x"])
def test_valid_student_ids(good: str) -> None:
    assert valid_student_id(good)


@pytest.mark.parametrize(
    "bad", ["", ".hidden", "-dash", "a b", "x" * 65, "ä", "a/b", "a\nb", "..", "a:b", "李雷"]
)
def test_invalid_student_ids(bad: str) -> None:
    assert not valid_student_id(bad)


def test_discover_lists_folders_and_zips_and_skips_the_rest(tmp_path: Path) -> None:
    (tmp_path / "alice").mkdir()
    (tmp_path / "bob.zip").write_bytes(b"")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "-x.zip").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "carol.tar").write_text("x")
    os.symlink(tmp_path / "alice", tmp_path / "linked")
    os.symlink(tmp_path / "bob.zip", tmp_path / "linked2.zip")
    found = discover(tmp_path)
    assert [(s.student, s.kind) for s in found.students] == [("alice", "folder"), ("bob", "zip")]
    assert set(found.skipped) == {".hidden", "-x.zip", "notes.txt", "carol.tar",
                                  "linked", "linked2.zip"}  # fmt: skip


def test_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as raised:
        discover(tmp_path / "nope")
    assert raised.value.message_id == "error.no_submissions_folder"
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError):
        discover(tmp_path / "file")


def test_locate_prefers_the_conventional_file_then_a_single_notebook(tmp_path: Path) -> None:
    exercise = get_exercise("EX-11-01")
    assert locate(tmp_path, exercise).missing
    folder = tmp_path / "EX-11-01"
    folder.mkdir()
    empty = locate(tmp_path, exercise)
    assert (empty.path, empty.problem_id) == (None, "batch.exercise_empty")
    (folder / "a.ipynb").write_text("{}")
    assert locate(tmp_path, exercise).path == folder / "a.ipynb"
    (folder / "b.ipynb").write_text("{}")
    ambiguous = locate(tmp_path, exercise)
    assert ambiguous.problem_id == "batch.exercise_ambiguous"
    assert "a.ipynb, b.ipynb" in dict(ambiguous.problem_params)["files"]
    (folder / "retry_policy_probe.py").write_text("x = 1\n")
    assert locate(tmp_path, exercise).path == folder / "retry_policy_probe.py"


def test_locate_hands_a_linked_exercise_folder_to_the_reader(tmp_path: Path) -> None:
    """A link where the folder should be is not "missing": the reader refuses it by name."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "EX-11-01")
    located = locate(tmp_path, get_exercise("EX-11-01"))
    assert not located.missing and located.path == tmp_path / "EX-11-01" / "retry_policy_probe.py"
