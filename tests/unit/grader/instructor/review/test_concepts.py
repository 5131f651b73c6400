"""The review page's concept list: found / contradicted / missing, with the deciding sentence."""

from __future__ import annotations

from pathlib import Path

from grader.instructor.gradebook import CheckView
from grader.instructor.review.details import concept_note, concept_state
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import ProseExercise
from grader.judge.rubric import judge_prose
from grader.judge.statements import statement_text
from grader.render.catalog import render_message

ANSWERS = Path(__file__).parents[3] / "grader/judge/rubric/files/EX-13-02"


def _views(name: str) -> dict[str, CheckView]:
    spec = get_exercise("EX-13-02")
    assert isinstance(spec, ProseExercise)
    text = (ANSWERS / name).read_text(encoding="utf-8")
    views = {}
    for check in judge_prose(spec, text, statement=statement_text(spec.id)):
        if check.name.startswith("concept:"):
            subject = check.name.removeprefix("concept:")
            views[subject] = CheckView(
                check.name, "concept", subject, check.passed, check.points, check.max_points,
                check.message, check.hint, check.label, check.evidence,
            )  # fmt: skip
    return views


def test_each_concept_is_found_contradicted_or_missing_with_its_sentence() -> None:
    views = _views("contradicting-en.md")
    states = {name: concept_state(view) for name, view in views.items()}
    assert states == {
        "unique_constraint_decides": "contradicted",
        "select_then_insert_races": "contradicted",
        "first_insert_wins": "contradicted",
        "loser_changes_nothing": "contradicted",
        # "gets an IntegrityError at once" and "both write at the same time" are the wrong
        # claims about each database (issue 31).
        "postgresql_loser": "contradicted",
        "sqlite_loser": "contradicted",
    }
    note = concept_note(views["loser_changes_nothing"])
    assert note is not None
    shown = render_message(note.id, note.params, "en")
    assert shown.startswith("contradicts: ") and "The loser overwrites the receipt" in shown
    found = concept_note(_views("honest-en.md")["postgresql_loser"])
    assert found is not None and render_message(found.id, found.params, "en").startswith("from: ")
    missing = _views("partial-no-sqlite.md")["sqlite_loser"]
    assert concept_state(missing) == "missing"
    assert concept_note(missing) is None  # nothing decided it
