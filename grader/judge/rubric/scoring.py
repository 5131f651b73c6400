"""Score an answer concept by concept, section by section, within a time budget.

A concept is *found* when one of its alternatives has every term, not negated, in one
sentence of a section where the concept belongs, and that sentence is not keyword
stuffing. Otherwise the result says why it was not counted: every term was there but
denied (``negated``), only in stuffed sentences (``stuffed``), or nowhere (``missing``);
``not_judged`` when the time budget ran out first. The work is bounded: the text is capped
(``text.MAX_CHARS``), sentences are cut short, terms cannot backtrack (``patterns``), and
the clock is read before every sentence.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from grader.judge.exercises.spec import Concept, ProseExercise
from grader.judge.rubric.negation import negated
from grader.judge.rubric.patterns import compiled, engine
from grader.judge.rubric.stuffing import normalized, repeated_sentences, stuffed
from grader.judge.rubric.text import Answer, Sentence, read_answer

#: CPU seconds of the scoring thread scoring may take (not wall time: a loaded machine must
#: not change a score); what is left unscored is reported as "not judged".
TIME_BUDGET = 0.5
#: Matches of one term looked at per sentence.
MAX_MATCHES = 32

Status = Literal["found", "negated", "stuffed", "missing", "not_judged"]
_RANK: dict[Status, int] = {"found": 4, "negated": 2, "stuffed": 3, "missing": 0, "not_judged": 1}


@dataclass(frozen=True)
class ConceptResult:
    name: str
    status: Status
    #: The section it was found in (or last seen, negated or stuffed); when missing, the
    #: section where it belongs ("" when it belongs anywhere or the answer has no sections).
    section: str
    points: float
    max_points: float


@dataclass(frozen=True)
class RubricResult:
    concepts: tuple[ConceptResult, ...]
    sectioned: bool
    capped: bool
    timed_out: bool
    chars: int
    engine: str

    @property
    def score(self) -> float:
        return sum(concept.points for concept in self.concepts)

    def by_section(self) -> dict[str, dict[str, list[str]]]:
        """``{section: {"found": [concept names], "missing": [...]}}`` for a review page
        (negated, stuffed and not-judged concepts count as missing)."""
        table: dict[str, dict[str, list[str]]] = {}
        for concept in self.concepts:
            row = table.setdefault(concept.section, {"found": [], "missing": []})
            row["found" if concept.status == "found" else "missing"].append(concept.name)
        return table


Hits = dict[str, list[tuple[int, int]]]


def _hits(exercise: ProseExercise, text: str) -> Hits:
    hits: Hits = {}
    for concept in exercise.concepts:
        for alternative in concept.alternatives:
            for term in alternative:
                if term not in hits:
                    found = []
                    for match in compiled(term).finditer(text):
                        found.append((match.start(), match.end()))
                        if len(found) >= MAX_MATCHES:
                            break
                    hits[term] = found
    return hits


def _outcome(concept: Concept, text: str, hits: Hits, spans: list[tuple[int, int]]) -> Status:
    best: Status = "missing"
    for alternative in concept.alternatives:
        if not all(hits[term] for term in alternative):
            continue
        if all(any(not negated(text, start, spans) for start, _ in hits[t]) for t in alternative):
            return "found"
        best = "negated"
    return best


def _belongs(concept: Concept, sentence: Sentence, answer: Answer) -> bool:
    if not answer.sectioned or not concept.sections or not sentence.section:
        return True
    return sentence.section in concept.sections


def score_answer(
    exercise: ProseExercise,
    submitted: str,
    template: str = "",
    *,
    budget: float = TIME_BUDGET,
    clock: Callable[[], float] = time.thread_time,
) -> RubricResult:
    deadline = clock() + budget
    answer = read_answer(submitted, template, exercise.sections)
    home = {c.name: (c.sections[0] if c.sections else "") for c in exercise.concepts}
    repeated = repeated_sentences((s.text, s.section) for s in answer.sentences)
    state: dict[str, tuple[Status, str]] = {}
    timed_out = False
    for sentence in answer.sentences:
        if clock() > deadline:
            timed_out = True
            break
        hits = _hits(exercise, sentence.text)
        spans = sorted({span for found in hits.values() for span in found})
        if not spans:
            continue
        outcomes = {c.name: _outcome(c, sentence.text, hits, spans) for c in exercise.concepts}
        reached = {home[name] for name, out in outcomes.items() if out != "missing"} - {""}
        is_stuffed = normalized(sentence.text) in repeated or stuffed(
            sentence.text, spans, len(reached)
        )
        for concept in exercise.concepts:
            outcome = outcomes[concept.name]
            if outcome == "missing" or not _belongs(concept, sentence, answer):
                continue
            if is_stuffed:
                outcome = "stuffed"
            previous = state.get(concept.name, ("missing", ""))
            if _RANK[outcome] > _RANK[previous[0]]:
                state[concept.name] = (outcome, sentence.section)
    results = []
    for concept in exercise.concepts:
        unseen: Status = "not_judged" if timed_out else "missing"
        status, section = state.get(concept.name, (unseen, home[concept.name]))
        if answer.sectioned is False and status in ("missing", "not_judged"):
            section = ""
        points = concept.points if status == "found" else 0.0
        results.append(ConceptResult(concept.name, status, section, points, concept.points))
    return RubricResult(
        tuple(results), answer.sectioned, answer.capped, timed_out, answer.chars, engine()
    )
