"""Acceptance answers written from the course sources: honest ones score at least 60 %
provisionally, wrong-but-on-topic and keyword-stuffed ones at most 40 %.

Files: ``files/<exercise>/<kind>-<style>.md`` with kind ``honest``, ``wrong`` or ``stuffed``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import score_answer
from grader.judge.rubric.patterns import compiled
from grader.judge.rubric.text import read_answer
from grader.judge.starters import starter_template

FILES = Path(__file__).parent / "files"
ANSWERS = sorted(FILES.glob("EX-*/*.md"))


def _spec(exercise_id: str) -> ProseExercise:
    spec = get_exercise(exercise_id)
    assert isinstance(spec, ProseExercise)
    return spec


def test_every_exercise_has_the_required_answers() -> None:
    for exercise_id in ("EX-11-02", "EX-12-02", "EX-13-02"):
        kinds = [path.name.split("-")[0] for path in (FILES / exercise_id).glob("*.md")]
        assert kinds.count("honest") >= 5 and kinds.count("wrong") >= 2
        assert kinds.count("stuffed") >= 1


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_provisional_score_matches_the_kind_of_answer(path: Path) -> None:
    spec = _spec(path.parent.name)
    result = score_answer(spec, path.read_text(encoding="utf-8"), starter_template(spec.id))
    share = result.score / spec.max_score
    if path.name.startswith("honest"):
        assert share >= 0.6, result
    else:
        assert share <= 0.4, result


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_re2_and_the_pure_python_fallback_find_the_same_terms(path: Path) -> None:
    pytest.importorskip("re2", reason="google-re2 is not available")
    spec = _spec(path.parent.name)
    answer = read_answer(path.read_text(encoding="utf-8"), "", spec.sections)
    terms = {t for c in spec.concepts for alternative in c.alternatives for t in alternative}
    for sentence in answer.sentences:
        for term in terms:
            fallback = [(m.start(), m.end()) for m in compiled(term, "re").finditer(sentence.text)]
            linear = [(m.start(), m.end()) for m in compiled(term, "re2").finditer(sentence.text)]
            assert fallback == linear, (term, sentence.text)
