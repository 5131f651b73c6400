"""Pure scoring of prose answers: which rubric concepts does the answer seem to cover?

The score is provisional (status ``needs_review``): keyword rules find a concept that is
stated, not whether the reasoning is right. An instructor confirms.
"""

from __future__ import annotations

import re

from grader.exercises.spec import Concept, ProseExercise
from grader.results import CheckResult, Message, failed_check, msg, passed_check


def answer_text(submitted: str, template: str) -> str:
    """The student's own words: lines that also appear in the starter template are dropped."""
    template_lines = {line.strip() for line in template.splitlines() if line.strip()}
    kept = [line for line in submitted.splitlines() if line.strip() not in template_lines]
    return "\n".join(kept)


def visible_chars(text: str) -> int:
    return sum(1 for char in text if not char.isspace())


def concept_present(concept: Concept, text: str) -> bool:
    return any(
        all(re.search(pattern, text, re.IGNORECASE) for pattern in alternative)
        for alternative in concept.alternatives
    )


def judge_prose(exercise: ProseExercise, own_words: str) -> tuple[CheckResult, ...]:
    """One check per concept (plus a length check when the answer is too short)."""
    checks: list[CheckResult] = []
    chars = visible_chars(own_words)
    if chars < exercise.min_chars:
        checks.append(
            failed_check(
                "length", 0.0, msg("prose.too_short", chars=chars, needed=exercise.min_chars)
            )
        )
    for concept in exercise.concepts:
        described = Message(f"concept.{exercise.id}.{concept.name}")
        label = msg("check.concept", arg=described)
        name = f"concept:{concept.name}"
        if concept_present(concept, own_words):
            checks.append(passed_check(name, concept.points, msg("concept.found"), label=label))
        else:
            message = msg("concept.missing", concept=described)
            checks.append(failed_check(name, concept.points, message, label=label))
    return tuple(checks)
