"""Usage and input errors: exit 2, a message saying what to do, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, Course

pytestmark = pytest.mark.e2e


def test_unknown_exercise_suggests_the_closest(course: Course) -> None:
    result = course.run("check", "EX-21-01", "--lang", "en")
    assert result.code == 2
    assert "Did you mean EX-11-01?" in result.stderr


def test_unknown_exercise_as_json(course: Course) -> None:
    result = course.run("check", "EX-99-99", "--json")
    assert result.code == 2
    report = result.json()
    assert report["status"] == "error" and report["error"]["id"] == "error.unknown_exercise"


def test_syntax_error_names_the_line(course: Course, tmp_path: Path) -> None:
    path = tmp_path / "probe.py"
    path.write_text("import os\n\nprint(os.getcwd()\n", encoding="utf-8")
    result = course.run("check", "EX-11-01", "--path", str(path), "--lang", "en")
    assert result.code == 2
    assert "line 3" in result.stderr and str(path) in result.stderr


def test_missing_file_and_invalid_notebook(course: Course, tmp_path: Path) -> None:
    missing = course.run("check", "EX-12-01", "--path", str(tmp_path / "nope.py"))
    assert missing.code == 2 and "找不到" in missing.stderr
    notebook = tmp_path / "broken.ipynb"
    notebook.write_text("{ not json", encoding="utf-8")
    invalid = course.run("check", "EX-12-01", "--path", str(notebook), "--lang", "en")
    assert invalid.code == 2 and "not a valid Jupyter notebook" in invalid.stderr


def test_no_course_root_is_a_usage_error(tmp_path: Path) -> None:
    outside = Course(tmp_path)
    result = outside.run("check", "EX-11-01", "--lang", "en")
    assert result.code == 2 and "--root" in result.stderr


def test_bad_arguments_exit_2(course: Course) -> None:
    assert course.run("check").code == 2
    assert course.run("check", "EX-11-01", "--lang", "fr").code == 2


def test_a_symlink_to_the_solution_is_refused_not_graded(course: Course, tmp_path: Path) -> None:
    link = tmp_path / "retry_policy_probe.py"
    link.symlink_to(REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py")
    result = course.run("check", "EX-11-01", "--path", str(link), "--json", "--lang", "en")
    assert result.code == 2
    error = result.json()["error"]
    assert error["id"] == "error.submission_symlink"
    assert "symbolic link; hand in the file itself" in error["message"]
    zh = course.run("check", "EX-11-01", "--path", str(link))
    assert zh.code == 2 and "符号链接" in zh.stderr


def test_a_fifo_is_refused_at_once(course: Course, tmp_path: Path) -> None:
    fifo = tmp_path / "retry_policy_probe.py"
    os.mkfifo(fifo)
    result = course.run("check", "EX-11-01", "--path", str(fifo), "--lang", "en")
    assert result.code == 2 and "not a regular file" in result.stderr


def test_a_symlinked_folder_on_the_path_is_refused(course: Course, tmp_path: Path) -> None:
    archive = course.root / "handed-in"
    archive.mkdir()
    (archive / "ex11").symlink_to(REPO / "solutions" / "EX-11-01")
    path = "handed-in/ex11/retry_policy_probe.py"
    result = course.run("check", "EX-11-01", "--path", path, "--json", "--lang", "en")
    assert result.code == 2
    assert result.json()["error"]["id"] == "error.submission_linked_folder"
