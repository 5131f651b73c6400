"""grader.judge.texts: the texts beside exercises and stand-ins, read strictly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import grader.judge.texts as texts
from grader.errors import InternalError


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The exercises' texts files, copied to a folder the registry reads instead."""
    copy = tmp_path / "exercises"
    copy.mkdir()
    for path in texts.EXERCISES_DIR.glob(f"ex_*{texts.TEXTS_SUFFIX}"):
        shutil.copy2(path, copy)
    monkeypatch.setattr(texts, "EXERCISES_DIR", copy)
    monkeypatch.setattr(texts, "_last", (0.0, None))
    return copy


def test_an_edited_title_is_read_again(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert texts.registered_texts()["exercise.EX-11-01.title"]["en"]
    path = folder / "ex_11_01.texts.toml"
    path.write_text('["exercise.EX-11-01.title"]\nzh = "新标题"\nen = "A new title"\n', "utf-8")
    monkeypatch.setattr(texts, "_last", (0.0, texts._last[1]))  # as if a second went by
    assert texts.registered_texts()["exercise.EX-11-01.title"] == {
        "zh": "新标题",
        "en": "A new title",
    }


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ('["exercise.EX-11-01.title"]\nzh = "只有中文"\n', "exactly zh"),
        ('["exercise.EX-11-01.title"]\nzh = ""\nen = "x"\n', "non-empty"),
        ('["mutant.always_true"]\nzh = "重复"\nen = "twice"\n', "ids given twice"),
        ('["exercise.EX-11-01.title"\n', "Expected ']'"),
    ],
)
def test_a_malformed_texts_file_is_refused_with_its_path(
    folder: Path, text: str, complaint: str
) -> None:
    path = folder / "ex_11_01.texts.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InternalError) as raised:
        texts.registered_texts()
    assert raised.value.message_id == "error.texts_file"
    assert complaint in str(raised.value.params["detail"])
