"""Answer groups: prose answers that say the same thing, decided with one decision.

Computed from the gradebook's current results on every read (nothing stored), so the
same gradebook always gives the same groups, and re-grading unchanged work changes none.

Two answers of one exercise are in one group when all hold (``decidable_once``):

- the rubric judged them alike: every concept found, denied, stuffed or missing in both;
- their texts as read (HTML comments, which Markdown does not show, dropped) differ by at
  most ``FEW`` characters (edit distance after folding case, width, spacing and
  punctuation): a typo, a particle, a re-spacing;
- neither adds a sentence to the other, and no word that was changed is a negation ("不",
  "没", "not", "false" ...): "X. That is false." is a different answer from "X.", however
  few characters it adds.

A set of trigrams cannot say this: three short denials appended to a correct answer keep
85% of its trigrams. Answers are taken in student order; each joins the first group whose
first member (its representative) it matches. A member whose text changed after its
decision (the decision no longer counts) is kept out of every group and listed as having
left the one it was decided with.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from grader.instructor.gradebook.views import ResultView

#: Characters (after folding) by which a member may differ from its representative.
FEW = 6
_DROPPED = re.compile(r"[\s\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+", re.UNICODE)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
#: Where a sentence ends, in either language ("。" "！" "？" "；" "." "!" "?" ";" a line break).
_SENTENCE_END = re.compile(r"[。！？；!?;\n]+|\.(?=\s|$)|…+", re.UNICODE)
_WORDS = re.compile(r"[a-z0-9']+|[^\W\d_a-z]", re.UNICODE)
#: Words whose addition or removal turns a claim round (en words, zh characters).
NEGATIONS = frozenset(
    {"not", "no", "never", "none", "nothing", "cannot", "false", "without", "nor",
     "isn't", "doesn't", "don't", "won't", "can't", "aren't", "wasn't", "didn't",
     "myth", "wrong", "harmless", "unnecessary", "untrue",
     "不", "没", "无", "非", "未", "别", "否", "勿", "错", "误"}
)  # fmt: skip

Signature = tuple[tuple[str, str], ...]


def folded(text: str) -> str:
    """The text as compared: NFKC, lower case, no spacing or punctuation."""
    return _DROPPED.sub("", unicodedata.normalize("NFKC", text).casefold())


def as_read(text: str) -> str:
    """The answer as its reader sees it: HTML comments (``<!-- ... -->``, which Markdown
    does not show, such as a student's signature) dropped."""
    return _HTML_COMMENT.sub("", text)


def spaced(text: str) -> str:
    """The text as shown and diffed: NFKC, spacing collapsed, ends trimmed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def distance(left: str, right: str, bound: int = FEW) -> int | None:
    """Levenshtein distance of two strings, or None when it exceeds ``bound`` (a banded
    computation: O(len * bound), and it stops as soon as no path can stay in the bound)."""
    if abs(len(left) - len(right)) > bound:
        return None
    if left == right:
        return 0
    wide = len(right) + bound + 2
    previous = [j if j <= bound else wide for j in range(len(right) + 1)]
    for i in range(1, len(left) + 1):
        low, high = max(1, i - bound), min(len(right), i + bound)
        current = [wide] * (len(right) + 1)
        current[0] = i if i <= bound else wide
        char = left[i - 1]
        for j in range(low, high + 1):
            cost = previous[j - 1] + (char != right[j - 1])
            current[j] = min(cost, previous[j] + 1, current[j - 1] + 1)
        if min(current[max(0, low - 1) : high + 1]) > bound:
            return None
        previous = current
    return previous[len(right)] if previous[len(right)] <= bound else None


def sentences(text: str) -> list[str]:
    """The folded sentences of ``text`` (empty pieces, such as a lone "-", dropped)."""
    return [piece for piece in (folded(p) for p in _SENTENCE_END.split(text)) if piece]


def changed_words(text: str, reference: str) -> Counter[str]:
    """Words (en) and characters (zh) one text has and the other has not, both ways."""
    mine = Counter(_WORDS.findall(unicodedata.normalize("NFKC", text).casefold()))
    theirs = Counter(_WORDS.findall(unicodedata.normalize("NFKC", reference).casefold()))
    return (mine - theirs) + (theirs - mine)


def decidable_once(text: str, reference: str) -> bool:
    """Could one decision be right for both texts, as read? (See the module docstring.)"""
    text, reference = as_read(text), as_read(reference)
    if distance(folded(text), folded(reference)) is None:
        return False
    if len(sentences(text)) != len(sentences(reference)):
        return False
    return not (NEGATIONS & set(changed_words(text, reference)))


def additions(text: str, reference: str) -> list[str]:
    """What ``text`` adds to ``reference`` (or puts in place of a part of it), in order:
    a character diff of the spaced texts."""
    mine, theirs = spaced(as_read(text)), spaced(as_read(reference))
    matcher = SequenceMatcher(None, theirs, mine, autojunk=False)
    return [
        mine[j1:j2]
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("insert", "replace") and mine[j1:j2].strip()
    ]


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
    def decided_by_group(self) -> tuple[ResultView, ...]:
        """Members this group's own decision covers."""
        return tuple(
            m for m in self.members if m.reviewed and m.review and m.review.group_key == self.key
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
    folded: str
    students: list[str]


Answer = tuple[str, str, str, Signature]


@lru_cache(maxsize=32)
def _cluster(
    exercise: str, answers: tuple[Answer, ...]
) -> tuple[tuple[str, Signature, tuple[str, ...]], ...]:
    forming: list[_Forming] = []
    exact: dict[tuple[Signature, str], _Forming] = {}
    by_signature: dict[Signature, list[_Forming]] = defaultdict(list)
    for student, _sha, content, sig in answers:
        text = folded(content)
        home = exact.get((sig, text)) or next(
            (g for g in by_signature[sig] if decidable_once(content, g.text)), None
        )
        if home is None:
            home = _Forming(sig, content, text, [])
            forming.append(home)
            by_signature[sig].append(home)
            exact[(sig, text)] = home
        home.students.append(student)
    return tuple(
        (_key(exercise, g.signature, g.folded), g.signature, tuple(g.students)) for g in forming
    )


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
