"""A prose exercise's answer key: ``grader/private/<id>.toml``, data the student copy leaves out.

``grader release`` copies no ``grader/private/``, so a student's copy has specs without
concepts: a prose answer is checked for length and then waits for the instructor
(``needs_review``). In the instructors' tree ``get_exercise`` fills a prose spec's
``sections`` and ``concepts`` from this file, and ``grader.judge.texts`` registers its
zh/en texts (concept summaries, section labels) for the catalogue.

The file (format 1; the example is made up, the real keys are not in the student copy)::

    format = 1
    exercise = "EX-99-02"

    [fragments]                 # named pieces of patterns, written ${NAME} in a pattern
    GAP = '.{0,10}'             # (a fragment may use the fragments above it)

    [[sections]]                # template sections: where a concept is looked for
    name = "why"
    heading = 'why|为什么'       # a bounded regular expression
    label = { zh = "“为什么”一节", en = 'section "why"' }

    [[concepts]]
    id = "tea_needs_hot_water"
    points = 1.0
    sections = ["why"]          # empty or absent: anywhere
    summary = { zh = "泡茶要用热水", en = "tea needs hot water" }
    # Stated when, for one alternative, every term matches, not negated, in one sentence.
    alternatives = [['tea|茶', 'hot${GAP}water|热水'], ['boil${GAP}kettle']]

    # Alternatives that state the opposite claim: a sentence matching one contradicts it.
    contradicts = [['tea|茶', 'cold${GAP}water|冷水']]

Claims by polarity: a concept's ``contradicts`` are claims (the opposite one, "the loser
does not wait"), not phrasings, written like its ``alternatives``; a sentence that states
one of them as the student's own (not negated, denied or attributed: see
``grader.judge.rubric.polarity``) earns no credit and is shown to the reviewer as
"contradicts: ...". Alternatives and contradictions alike are claims, so a student who
denies or attributes one ("有人说 X，这是误解") neither states nor contradicts it; an
alternative may hold the denied opposite on purpose ("只在 retry 分支里去重是不够的"). ``[synonyms]`` is the bilingual word table of plain-word paraphrases
of a technical term, each usable as ``${NAME}`` like a fragment::

    [synonyms]                  # each list needs a Chinese and an English (ASCII) word
    KETTLE = ['kettle', 'boiler', '水壶', '烧水壶']

Synonyms are expanded before the fragments (a fragment may use them). Patterns are checked
by ``grader.judge.rubric.patterns.lint`` when they are compiled (and by the tests).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Collection
from functools import cache
from pathlib import Path
from typing import Any

from grader.errors import InternalError
from grader.judge.exercises.spec import Concept, ProseExercise, Section

#: Where the answer keys are (a test may point it at another folder).
PRIVATE_DIR = Path(__file__).resolve().parents[2] / "private"
FORMAT = 1
LANGS = ("zh", "en")
_FRAGMENT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclasses.dataclass(frozen=True)
class AnswerKey:
    sections: tuple[Section, ...]
    concepts: tuple[Concept, ...]
    #: Catalogue texts: ``concept.<id>.<concept>`` and ``rubric.section.<id>.<section>``.
    texts: dict[str, dict[str, str]]


class _Invalid(ValueError):
    pass


def answer_key_file(exercise_id: str) -> Path:
    return PRIVATE_DIR / f"{exercise_id}.toml"


def answer_key(exercise_id: str) -> AnswerKey | None:
    """The exercise's answer key, or None when its file is absent (a student copy)."""
    path = answer_key_file(exercise_id)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise InternalError("error.answer_key", path=str(path), detail=str(error)) from error
    return _load(path, exercise_id, stat.st_mtime_ns, stat.st_size)


def with_answer_key(exercise: ProseExercise) -> ProseExercise:
    """``exercise`` with the sections and concepts of its answer key (unchanged without one)."""
    key = answer_key(exercise.id)
    if key is None:
        return exercise
    return dataclasses.replace(exercise, sections=key.sections, concepts=key.concepts)


@cache
def _load(path: Path, exercise_id: str, _mtime_ns: int, _size: int) -> AnswerKey:
    """Parsed once per content version (the stat is part of the cache key)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return _parse(data, exercise_id)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, _Invalid) as error:
        raise InternalError("error.answer_key", path=str(path), detail=str(error)) from error


def _parse(data: dict[str, Any], exercise_id: str) -> AnswerKey:
    _keys(
        data,
        "the file",
        required={"format", "exercise", "concepts"},
        optional={"synonyms", "fragments", "sections"},
    )
    if data["format"] != FORMAT:
        raise _Invalid(f"format = {data['format']!r}; this grader reads format = {FORMAT}")
    if data["exercise"] != exercise_id:
        raise _Invalid(f"exercise = {data['exercise']!r}, but the file is {exercise_id}'s")
    fragments = _fragments(data.get("fragments", {}), _synonyms(data.get("synonyms", {})))
    texts: dict[str, dict[str, str]] = {}
    sections = []
    for index, raw in enumerate(_tables(data.get("sections", []), "sections")):
        where = f"sections[{index}]"
        _keys(raw, where, required={"name", "heading", "label"})
        name = _text(raw["name"], f"{where}.name")
        sections.append(Section(name, _expand(raw["heading"], fragments, f"{where}.heading")))
        texts[f"rubric.section.{exercise_id}.{name}"] = _langs(raw["label"], f"{where}.label")
    known = {section.name for section in sections}
    concepts = []
    for index, raw in enumerate(_tables(data["concepts"], "concepts")):
        where = f"concepts[{index}]"
        _keys(
            raw,
            where,
            required={"id", "points", "summary", "alternatives"},
            optional={"sections", "contradicts"},
        )
        concept = _concept(raw, where, fragments, known)
        concepts.append(concept)
        texts[f"concept.{exercise_id}.{concept.name}"] = _langs(raw["summary"], f"{where}.summary")
    if not concepts:
        raise _Invalid("no [[concepts]]: a rubric needs at least one")
    if len({c.name for c in concepts}) != len(concepts) or len(known) != len(sections):
        raise _Invalid("a concept id or section name is used twice")
    return AnswerKey(tuple(sections), tuple(concepts), texts)


def _concept(
    raw: dict[str, Any], where: str, fragments: dict[str, str], known: set[str]
) -> Concept:
    points = raw["points"]
    if isinstance(points, bool) or not isinstance(points, int | float) or points <= 0:
        raise _Invalid(f"{where}.points must be a positive number, not {points!r}")
    sections = tuple(
        _text(s, f"{where}.sections") for s in _list(raw.get("sections", []), f"{where}.sections")
    )
    if unknown := set(sections) - known:
        raise _Invalid(f"{where}.sections names no [[sections]]: {sorted(unknown)}")
    alternatives = _alternatives(raw["alternatives"], f"{where}.alternatives", fragments)
    if not alternatives:
        raise _Invalid(f"{where}.alternatives: give at least one, each with at least one term")
    contradicts = _alternatives(raw.get("contradicts", []), f"{where}.contradicts", fragments)
    name = _text(raw["id"], f"{where}.id")
    return Concept(
        name, alternatives, points=float(points), sections=sections, contradicts=contradicts
    )


def _alternatives(
    raw: object, where: str, fragments: dict[str, str]
) -> tuple[tuple[str, ...], ...]:
    alternatives = []
    for number, terms in enumerate(_list(raw, where)):
        spot = f"{where}[{number}]"
        alternative = tuple(_expand(term, fragments, spot) for term in _list(terms, spot))
        if not alternative:
            raise _Invalid(f"{spot}: an alternative needs at least one term")
        alternatives.append(alternative)
    return tuple(alternatives)


def _synonyms(raw: object) -> dict[str, str]:
    """``NAME = ['word', '词', ...]`` -> ``{NAME: '(?:word|词|...)'}``; every list bilingual."""
    if not isinstance(raw, dict):
        raise _Invalid("[synonyms] must be a table of NAME = ['word', '词', ...]")
    table = {}
    for name, words in raw.items():
        where = f"synonyms.{name}"
        texts = [_text(word, where) for word in _list(words, where)]
        if not any(text.isascii() for text in texts) or all(text.isascii() for text in texts):
            raise _Invalid(f"{where} must hold both an English and a Chinese word")
        table[name] = "(?:" + "|".join(texts) + ")"
    return table


def _fragments(raw: object, synonyms: dict[str, str]) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise _Invalid("[fragments] must be a table of NAME = 'pattern'")
    expanded: dict[str, str] = dict(synonyms)
    for name, value in raw.items():
        expanded[name] = _expand(value, expanded, f"fragments.{name}")
    return expanded


def _expand(pattern: object, fragments: dict[str, str], where: str) -> str:
    text = _text(pattern, where)

    def fragment(match: re.Match[str]) -> str:
        if match[1] not in fragments:
            raise _Invalid(f"{where} uses ${{{match[1]}}}, which no fragment above defines")
        return fragments[match[1]]

    return _FRAGMENT.sub(fragment, text)


def _keys(
    raw: dict[str, Any], where: str, required: set[str], optional: Collection[str] = ()
) -> None:
    if missing := required - set(raw):
        raise _Invalid(f"{where} lacks {sorted(missing)}")
    if unknown := set(raw) - required - set(optional):
        raise _Invalid(f"{where} has unknown keys {sorted(unknown)}")


def _tables(raw: object, where: str) -> list[dict[str, Any]]:
    items = _list(raw, where)
    if not all(isinstance(item, dict) for item in items):
        raise _Invalid(f"{where} must be an array of tables ([[{where}]])")
    return items


def _list(raw: object, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise _Invalid(f"{where} must be an array")
    return raw


def _text(raw: object, where: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise _Invalid(f"{where} must be a non-empty string")
    return raw


def _langs(raw: object, where: str) -> dict[str, str]:
    if not isinstance(raw, dict) or set(raw) != set(LANGS):
        raise _Invalid(f"{where} must be {{ zh = '...', en = '...' }}")
    return {lang: _text(raw[lang], f"{where}.{lang}") for lang in LANGS}


def private_files() -> list[Path]:
    """Every answer-key file there is (their texts are registered by ``grader.judge.texts``)."""
    return sorted(PRIVATE_DIR.glob("*.toml")) if PRIVATE_DIR.is_dir() else []


__all__ = ["AnswerKey", "answer_key", "answer_key_file", "private_files", "with_answer_key"]
