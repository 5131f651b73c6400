"""Score an answer concept by concept, section by section, within a budget of work.

A concept is a claim. It is *found* when one of its alternatives has every term, not
negated, in one sentence, or in two adjacent sentences of one paragraph, of a section where
the concept belongs, that text is not keyword stuffing, and the claim is the student's own
(``polarity``): a claim denied after it ("不会发生", "a myth" …, in its sentence or the next)
is ``denied``, one put in others' mouths ("有人说", "people say") ``attributed``; both earn
nothing and the reviewer sees the sentence. It is *contradicted* when a sentence of the
concept's own (first) section states one of its ``contradicts`` claims as the student's own
(a denied or attributed opposite contradicts nothing): a contradiction outweighs a
statement, in the same sentence or elsewhere, so saying both earns nothing and the reviewer
sees the contradicting sentence. Otherwise the result says why it was not counted: every
term was there but negated (``negated``), only in stuffed sentences (``stuffed``), or
nowhere (``missing``); ``not_judged`` when the budget of work ran out first. Sentences copied
from the exercise statement or its hint (``copied``) are not read. Each result keeps the
text that decided it (``ConceptResult.sentence``: one sentence, or two adjacent ones).
The work is bounded: the text is capped (``text.MAX_CHARS``), sentences are cut short,
terms cannot backtrack (``patterns``), each sentence is read in at most three windows
(alone, with the one before, with the one after), and at most ``MAX_WINDOWS`` windows are
read. The budget counts windows, not seconds, so one answer gets one score on every machine:
a CPU-time budget once cut a short answer to 40 % in a busy CI run.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from grader.judge.exercises.spec import Concept, ProseExercise
from grader.judge.rubric.copied import copied, statement_trigrams
from grader.judge.rubric.negation import negated
from grader.judge.rubric.patterns import compiled, engine
from grader.judge.rubric.polarity import Region, polarity, read
from grader.judge.rubric.stuffing import normalized, repeated_sentences, stuffed
from grader.judge.rubric.text import Answer, Sentence, read_answer

#: Windows read at most; what is left unread is reported as "not judged". A capped answer
#: has at most 599 (a sentence alone, and with the next: 2 × ``text.MAX_SENTENCES`` - 1),
#: which take about 0.2 CPU-s; only an answer of more than 200 sentences reaches 400.
MAX_WINDOWS = 400
#: Matches of one term looked at per sentence.
MAX_MATCHES = 32

Status = Literal[
    "found", "contradicted", "denied", "attributed", "negated", "stuffed", "missing", "not_judged"
]
_RANK: dict[Status, int] = {
    "contradicted": 7,
    "found": 6,
    "denied": 5,
    "attributed": 4,
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
    #: The text that decided the status, shown to the reviewer beside the mark: one
    #: sentence, or two adjacent ones of a paragraph ("" when missing or not judged).
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


Claim = tuple[Status | None, list[tuple[int, int]]]


@lru_cache(maxsize=4096)
def _negated_cached(text: str, start: int, spans: tuple[tuple[int, int], ...]) -> bool:
    return negated(text, start, spans)


def _negated(text: str, start: int, spans: list[tuple[int, int]]) -> bool:
    """``negation.negated``, asked once per term match and window (many alternatives share
    a term)."""
    return _negated_cached(text, start, tuple(spans))


def _claim(
    alternative: tuple[str, ...],
    text: str,
    hits: Hits,
    spans: list[tuple[int, int]],
    found: list[Region],
) -> Claim:
    """``found`` (every term, not negated, the student's own), ``denied``/``attributed``
    (every term, not negated, but inside such a region), ``negated`` (some term only
    negated), or None (a term is absent); with the matches it rests on."""
    if not all(hits[term] for term in alternative):
        return None, []
    chosen = []
    for term in alternative:
        stated = [hit for hit in hits[term] if not _negated(text, hit[0], spans)]
        if not stated:
            return "negated", []
        own = [hit for hit in stated if polarity([hit], found) is None]
        chosen.append(own[0] if own else stated[0])
    return polarity(chosen, found) or "found", chosen


def _outcome(
    concept: Concept,
    text: str,
    hits: Hits,
    spans: list[tuple[int, int]],
    found: list[Region],
    home: bool,
) -> Status:
    """``home``: the sentence is in the concept's own section, the only place a claim can be
    contradicted (a conclusion saying "with one transaction nothing is lost" is about the
    fix, not a denial of the loss). An opposite claim inside one term of a stated claim is
    part of it ("only in the retry branch is not enough" holds "only in the retry branch")."""
    best: Status = "missing"
    stated: list[tuple[int, int]] = []
    for alternative in concept.alternatives:
        status, chosen = _claim(alternative, text, hits, spans, found)
        if status == "found":
            best, stated = "found", chosen
            break
        if status is not None and _RANK[status] > _RANK[best]:
            best = status
    for opposite in concept.contradicts if home else ():
        # Only its own words keep a negator from denying it: in "不能只放在 retry 分支",
        # the claim's term holds the 不, which still denies "只放在 retry 分支".
        own = sorted(span for term in opposite for span in hits[term])
        status, chosen = _claim(opposite, text, hits, own, found)
        inside = any(all(a <= s and e <= b for s, e in chosen) for a, b in stated)
        if status == "found" and not inside:
            return "contradicted"
    return best


def _spans(hits: Hits) -> list[tuple[int, int]]:
    return sorted({span for found in hits.values() for span in found})


def _belongs(concept: Concept, sentence: Sentence, answer: Answer) -> bool:
    if not answer.sectioned or not concept.sections or not sentence.section:
        return True
    return sentence.section in concept.sections


def _at_home(concept: Concept, sentence: Sentence, answer: Answer) -> bool:
    if not answer.sectioned or not concept.sections or not sentence.section:
        return True
    return sentence.section == concept.sections[0]


@dataclass(frozen=True)
class _Window:
    """One sentence, or two adjacent ones of a paragraph, and the sentence after it."""

    text: str
    section: str
    sentences: tuple[Sentence, ...]
    following: str


def _windows(answer: Answer) -> list[_Window]:
    sentences = answer.sentences
    out = []
    for index, sentence in enumerate(sentences):

        def after(last: int) -> str:
            if last + 1 < len(sentences) and _adjacent(sentences[last], sentences[last + 1]):
                return sentences[last + 1].text
            return ""

        out.append(_Window(sentence.text, sentence.section, (sentence,), after(index)))
        if after(index):
            pair = (sentence, sentences[index + 1])
            text = f"{sentence.text} {pair[1].text}"
            out.append(_Window(text, sentence.section, pair, after(index + 1)))
    return out


def _adjacent(first: Sentence, second: Sentence) -> bool:
    return first.paragraph == second.paragraph and first.section == second.section


def score_answer(
    exercise: ProseExercise,
    submitted: str,
    template: str = "",
    *,
    statement: str = "",
    budget: int = MAX_WINDOWS,
) -> RubricResult:
    """``statement``: the exercise's statement and hint; sentences copied from it count
    for nothing."""
    answer = read_answer(submitted, template, exercise.sections)
    given = statement_trigrams(statement)
    home = {c.name: (c.sections[0] if c.sections else "") for c in exercise.concepts}
    repeated = repeated_sentences((s.text, s.section) for s in answer.sentences)
    state: dict[str, tuple[Status, str, str]] = {}  # concept: (status, section, text)
    timed_out = False
    is_copied: dict[int, bool] = {}
    seen: dict[str, Hits] = {}  # a sentence is read alone and as the one after a window

    def _hits_of(text: str) -> Hits:
        if text not in seen:
            seen.clear() if len(seen) > 4 else None
            seen[text] = _hits(exercise, text)
        return seen[text]

    def _window_hits(window: _Window) -> Hits:
        """A pair's terms are its sentences' terms: a claim spans two sentences when its
        terms stand in both (a term's own gap never bridges a full stop)."""
        first = _hits_of(window.sentences[0].text)
        if len(window.sentences) == 1:
            return first
        shift = len(window.sentences[0].text) + 1
        second = _hits_of(window.sentences[1].text)
        return {
            term: found + [(a + shift, b + shift) for a, b in second[term]]
            for term, found in first.items()
        }

    for read_so_far, window in enumerate(_windows(answer)):
        if read_so_far >= budget:
            timed_out = True
            break
        if any(is_copied.setdefault(id(s), copied(s.text, given)) for s in window.sentences):
            continue
        pair = len(window.sentences) > 1
        if pair and not all(_spans(_hits_of(s.text)) for s in window.sentences):
            continue  # a claim spans two sentences only when both hold some of its terms
        hits = _window_hits(window)
        spans = _spans(hits)
        if not spans:
            continue
        following = _spans(_hits_of(window.following)) if window.following else []
        reading = read(window.text, spans, window.following, following)
        hits = {t: [h for h in found if not reading.inside_words(h)] for t, found in hits.items()}
        spans = _spans(hits)
        found = list(reading.regions)
        sentence = window.sentences[0]
        outcomes = {
            c.name: _outcome(c, window.text, hits, spans, found, _at_home(c, sentence, answer))
            for c in exercise.concepts
        }
        stating = ("found", "contradicted")
        reached = {home[name] for name, out in outcomes.items() if out in stating} - {""}
        is_stuffed = any(normalized(s.text) in repeated for s in window.sentences) or stuffed(
            window.text, spans, len(reached)
        )
        for concept in exercise.concepts:
            outcome = outcomes[concept.name]
            if outcome == "missing" or not _belongs(concept, sentence, answer):
                continue
            if is_stuffed and outcome in ("found", "negated"):
                outcome = "stuffed"
            if pair and outcome != "found":
                continue  # two sentences only ever add a claim neither states alone
            previous = state.get(concept.name)
            if previous is None or _RANK[outcome] > _RANK[previous[0]]:
                state[concept.name] = (outcome, window.section, window.text)
    results = []
    for concept in exercise.concepts:
        unseen: Status = "not_judged" if timed_out else "missing"
        status, section, decided = unseen, home[concept.name], ""
        if concept.name in state:
            status, section, decided = state[concept.name]
        if answer.sectioned is False and status in ("missing", "not_judged"):
            section = ""
        points = concept.points if status == "found" else 0.0
        results.append(
            ConceptResult(concept.name, status, section, points, concept.points, decided)
        )
    return RubricResult(
        tuple(results), answer.sectioned, answer.capped, timed_out, answer.chars, engine()
    )
