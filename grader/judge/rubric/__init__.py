"""Provisional scoring of prose answers: which rubric concepts does the answer state?

The score is provisional (status ``needs_review``): rules find a concept that a sentence
(or two adjacent ones) asserts as the student's own, per section of the answer template,
ignoring negated, denied and attributed claims and keyword lists; they cannot tell whether
the reasoning is right. An instructor decides, seeing the sentence behind each mark
(``ConceptResult.sentence``; the check's ``evidence``).

Modules: ``text`` (cap, template, sections, paragraphs, sentences), ``patterns`` (bounded
terms, re2 or re), ``negation``, ``polarity`` (denied, attributed), ``stuffing``,
``copied``, ``scoring`` (the result data), ``checks`` (report checks).
"""

from __future__ import annotations

from grader.judge.rubric.checks import judge_prose
from grader.judge.rubric.scoring import ConceptResult, RubricResult, score_answer
from grader.judge.rubric.text import placeholders

__all__ = ["ConceptResult", "RubricResult", "answer_text", "judge_prose", "score_answer"]


def answer_text(submitted: str, template: str) -> str:
    """The submission without the template's placeholder lines; headings are kept, since
    they tell the sections apart (they are never scored)."""
    drop = placeholders(template)
    kept = []
    for line in submitted.splitlines():
        for placeholder in drop:
            line = line.replace(placeholder, "") if placeholder in line else line
        kept.append(line)
    return "\n".join(kept)
