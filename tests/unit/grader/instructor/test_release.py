"""grader.instructor.release: what the student copy refuses, redacts and records."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.frontends.cli import main
from grader.instructor.release import _without_concepts, build_release

FILES = Path(__file__).parent / "files" / "release"
REPO = Path(__file__).resolve().parents[4]


def test_concept_texts_are_removed_one_line_and_block() -> None:
    source = (FILES / "catalogue.txt").read_text(encoding="utf-8")
    assert _without_concepts(source) == (FILES / "catalogue-redacted.txt").read_text("utf-8")


def test_an_unknown_catalogue_layout_is_refused_rather_than_shipped() -> None:
    source = 'MESSAGES = {\n  "x": 1, "concept.EX-11-02.inline": "secret",\n}\n'
    with pytest.raises(UsageError) as raised:
        _without_concepts(source)
    assert raised.value.message_id == "error.release_redaction"


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
