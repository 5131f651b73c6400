"""Acceptance answers written from the course sources: honest ones score at least 60 %
provisionally, wrong-but-on-topic and keyword-stuffed ones at most 40 %.

Files: ``files/<exercise>/<kind>-<style>.md`` with kind ``honest`` (``honest-plain-*``: in
plain words, without the jargon), ``wrong``, ``stuffed``, ``contradicting`` (confidently
wrong with every right term: at most 40 %, and each concept its first line names,
``<!-- contradicts: a, b -->``, is shown as contradicted with its sentence), ``pasted``
(the statement and hint pasted back: at most 20 %) or ``partial`` (correct but for the
concept named by ``<!-- missing: a -->``: that one missing, every other one found).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import judge_prose, score_answer
from grader.judge.rubric.patterns import compiled
from grader.judge.rubric.text import normalize, read_answer
from grader.judge.starters import starter_template
from grader.judge.statements import statement_text

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
        for kind in ("contradicting", "pasted", "partial"):
            assert kinds.count(kind) >= 1, (exercise_id, kind)
        assert list((FILES / exercise_id).glob("honest-plain-*.md")), exercise_id


def _named(text: str, key: str) -> list[str]:
    found = re.match(rf"<!-- {key}: ([a-z_, ]+) -->", text)
    assert found, f"the file must start with <!-- {key}: ... -->"
    return [name.strip() for name in found.group(1).split(",")]


def _score(path: Path) -> tuple[ProseExercise, str, float, dict[str, str]]:
    spec = _spec(path.parent.name)
    text = path.read_text(encoding="utf-8")
    result = score_answer(spec, text, starter_template(spec.id), statement=statement_text(spec.id))
    return spec, text, result.score / spec.max_score, {c.name: c.status for c in result.concepts}


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_provisional_score_matches_the_kind_of_answer(path: Path) -> None:
    spec, text, share, status = _score(path)
    kind = path.name.split("-")[0]
    if kind == "honest":
        assert share >= 0.6, status
    elif kind == "pasted":
        assert share <= 0.2, status
    elif kind == "partial":
        missing = _named(text, "missing")
        assert all(status[name] == "missing" for name in missing), status
        assert all(s == "found" for name, s in status.items() if name not in missing), status
    else:
        assert share <= 0.4, status
    if kind == "contradicting":
        named = _named(text, "contradicts")
        assert all(status[name] == "contradicted" for name in named), status
        checks = {c.name: c for c in judge_prose(spec, text, statement=statement_text(spec.id))}
        for name in named:
            shown = checks[f"concept:{name}"]
            assert shown.message.id == "concept.contradicted"
            sentence = shown.message.params["sentence"]
            assert (
                isinstance(sentence, str)
                and sentence in normalize(text)
                and shown.evidence == sentence
            )


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
