"""What is not a class, and a gradebook the grader did not create, are refused (exit 2)
before anything is written; ``--dry-run`` writes nothing; read-only commands never create
a gradebook at a mistyped path."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tests.e2e.batch_support import grader
from tests.support.classroom import REPO, make_class
from tests.unit.grader.instructor.gradebook.test_guard import CASES

pytestmark = pytest.mark.e2e


def snapshot(root: Path) -> dict[str, str]:
    """Every path under ``root`` with its content's sha256 (folders: "dir")."""
    return {
        str(path.relative_to(root)): "dir"
        if path.is_dir()
        else hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
    }


@pytest.fixture
def course_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "course"
    copy.mkdir()
    for name in ("exercises", "solutions", "lessons"):
        shutil.copytree(REPO / name, copy / name)
    (copy / "src").mkdir()
    (copy / "grader").mkdir()
    shutil.copy(REPO / "pyproject.toml", copy / "pyproject.toml")
    return copy


def test_one_students_folder_is_refused_and_nothing_written(tmp_path: Path) -> None:
    make_class(tmp_path / "submissions", tmp_path / "unused.db", ["reference"])
    before = snapshot(tmp_path)
    ran = grader("grade", "submissions/s000-reference", "--lang", "en", cwd=tmp_path)
    assert ran.code == 2
    assert "looks like one student's folder" in ran.stderr and "EX-11-01" in ran.stderr
    assert snapshot(tmp_path) == before  # no gradebook.db, nothing changed


def test_the_course_copy_is_refused_and_nothing_written(tmp_path: Path, course_copy: Path) -> None:
    before = snapshot(tmp_path)
    ran = grader("grade", "course", "--lang", "en", cwd=tmp_path)
    assert ran.code == 2
    assert "looks like a copy of the course" in ran.stderr and "pyproject.toml" in ran.stderr
    assert snapshot(tmp_path) == before


def test_dry_run_lists_and_writes_nothing_and_force_grades(tmp_path: Path) -> None:
    folder = tmp_path / "submissions"
    make_class(folder, tmp_path / "unused.db", ["prose_en", "reference_zip"])
    (folder / "s000-prose-en.zip").write_bytes((folder / "s001-reference-zip.zip").read_bytes())
    before = snapshot(tmp_path)
    ran = grader("grade", "submissions", "--dry-run", "--lang", "en", cwd=tmp_path)
    assert ran.code == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert "grade   s001-reference-zip (zip)" in lines
    assert any(line.startswith("refuse  s000-prose-en:") for line in lines)
    assert any(line.startswith("skip    notes.txt") for line in lines)
    assert lines[-1] == "Dry run: 1 to grade, 1 refused, 5 skipped; nothing was written."
    assert snapshot(tmp_path) == before
    student = "submissions/s000-prose-en"
    forced = grader("grade", student, "--force", "--dry-run", "--json", cwd=tmp_path)
    assert forced.code == 0, forced.stderr  # --force: the refusal is lifted
    assert {"action": "grade", "name": "EX-11-02", "kind": "folder"} in forced.json()
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", ["grade", "export", "stats", "feedback"])
def test_a_foreign_gradebook_is_refused_unchanged(tmp_path: Path, case: str, command: str) -> None:
    make_class(tmp_path / "submissions", tmp_path / "unused.db", ["prose_en"])
    path = tmp_path / "other.db"
    CASES[case][0](path)
    before = snapshot(tmp_path)
    args = {
        "grade": ["grade", "submissions", "--exercise", "EX-11-02"],
        "export": ["export", "--format", "csv"],
        "stats": ["stats"],
        "feedback": ["feedback", "--out", "pages"],
    }[command]
    ran = grader(*args, "--db", f"sqlite:///{path}", "--lang", "en", cwd=tmp_path)
    assert ran.code == 2, ran.stderr
    assert "left unchanged" in ran.stderr and "course staff" not in ran.stderr
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", [["export"], ["stats"], ["feedback", "--out", "pages"]])
def test_a_read_only_command_on_a_missing_path_creates_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    ran = grader(*command, "--db", "sqlite:///typo.db", "--lang", "en", cwd=tmp_path)
    assert ran.code == 2
    assert "There is no gradebook" in ran.stderr
    assert list(tmp_path.iterdir()) == []
