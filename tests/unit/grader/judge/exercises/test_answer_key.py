"""The answer keys in grader/private/: read as data, strictly; without one, a prose answer
is checked for length and waits for the instructor (as in the student copy)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from grader.errors import InternalError
from grader.judge.exercises import answer_key as module
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.answer_key import answer_key, private_files
from grader.judge.exercises.spec import ProseExercise
from grader.judge.grading import prose_report
from grader.judge.rubric.patterns import lint
from grader.judge.starters import starter_template

PROSE = tuple(i for i in exercise_ids() if get_exercise(i).kind == "prose")
REAL_KEYS = module.PRIVATE_DIR
LONG_ANSWER = "先提交回执再写通知，中间崩溃就丢了通知。" * 6


def test_every_prose_exercise_has_a_key_and_every_key_an_exercise() -> None:
    assert PROSE == ("EX-11-02", "EX-12-02", "EX-13-02")
    assert [path.stem for path in private_files()] == list(PROSE)


@pytest.mark.parametrize("exercise_id", PROSE)
def test_a_key_gives_the_spec_its_rubric_and_every_pattern_is_bounded(exercise_id: str) -> None:
    key = answer_key(exercise_id)
    assert key is not None and len(key.concepts) >= 5
    spec = get_exercise(exercise_id)
    assert isinstance(spec, ProseExercise)
    assert (spec.concepts, spec.sections) == (key.concepts, key.sections)
    assert spec.max_score == sum(concept.points for concept in key.concepts)
    for concept in key.concepts:
        claims = (*concept.alternatives, *concept.contradicts)
        for term in (t for alternative in claims for t in alternative):
            assert "${" not in term, (concept.name, term)  # every fragment was expanded
            lint(term)
    for section in key.sections:
        lint(section.heading)


@pytest.fixture
def keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of grader/private/ that the loader reads instead."""
    folder = tmp_path / "private"
    shutil.copytree(module.PRIVATE_DIR, folder)
    monkeypatch.setattr(module, "PRIVATE_DIR", folder)
    return folder


def test_without_its_key_a_prose_answer_is_checked_for_length_then_awaits_review(
    keys: Path,
) -> None:
    (keys / "EX-12-02.toml").unlink()
    spec = get_exercise("EX-12-02")
    assert isinstance(spec, ProseExercise)
    assert spec.concepts == () and spec.sections == ()
    assert spec.max_score == 5  # the spec module's points: students learn what it is worth
    template = starter_template("EX-12-02")
    report = prose_report(spec, template + LONG_ANSWER, "en")
    assert report.status == "needs_review" and report.checks == ()
    assert (report.score, report.max_score) == (0, 5)
    short = prose_report(spec, template + "太短。", "en")
    assert short.status == "failed" and [c.name for c in short.checks] == ["length"]
    # With the key back, the same long answer is scored concept by concept.
    shutil.copy2(REAL_KEYS / "EX-12-02.toml", keys)
    spec = get_exercise("EX-12-02")
    assert isinstance(spec, ProseExercise)
    scored = prose_report(spec, template + LONG_ANSWER, "en")
    assert scored.status == "needs_review" and len(scored.checks) == 5


def test_an_edited_key_is_read_again(keys: Path) -> None:
    path = keys / "EX-13-02.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('id = "sqlite_loser"', 'id = "sqlite_waits"'), "utf-8")
    spec = get_exercise("EX-13-02")
    assert isinstance(spec, ProseExercise)
    names = [concept.name for concept in spec.concepts]
    assert "sqlite_waits" in names and "sqlite_loser" not in names


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        (("format = 1", "format = 2"), "format = 2"),
        (('exercise = "EX-13-02"', 'exercise = "EX-12-02"'), "the file is EX-13-02's"),
        (("points = 1.0", "points = 0"), "positive number"),
        (("points = 1.0", "weight = 1.0"), "lacks ['points']"),
        (("alternatives = [\n    ['${UNIQUE}'],", "alternatives = [\n    [],"), "at least one term"),
        (("UNIQUE = ['唯一约束', '唯一索引', '唯一键', '主键冲突', ", "UNIQUE = ["), "a Chinese word"),
        (("UNIQUE = [", "UNIQUE = 'unique|唯一' #"), "must be an array"),
        (("'sqlite',", "'${SQLITE}',"), "${SQLITE}, which no fragment above defines"),
        (('sections = ["databases"]', 'sections = ["database"]'), "names no [[sections]]"),
        (("summary = { zh =", "summary = { fr ="), "zh = '...', en = '...'"),
        (("[[concepts]]", "[[concept]]"), "unknown keys ['concept']"),
        (("alternatives = [", "alternatives = [ ["), "Unclosed array"),
    ],
)
def test_a_malformed_key_is_refused_with_what_to_fix(
    keys: Path, edit: tuple[str, str], complaint: str
) -> None:
    path = keys / "EX-13-02.toml"
    text = path.read_text(encoding="utf-8")
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(InternalError) as raised:
        get_exercise("EX-13-02")
    assert raised.value.message_id == "error.answer_key"
    assert complaint in str(raised.value.params["detail"])
    assert str(path) == raised.value.params["path"]


def test_the_format_documented_in_the_loader_is_the_format_it_reads() -> None:
    doc = module.__doc__ or ""
    block, _, rest = doc.partition("::\n\n")[2].partition("\n\nClaims by polarity")
    synonyms = rest.partition("::\n\n")[2].partition("\n\nSynonyms are")[0]
    example = "\n".join(line.removeprefix("    ") for line in (block + "\n" + synonyms).splitlines())
    example = example.replace("'hot${GAP}water|热水'", "'hot${GAP}water|热水', '${KETTLE}'")
    key = module._parse(tomllib.loads(example), "EX-99-02")
    assert [c.name for c in key.concepts] == ["tea_needs_hot_water"]
    assert key.concepts[0].alternatives[0] == (
        "tea|茶",
        "hot.{0,10}water|热水",
        "(?:kettle|boiler|水壶|烧水壶)",
    )
    assert key.concepts[0].contradicts == (("tea|茶", "cold.{0,10}water|冷水"),)
    assert key.texts["rubric.section.EX-99-02.why"]["en"] == 'section "why"'
