"""Answer groups: prose answers that say the same thing, decided with one decision.

Computed from the gradebook's current results on every read (nothing stored), so the
same gradebook always gives the same groups, and re-grading unchanged work changes none.

Two answers of one exercise are in one group when both hold:

- the rubric judged them alike: every concept found, denied, stuffed or missing in both;
- their texts are identical or near-identical: after folding case, width and spacing and
  dropping punctuation, their character trigrams overlap by at least ``NEAR`` (Jaccard).

Requiring both keeps one decision safe for every member. Answers are taken in student
order; each joins the first group whose first member (its representative) it matches.
A member whose text changed after its decision (the decision no longer counts) is kept
out of every group and listed as having left the one it was decided with.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from grader.instructor.gradebook.views import ResultView

#: Trigram Jaccard at or above which two answers count as near-identical.
NEAR = 0.8
_DROPPED = re.compile(r"[\s\W_]+", re.UNICODE)

Signature = tuple[tuple[str, str], ...]


def folded(text: str) -> str:
    """The text as compared: NFKC, lower case, no spacing or punctuation."""
    return _DROPPED.sub("", unicodedata.normalize("NFKC", text).casefold())


def trigrams(text: str) -> frozenset[str]:
    if len(text) < 3:
        return frozenset({text})
    return frozenset(text[i : i + 3] for i in range(len(text) - 2))


def similarity(left: frozenset[str], right: frozenset[str]) -> float:
    union = len(left | right)
    return len(left & right) / union if union else 1.0


def signature(result: ResultView) -> Signature:
    """Per concept what the rubric said: ``found`` or the failure (missing, negated ...)."""
    return tuple(
        (c.subject or c.name, "found" if c.passed else c.message.id.removeprefix("concept."))
        for c in result.checks
        if c.category == "concept"
    )


def groupable(result: ResultView) -> bool:
    """A prose answer waiting for (or given) a decision on this very text."""
    changed = result.review is not None and result.review.changed_since_review
    return result.kind == "prose" and result.status == "needs_review" and not changed


@dataclass(frozen=True)
class AnswerGroup:
    key: str
    exercise: str
    signature: Signature
    members: tuple[ResultView, ...]
    #: Answers decided with this group whose text changed since (flagged, not members).
    left: tuple[ResultView, ...] = ()

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def undecided(self) -> tuple[ResultView, ...]:
        return tuple(m for m in self.members if not m.reviewed)

    @property
    def overridden(self) -> tuple[ResultView, ...]:
        """Members decided on their own (not by this group's decision)."""
        return tuple(
            m for m in self.members if m.reviewed and m.review and m.review.group_key != self.key
        )

    @property
    def decided_score(self) -> float | None:
        """The score this group's own decision gave (None: not decided as a group)."""
        for member in self.members:
            if member.reviewed and member.review and member.review.group_key == self.key:
                return member.grade.decision  # the decision itself (each member's lateness
                # makes its own final score)
        return None


def _key(exercise: str, sig: Signature, representative: str) -> str:
    digest = hashlib.sha256(repr((exercise, sig, representative)).encode("utf-8"))
    return digest.hexdigest()[:16]


def group_answers(results: Iterable[ResultView]) -> list[AnswerGroup]:
    """Every prose exercise's groups (singletons included), by exercise then first student."""
    by_exercise: dict[str, list[ResultView]] = defaultdict(list)
    departed: dict[str, list[ResultView]] = defaultdict(list)
    for result in results:
        if groupable(result):
            by_exercise[result.exercise].append(result)
        elif result.review and result.review.changed_since_review and result.review.group_key:
            departed[result.review.group_key].append(result)
    groups: list[AnswerGroup] = []
    for exercise in sorted(by_exercise):
        answers = sorted(by_exercise[exercise], key=lambda r: r.student)
        views = {r.student: r for r in answers}
        # Clustering depends only on texts and rubric results: the same input, reviews
        # aside, is clustered once (a decision does not re-cluster the class).
        plan = _cluster(
            exercise,
            tuple((r.student, r.content_sha256, r.content or "", signature(r)) for r in answers),
        )
        for key, sig, students in plan:
            members = tuple(views[student] for student in students)
            groups.append(AnswerGroup(key, exercise, sig, members, tuple(departed.get(key, ()))))
    return groups


@dataclass
class _Forming:
    signature: Signature
    text: str
    shingles: frozenset[str]
    students: list[str]


Answer = tuple[str, str, str, Signature]


@lru_cache(maxsize=32)
def _cluster(
    exercise: str, answers: tuple[Answer, ...]
) -> tuple[tuple[str, Signature, tuple[str, ...]], ...]:
    forming: list[_Forming] = []
    by_signature: dict[Signature, list[_Forming]] = defaultdict(list)
    for student, _sha, content, sig in answers:
        text = folded(content)
        shingles = trigrams(text)
        home = next(
            (
                group
                for group in by_signature[sig]
                if group.text == text
                or (
                    _close_in_length(len(group.shingles), len(shingles))
                    and similarity(group.shingles, shingles) >= NEAR
                )
            ),
            None,
        )
        if home is None:
            home = _Forming(sig, text, shingles, [])
            forming.append(home)
            by_signature[sig].append(home)
        home.students.append(student)
    return tuple(
        (_key(exercise, g.signature, g.text), g.signature, tuple(g.students)) for g in forming
    )


def _close_in_length(left: int, right: int) -> bool:
    """Jaccard of two sets is at most min/max of their sizes: skip hopeless pairs."""
    return min(left, right) >= NEAR * max(left, right)


@dataclass(frozen=True)
class Groups:
    """The groups of a class, with lookups by group key and by member."""

    groups: tuple[AnswerGroup, ...]

    @cached_property
    def by_key(self) -> dict[str, AnswerGroup]:
        return {group.key: group for group in self.groups}

    @cached_property
    def of_member(self) -> dict[tuple[str, str], AnswerGroup]:
        return {(m.student, m.exercise): g for g in self.groups for m in g.members}

    def shared(self, exercise: str | None = None) -> tuple[AnswerGroup, ...]:
        """Groups of two or more members (of ``exercise``), largest first."""
        return tuple(
            sorted(
                (g for g in self.groups if g.size > 1 and exercise in (None, g.exercise)),
                key=lambda g: (-g.size, g.exercise, g.members[0].student),
            )
        )
