"""grader.instructor.release: what the student copy refuses, copies as it is, leaves out
and records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.frontends.cli import main
from grader.instructor.release import MANIFEST, build_release

REPO = Path(__file__).resolve().parents[4]


def test_files_are_copied_as_they_are_and_the_manifest_lists_every_one(tmp_path: Path) -> None:
    release = build_release(REPO, tmp_path / "copy")
    on_disk = {p.relative_to(release.out).as_posix() for p in release.out.rglob("*") if p.is_file()}
    assert on_disk - {MANIFEST} == set(release.files)
    manifest = json.loads((release.out / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["files"] == sorted(on_disk - {MANIFEST})
    left_out = {entry["path"]: entry["reason"] for entry in manifest["left_out"]}
    assert {"solutions", "tests", "benchmarks", "grader/private"} <= set(left_out)
    assert "answer key" in left_out["grader/private"]
    # Nothing was rewritten: every grader file (the private ones aside) is byte for byte
    # the instructors' file, and no cache was copied.
    shipped = sorted(f for f in release.files if f.startswith("grader/"))
    assert "grader/judge/exercises/ex_11_02.py" in shipped
    assert [f for f in shipped if (release.out / f).read_bytes() != (REPO / f).read_bytes()] == []
    assert not any(f.startswith("grader/private") or "__pycache__" in f for f in release.files)
    assert (release.out / "README.md").read_bytes() == (REPO / "README.md").read_bytes()


def test_a_non_empty_output_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(UsageError) as raised:
        build_release(REPO, tmp_path, progress=lambda _key, _params: None)
    assert raised.value.message_id == "error.release_out_not_empty"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_an_output_folder_inside_the_course_is_refused() -> None:
    with pytest.raises(UsageError) as raised:
        build_release(REPO, REPO / "build" / "student", progress=lambda _key, _params: None)
    assert raised.value.message_id == "error.release_out_inside"
    assert not (REPO / "build" / "student").exists()


def test_the_cli_reports_a_refusal_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["release", "--out", str(tmp_path), "--root", str(REPO), "--lang", "en"]) == 2
    assert "not an empty folder" in capsys.readouterr().err
