"""Score an answer concept by concept, section by section, within a time budget.

A concept is a claim. It is *found* when one of its alternatives has every term, not
negated, in one sentence of a section where the concept belongs, and that sentence is not
keyword stuffing. It is *contradicted* when a sentence of the concept's own (first)
section states one of its ``contradicts`` alternatives, not negated (the opposite claim):
a contradiction outweighs a statement, in the same sentence or elsewhere, so saying both
earns nothing and the reviewer sees the contradicting sentence. Otherwise the result says why it
was not counted: every term was there but denied (``negated``), only in stuffed sentences
(``stuffed``), or nowhere (``missing``); ``not_judged`` when the time budget ran out
first. Sentences copied from the exercise statement or its hint (``copied``) are not read.
Each result keeps the sentence that decided it. The work is bounded: the text is capped
(``text.MAX_CHARS``), sentences are cut short, terms cannot backtrack (``patterns``), and
the clock is read before every sentence.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from grader.judge.exercises.spec import Concept, ProseExercise
from grader.judge.rubric.copied import copied, statement_trigrams
from grader.judge.rubric.negation import negated
from grader.judge.rubric.patterns import compiled, engine
from grader.judge.rubric.stuffing import normalized, repeated_sentences, stuffed
from grader.judge.rubric.text import Answer, Sentence, read_answer

#: CPU seconds of the scoring thread scoring may take (not wall time: a loaded machine must
#: not change a score); what is left unscored is reported as "not judged".
TIME_BUDGET = 0.5
#: Matches of one term looked at per sentence.
MAX_MATCHES = 32

Status = Literal["found", "contradicted", "negated", "stuffed", "missing", "not_judged"]
_RANK: dict[Status, int] = {
    "contradicted": 5,
    "found": 4,
    "stuffed": 3,
    "negated": 2,
    "not_judged": 1,
    "missing": 0,
}


@dataclass(frozen=True)
class ConceptResult:
    name: str
    status: Status
    #: The section it was found in (or last seen, negated or stuffed); when missing, the
    #: section where it belongs ("" when it belongs anywhere or the answer has no sections).
    section: str
    points: float
    max_points: float
    #: The sentence that decided the status ("" when missing or not judged).
    sentence: str = ""


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
        (contradicted, negated, stuffed and not-judged concepts count as missing)."""
        table: dict[str, dict[str, list[str]]] = {}
        for concept in self.concepts:
            row = table.setdefault(concept.section, {"found": [], "missing": []})
            row["found" if concept.status == "found" else "missing"].append(concept.name)
        return table


Hits = dict[str, list[tuple[int, int]]]


def _hits(exercise: ProseExercise, text: str) -> Hits:
    hits: Hits = {}
    for concept in exercise.concepts:
        for alternative in concept.alternatives + concept.contradicts:
            for term in alternative:
                if term not in hits:
                    found = []
                    for match in compiled(term).finditer(text):
                        found.append((match.start(), match.end()))
                        if len(found) >= MAX_MATCHES:
                            break
                    hits[term] = found
    return hits


def _states(
    alternative: tuple[str, ...], text: str, hits: Hits, spans: list[tuple[int, int]]
) -> bool | None:
    """True: every term, not negated; False: every term, some only denied; None: not all."""
    if not all(hits[term] for term in alternative):
        return None
    return all(any(not negated(text, start, spans) for start, _ in hits[t]) for t in alternative)


def _outcome(
    concept: Concept, text: str, hits: Hits, spans: list[tuple[int, int]], home: bool
) -> Status:
    """``home``: the sentence is in the concept's own section, the only place a claim can be
    contradicted (a conclusion saying "with one transaction nothing is lost" is about the
    fix, not a denial of the loss)."""
    for opposite in concept.contradicts if home else ():
        # Only its own words keep a negator from denying it: in "不能只放在 retry 分支",
        # the claim's term holds the 不, which still denies "只放在 retry 分支".
        own = sorted(span for term in opposite for span in hits[term])
        if _states(opposite, text, hits, own):
            return "contradicted"
    best: Status = "missing"
    for alternative in concept.alternatives:
        states = _states(alternative, text, hits, spans)
        if states:
            return "found"
        if states is False:
            best = "negated"
    return best


def _belongs(concept: Concept, sentence: Sentence, answer: Answer) -> bool:
    if not answer.sectioned or not concept.sections or not sentence.section:
        return True
    return sentence.section in concept.sections


def _at_home(concept: Concept, sentence: Sentence, answer: Answer) -> bool:
    if not answer.sectioned or not concept.sections or not sentence.section:
        return True
    return sentence.section == concept.sections[0]


def score_answer(
    exercise: ProseExercise,
    submitted: str,
    template: str = "",
    *,
    statement: str = "",
    budget: float = TIME_BUDGET,
    clock: Callable[[], float] = time.thread_time,
) -> RubricResult:
    """``statement``: the exercise's statement and hint; sentences copied from it count
    for nothing."""
    deadline = clock() + budget
    answer = read_answer(submitted, template, exercise.sections)
    given = statement_trigrams(statement)
    home = {c.name: (c.sections[0] if c.sections else "") for c in exercise.concepts}
    repeated = repeated_sentences((s.text, s.section) for s in answer.sentences)
    state: dict[str, tuple[Status, Sentence]] = {}
    timed_out = False
    for sentence in answer.sentences:
        if clock() > deadline:
            timed_out = True
            break
        if copied(sentence.text, given):
            continue
        hits = _hits(exercise, sentence.text)
        spans = sorted({span for found in hits.values() for span in found})
        if not spans:
            continue
        outcomes = {
            c.name: _outcome(c, sentence.text, hits, spans, _at_home(c, sentence, answer))
            for c in exercise.concepts
        }
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
            previous = state.get(concept.name)
            if previous is None or _RANK[outcome] > _RANK[previous[0]]:
                state[concept.name] = (outcome, sentence)
    results = []
    for concept in exercise.concepts:
        unseen: Status = "not_judged" if timed_out else "missing"
        status, section, decided = unseen, home[concept.name], ""
        if concept.name in state:
            status, deciding = state[concept.name]
            section, decided = deciding.section, deciding.text
        if answer.sectioned is False and status in ("missing", "not_judged"):
            section = ""
        points = concept.points if status == "found" else 0.0
        results.append(
            ConceptResult(concept.name, status, section, points, concept.points, decided)
        )
    return RubricResult(
        tuple(results), answer.sectioned, answer.capped, timed_out, answer.chars, engine()
    )
