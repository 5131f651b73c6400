"""Whose claim is it, and does the answer stand by it?

A claim the rubric finds (every term of one alternative) has a polarity, read from its
sentence and the next one of the same paragraph:

- *denied*: a denial follows it: "不会发生", "不成立", "是误解", "是多余的", "没有必要",
  "并不存在", "(是)不够的", "false", "a myth", "cannot happen", "harmless", "unnecessary",
  "not enough" …, later in its sentence (in the same clause or a later one), or in the
  first clause of the next sentence when that clause states nothing of its own (no rubric
  term: "这种情况其实不会发生。", "That is a myth.");
- *attributed*: it stands after "有人说", "有人担心", "people say", "some think" … and before
  the sentence turns ("但", "其实", "but", "actually" …), unless the sentence endorses it
  ("这是对的", "that is true").

The result (``Reading``) holds regions of the text (``Region``): a claim lying wholly inside
one is not the student's own. A negated negation is a denial too: "只在 retry 分支里去重是
不够的" denies "only in the retry branch" (the answer key states the concept in these words
as well, so the conclusion earns its point and is never read as the contradiction).

A denial that is part of a rubric term ("receipt 并不存在" in "the receipt is missing")
is that term's own wording, not a denial. Linear: a few scans of a text of at most two
sentences and the first clause of a third (``text.MAX_SENTENCE`` each).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Kind = Literal["denied", "attributed"]

#: A clause ends here (what a zh predicate such as "没有必要" must stand before to judge
#: the claim rather than an action: "没有必要再发一次" is advice, "……，没有必要。" a denial).
_END = r"(?=[。，,；;：:！!？?）)]|$)"
#: Predicates that judge a claim: never the consequence of a fix.
_JUDGED = (
    r"不成立|是?误解|是错的|是错误的|是不对的|其实不对|并不对|是谣言|是伪命题|不是真的|"
    r"其实不然|并非如此|不是这样|是多余的|纯属多余|多此一举|是不必要的|完全不必要|"
    rf"(没有|没)必要(的)?{_END}|(是|还|并|远远)不够(的)?{_END}|(并|根本)不存在(的)?{_END}|"
    r"\b(is|are|was|were|that's|it's|this is|that is)( (just|simply|completely|totally|plainly))?"
    r" (false|untrue|not true|wrong|incorrect|a myth|a misconception|nonsense|not the case"
    r"|unnecessary|not needed|not necessary|not enough|insufficient)\b|"
    r"\b(a myth|a misconception|unnecessary|no such (thing|problem))\b"
)
#: Predicates saying an event does not happen: after a condition ("如果……，就不会发生",
#: "with one transaction … cannot happen") they state the fix's consequence instead.
_EVENT = (
    rf"(不会|不可能)(发生|出现)(了|的)?{_END}|是无害的|其实无害|"
    rf"其实(并|根本)?(不会|没有){_END}|"
    r"\b(cannot happen|can't happen|never happens|won't happen|does not happen"
    r"|doesn't happen|(is|are|was|that's|it's) (completely |totally )?harmless)\b|"
    r"\bbut (no|not really|it (does not|doesn't|will not|won't|cannot|can't))\b"
)
_DENIAL = re.compile(f"(?P<judged>{_JUDGED})|(?P<event>{_EVENT})", re.IGNORECASE)
_CONSEQUENCE = re.compile(r"就|便")
#: A denial that comes first: "It is a myth that X", "说 X 是不对的" reads after.
_DENIED_NEXT = re.compile(
    r"\b(it is|it's) (a myth|false|not true|untrue|wrong|a misconception) that\b|"
    r"\b(the idea|the claim|the belief) that\b(?=.{0,120}\b(is|are) (false|wrong|a myth|not true))",
    re.IGNORECASE,
)
_CONDITION = re.compile(
    r"如果|假如|要是|只要|一旦|(^|[，,]) ?(有了|用了|改用)|\b(if|once|as long as)\b|(^|, ?)with\b",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(
    r"有人(说|讲|认为|以为|觉得|担心|怀疑|声称|提到)|有些人|很多人(以为|认为|觉得)|常有人说|"
    r"据说|听说|网上说|文章(里)?说|"
    r"\b(people|some|many|others|someone|somebody)( people)? (say|said|think|believe|claim"
    r"|assume|worry|argue|fear|suggest)s?\b|\bit is (often |commonly )?(said|believed|claimed)\b|"
    r"\b(one|you) (might|may|could) think\b|\bmight seem\b|\bit may seem\b"
    r"|\ba common (belief|myth)\b",
    re.IGNORECASE,
)
#: Where an attributed claim ends and the student speaks again.
_TURN = re.compile(
    r"但是|但|可是|然而|不过|其实|实际上|事实上|\b(but|however|actually|in fact)\b",
    re.IGNORECASE,
)
_ENDORSE = re.compile(
    r"这是对的|说得对|没错|确实如此|确实是这样|是正确的|\b(that|this|it) is (true|right|correct)\b|"
    r"\b(that's|this is) (true|right|correct)\b|\bindeed\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"[，,：:；;、。！？!?]|\.(?=\s|$)")
_SENTENCE_END = re.compile(r"[。！？!?]|\.(?=\s|$)")
#: Where a leading denial ("It is a myth that …") stops.
_STOP = re.compile(r"[：:；;。！？!?]|\.(?=\s|$)|\b(but|however|actually|in fact)\b", re.I)


@dataclass(frozen=True)
class Region:
    start: int
    end: int
    kind: Kind

    def holds(self, spans: Sequence[tuple[int, int]]) -> bool:
        return bool(spans) and all(self.start <= s and e <= self.end for s, e in spans)


def _covered(start: int, end: int, terms: Sequence[tuple[int, int]]) -> bool:
    """True when a rubric term holds the whole of ``[start, end)``."""
    return any(s <= start and end <= e for s, e in terms)


def _touched(start: int, end: int, terms: Sequence[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in terms)


def _first_clause_end(text: str, start: int) -> int:
    found = _CLAUSE.search(text, start)
    return found.start() if found else len(text)


@dataclass(frozen=True)
class Reading:
    """A window's denied and attributed regions, and where the denying and attributing
    words themselves stand (a rubric term inside them, "false" in "that is false", is
    not a term the student used)."""

    regions: tuple[Region, ...]
    words: tuple[tuple[int, int], ...]

    def inside_words(self, span: tuple[int, int]) -> bool:
        return any(s <= span[0] and span[1] <= e for s, e in self.words)


def read(
    text: str,
    terms: Sequence[tuple[int, int]],
    following: str = "",
    following_terms: Sequence[tuple[int, int]] = (),
) -> Reading:
    """``text``: one sentence or two; ``following``: the sentence after them in the same
    paragraph, read only for a denial in its first clause. ``terms``/``following_terms``:
    where rubric terms matched in each."""
    found: list[Region] = []
    words: list[tuple[int, int]] = []
    # One pass per pattern (then bisect), so the work stays linear in the text.
    markers = [m.end() for m in _ATTRIBUTION.finditer(text)]
    turns = [m.start() for m in _TURN.finditer(text)]
    endorsed = max((m.start() for m in _ENDORSE.finditer(text)), default=-1)
    for end_of_marker in markers:
        turn = bisect.bisect_left(turns, end_of_marker)
        end = turns[turn] if turn < len(turns) else len(text)
        if endorsed < end_of_marker:
            found.append(Region(end_of_marker, end, "attributed"))
    words.extend(m.span() for m in _ATTRIBUTION.finditer(text))
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    breaks = [m.end() for m in _CLAUSE.finditer(text)]

    def scope(position: int) -> int:
        before = bisect.bisect_right(markers, position)
        return markers[before - 1] if before else 0

    for denial in _DENIAL.finditer(text):
        if _covered(denial.start(), denial.end(), terms):
            continue
        begin = scope(denial.start())
        if denial["event"]:
            # After a condition ("If …, X cannot happen", "……放进同一个事务，这两种问题
            # 就不会发生了") it denies only its own clause, the consequence, never the
            # condition; the condition must stand in the denial's own sentence ("If …, X.
            # That cannot happen." still denies X).
            before = bisect.bisect_right(ends, denial.start())
            sentence = max(begin, ends[before - 1]) if before else begin
            if _CONDITION.search(text, sentence, denial.start()) or _CONSEQUENCE.search(
                text, max(begin, denial.start() - 3), denial.start()
            ):
                before = bisect.bisect_right(breaks, denial.start())
                last = breaks[before - 1] if before else -1
                begin = last if last >= sentence else denial.start()
        words.append(denial.span())
        found.append(Region(begin, denial.start(), "denied"))
    for denial in _DENIED_NEXT.finditer(text):
        words.append(denial.span())
        stop = _STOP.search(text, denial.end())
        found.append(Region(denial.end(), stop.start() if stop else len(text), "denied"))
    if following and _denies(following, following_terms):
        found.append(Region(scope(len(text)), len(text), "denied"))
    return Reading(tuple(found), tuple(words))


def _denies(sentence: str, terms: Sequence[tuple[int, int]]) -> bool:
    """Does the first clause of ``sentence`` deny what came before, stating nothing of its
    own ("这种情况其实不会发生。", "Actually, that is a myth.")?"""
    start = 0
    while start < len(sentence) and not sentence[start].isalnum():
        start += 1
    end = _first_clause_end(sentence, start)
    # A short opening clause ("Actually," "其实，") may precede the denying one.
    if end - start <= 10 and not _DENIAL.search(sentence, start, end):
        end = _first_clause_end(sentence, end + 1)
    return bool(_DENIAL.search(sentence, start, end)) and not _touched(start, end, terms)


def polarity(spans: Sequence[tuple[int, int]], found: Sequence[Region]) -> Kind | None:
    """``denied`` or ``attributed`` when the claim at ``spans`` lies in such a region (a
    region both denied and attributed reads as denied), else None: the student's own."""
    kinds = {region.kind for region in found if region.holds(spans)}
    if "denied" in kinds:
        return "denied"
    return "attributed" if kinds else None
