"""A rubric result as report checks, worded as advice to the instructor.

The provisional score is what keyword rules found; the wording says "the rubric found /
did not find", never that the student is wrong. Each concept check names the template
section it was found in (or where it belongs), so a review page can show found and
missing concepts per section.
"""

from __future__ import annotations

from grader.judge.exercises.spec import ProseExercise
from grader.judge.results import CheckResult, Message, failed_check, msg
from grader.judge.rubric.scoring import ConceptResult, RubricResult, score_answer
from grader.judge.rubric.text import MAX_CHARS


def section_label(exercise: ProseExercise, section: str) -> Message:
    if not section:
        return msg("rubric.section.whole")
    return Message(f"rubric.section.{exercise.id}.{section}")


def concept_check(exercise: ProseExercise, concept: ConceptResult) -> CheckResult:
    described = Message(f"concept.{exercise.id}.{concept.name}")
    label = msg("check.concept", arg=described)
    name = f"concept:{concept.name}"
    where = section_label(exercise, concept.section)
    # The evidence is the sentence that decided the check, shown to the reviewer.
    decided = concept.sentence or None
    if concept.status == "found":
        found = msg("concept.found", section=where)
        return CheckResult(name, True, concept.points, found, None, concept.points, decided, label)
    if concept.status in ("contradicted", "denied", "attributed"):
        message = msg(
            f"concept.{concept.status}", concept=described, section=where, sentence=concept.sentence
        )
    else:
        message = msg(f"concept.{concept.status}", concept=described, section=where)
    return failed_check(name, concept.max_points, message, None, decided, label=label)


def judge_prose(
    exercise: ProseExercise, submitted: str, template: str = "", *, statement: str = ""
) -> tuple[CheckResult, ...]:
    """One check per concept, plus a length check when the answer is too short and a scope
    note when part of it was not scored (too long, or the time budget ran out).
    ``statement``: the exercise's statement and hint (copied sentences count for nothing)."""
    return checks_of(exercise, score_answer(exercise, submitted, template, statement=statement))


def checks_of(exercise: ProseExercise, result: RubricResult) -> tuple[CheckResult, ...]:
    checks: list[CheckResult] = []
    if result.chars < exercise.min_chars:
        too_short = msg("prose.too_short", chars=result.chars, needed=exercise.min_chars)
        checks.append(failed_check("length", 0.0, too_short))
    # A note worth 0 points, shown as not passed so that the text report prints it.
    if result.timed_out:
        checks.append(failed_check("scope", 0.0, msg("prose.timed_out")))
    elif result.capped:
        checks.append(failed_check("scope", 0.0, msg("prose.capped", chars=MAX_CHARS)))
    checks.extend(concept_check(exercise, concept) for concept in result.concepts)
    return tuple(checks)
