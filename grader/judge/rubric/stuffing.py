"""Keyword stuffing: rubric words strung together without saying anything.

A sentence is *stuffed* (its terms count for nothing) when it holds at least two rubric
terms and

- it is a fragment: not one connecting word (a verb, auxiliary, particle or conjunction,
  zh or en, or an arrow: "late ACK → 还没 ack" is a note of cause and effect) outside the
  rubric terms;
- or it is a list: rubric terms make up more than ``MAX_COVERAGE`` of its words, and most
  of the gaps between them are bare (spaces and commas: "重投 已存在 跳过, duplicate"); a
  terse sentence is mostly rubric words too, but they are joined by words or written
  together ("中间崩溃会丢通知");
- or it reaches concepts of ``MAX_SECTIONS`` or more different template sections at once;
- or it is a chant: fewer than ``MIN_VARIETY`` of its words are distinct;
- or the same sentence stands in two or more sections (pasted under every heading), or
  three or more times anywhere.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence

MAX_COVERAGE = 0.75
MAX_SECTIONS = 3
MIN_VARIETY = 0.35
MIN_WORDS_FOR_VARIETY = 12

_ZH_CONNECTORS = re.compile(
    "[的了是会就把被在时后而但都也还又再才让给对从到由这那它要能用和与并即于以为着过将因所如若则"
    "该得已发写做看查拿等变造导使去来成说想知道决保需必应可靠]"
)
_EN_WORD = re.compile(r"[a-z']{1,20}", re.I)
_ARROW = re.compile(r"->|=>|[→⇒⟶]")
_TOKEN = re.compile(r"[A-Za-z0-9_]{1,40}|[^\x00-\x7f]")
_EN_CONNECTORS = frozenset((
    "the", "a", "an", "is", "are", "was", "were", "be", "been", "being", "will", "would",
    "does", "do", "did", "it", "its", "this", "that", "so", "because", "if", "when", "then",
    "to", "of", "in", "on", "by", "with", "has", "have", "had", "can", "could", "must",
    "should", "may", "might", "into", "after", "before", "while", "which", "who", "there",
    "they", "he", "she", "we", "you", "as", "until", "since", "from", "at", "than", "gets",
    "got", "get", "makes", "made", "sees", "saw", "finds", "found", "goes", "went", "comes",
    "came", "keeps", "means",
))  # fmt: skip


#: A term match longer than this is "word, gap, word": only its ends count as rubric words,
#: so the connecting text in the gap still counts as connecting text.
LONG_SPAN = 12
END = 4


def keyword_spans(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for start, end in spans:
        if end - start > LONG_SPAN:
            out += [(start, start + END), (end - END, end)]
        else:
            out.append((start, end))
    return out


def coverage(sentence: str, spans: Sequence[tuple[int, int]]) -> float:
    """Share of the sentence's words (an English word or one Chinese character each) that
    lie inside rubric terms."""
    covered = bytearray(len(sentence))
    for start, end in spans:
        covered[start:end] = b"\x01" * (end - start)
    starts = [found.start() for found in _TOKEN.finditer(sentence) if found.group().isalnum()]
    if not starts:
        return 0.0
    return sum(covered[index] for index in starts) / len(starts)


#: A term match up to this long is a keyword; a connecting word inside a longer one (in the
#: gap of "broker${GAP}重投": "broker 的重投") still connects.
KEYWORD = 6


def has_connector(sentence: str, spans: Sequence[tuple[int, int]]) -> bool:
    covered = bytearray(len(sentence))
    for start, end in spans:
        if end - start <= KEYWORD:
            covered[start:end] = b"\x01" * (end - start)
    if any(not covered[found.start()] for found in _ZH_CONNECTORS.finditer(sentence)):
        return True
    if any(not covered[found.start()] for found in _ARROW.finditer(sentence)):
        return True
    return any(
        not covered[found.start()] and found.group().lower() in _EN_CONNECTORS
        for found in _EN_WORD.finditer(sentence)
    )


def stuffed(sentence: str, spans: Sequence[tuple[int, int]], sections_reached: int) -> bool:
    """``spans``: where rubric terms (of any concept) matched; ``sections_reached``: how
    many template sections the concepts it mentions belong to."""
    if len(spans) < 2:
        return False
    if sections_reached >= MAX_SECTIONS:
        return True
    if chant(sentence):
        return True
    keywords = keyword_spans(spans)
    if not has_connector(sentence, keywords):
        return True
    return coverage(sentence, keywords) > MAX_COVERAGE and bare_gaps(sentence, spans) > 0.5


_BARE = re.compile(r"[\s,，、;；:：/|+&]{1,40}")


def bare_gaps(sentence: str, spans: Sequence[tuple[int, int]]) -> float:
    """Share of the gaps between consecutive rubric terms holding only spaces and commas."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    gaps = [sentence[a[1] : b[0]] for a, b in itertools.pairwise(merged)]
    if not gaps:
        return 0.0
    return sum(1 for gap in gaps if _BARE.fullmatch(gap)) / len(gaps)


def chant(sentence: str) -> bool:
    words = [found.group().lower() for found in _TOKEN.finditer(sentence)]
    words = [word for word in words if word.isalnum()]
    return len(words) >= MIN_WORDS_FOR_VARIETY and len(set(words)) < MIN_VARIETY * len(words)


def normalized(sentence: str) -> str:
    return "".join(char for char in sentence.lower() if char.isalnum())


def repeated_sentences(sentences: Iterable[tuple[str, str]]) -> frozenset[str]:
    """Normalised texts of the sentences that appear in two or more sections, or three or
    more times."""
    seen: dict[str, list[str]] = {}
    for text, section in sentences:
        key = normalized(text)
        if len(key) >= 8:
            seen.setdefault(key, []).append(section)
    return frozenset(key for key, where in seen.items() if len(set(where)) >= 2 or len(where) >= 3)
