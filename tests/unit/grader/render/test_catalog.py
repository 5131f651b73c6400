"""The zh and en catalogues say the same things, and every id the grader uses exists."""

from __future__ import annotations

import string

import pytest

from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import CodeExercise, ProseExercise
from grader.judge.results import Message
from grader.render.catalog import render_message, resolve_lang
from grader.render.messages_en import MESSAGES as EN
from grader.render.messages_zh import MESSAGES as ZH


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_the_same_ids_and_placeholders() -> None:
    assert set(ZH) == set(EN)
    for key in ZH:
        assert _fields(ZH[key]) == _fields(EN[key]), key


def test_every_id_an_exercise_needs_is_in_the_catalogue() -> None:
    needed = set()
    for exercise_id in exercise_ids():
        spec = get_exercise(exercise_id)
        needed.add(spec.title.id)
        if isinstance(spec, CodeExercise):
            for mutant in spec.mutants:
                needed |= {f"mutant.{mutant}", f"mutant.{mutant}.hint"}
            needed |= {f"twin.{twin}" for twin in spec.twins}
        else:
            assert isinstance(spec, ProseExercise)
            needed |= {f"concept.{spec.id}.{concept.name}" for concept in spec.concepts}
    assert needed - set(ZH) == set()


def test_nested_messages_render_in_the_same_language() -> None:
    survived = {"mutant": Message("mutant.always_true")}
    assert "总是返回 True" in render_message("mutant.survived", survived, "zh")
    assert "always returns True" in render_message("mutant.survived", survived, "en")


def test_parameters_are_inserted_verbatim_not_formatted_again() -> None:
    text = render_message("run.exit_code", {"code": "{0.__class__}"}, "en")
    assert "{0.__class__}" in text


@pytest.mark.parametrize(
    ("requested", "env", "expected"),
    [("en", None, "en"), (None, "en_US.UTF-8", "en"), (None, None, "zh"), ("fr", "xx", "zh")],
)
def test_language_resolution(
    requested: str | None, env: str | None, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if env is None:
        monkeypatch.delenv("GRADER_LANG", raising=False)
    else:
        monkeypatch.setenv("GRADER_LANG", env)
    assert resolve_lang(requested) == expected
