"""The zh and en texts say the same things, every id the grader uses exists, and the UI
catalogue holds UI strings only (texts about one exercise or stand-in sit beside it)."""

from __future__ import annotations

import string

import pytest

from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import CodeExercise, ProseExercise
from grader.judge.results import Message
from grader.judge.texts import registered_texts
from grader.render.catalog import catalogue, render_message, resolve_lang
from grader.render.messages import MESSAGES


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("source", ["ui", "registered"])
def test_both_languages_have_the_same_ids_and_placeholders(source: str) -> None:
    texts = MESSAGES if source == "ui" else registered_texts()
    assert len(texts) > 40
    for key, entry in texts.items():
        assert set(entry) == {"zh", "en"}, key
        assert entry["zh"] and entry["en"], key
        assert _fields(entry["zh"]) == _fields(entry["en"]), key
    assert set(catalogue("zh")) == set(catalogue("en")) == set(MESSAGES) | set(registered_texts())


def test_a_missing_parameter_in_one_language_is_caught() -> None:
    # The check above can fail: the same comparison on a pair that disagrees.
    assert _fields("退出码 {code}") != _fields("exit code {code} after {seconds} s")


def _exercise_ids_needed() -> set[str]:
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
            needed |= {f"rubric.section.{spec.id}.{section.name}" for section in spec.sections}
    return needed


def test_every_id_an_exercise_needs_is_registered_beside_it_not_in_the_ui_catalogue() -> None:
    needed = _exercise_ids_needed()
    assert any(key.startswith("concept.EX-11-02.") for key in needed)  # the answer keys are read
    assert needed - set(registered_texts()) == set()
    assert needed & set(MESSAGES) == set()
    assert set(registered_texts()) - needed == set()  # no text for a stand-in nobody uses
    assert set(MESSAGES) & set(registered_texts()) == set()


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
