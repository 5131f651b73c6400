"""Does a sentence assert a term, or deny it?

A term found in a sentence is *negated* when a negator stands shortly before it in the
same clause (commas, colons and "but" end a clause): zh 不/没/无/未/非/别/勿 (不会, 不是,
没有 …) within ``ZH_WINDOW`` characters, en not/n't/no/never/without/cannot/neither/nor
within ``EN_WINDOW`` words. "Not only … but", 不仅/不只/不但/不光 … 而且 and words such
as 不同, 无论, 非常 are not negations. A negator that is itself part of a rubric term
(``covered``: "还没 ACK", "does not consume") does not negate a neighbouring term.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

ZH_WINDOW = 6
EN_WINDOW = 3

_CLAUSE_BREAK = re.compile(r"[，,：:；;、（）()]|\bbut\b|但是|但|而是|而且|然而|however", re.I)
_ZH_NEGATOR = re.compile(r"[不没无未非别勿]")
#: Words that start with a negator character but do not negate what follows.
_ZH_NOT_NEGATION = (
    "不仅", "不只", "不但", "不光", "不止", "不单", "不管", "不同", "不断", "无论", "非常",
    "并非只", "不一样", "无关", "未来", "不久", "不少", "不错", "不停", "非得", "无疑", "除非",
    "别的", "别人", "别处", "区别", "分别", "特别", "类别", "级别", "差别", "告别",
)  # fmt: skip
_EN_WORD = re.compile(r"[a-z']{1,20}", re.I)
_EN_NEGATORS = frozenset({"not", "no", "never", "without", "cannot", "neither", "nor", "none"})
_EN_NOT_ONLY = frozenset({"only", "just", "merely", "simply"})


def clause_start(sentence: str, position: int) -> int:
    """Index where the clause holding ``position`` begins (bounded look-back)."""
    start = 0
    for found in _CLAUSE_BREAK.finditer(sentence, 0, position):
        start = found.end()
    return start


def _inside(index: int, covered: Sequence[tuple[int, int]]) -> bool:
    return any(start <= index < end for start, end in covered)


def negated(sentence: str, start: int, covered: Sequence[tuple[int, int]] = ()) -> bool:
    """True when the term found at ``sentence[start:]`` is denied by a preceding negator."""
    begin = clause_start(sentence, start)
    window_start = max(begin, start - ZH_WINDOW)
    for found in _ZH_NEGATOR.finditer(sentence, window_start, start):
        index = found.start()
        if _inside(index, covered):
            continue
        if sentence.startswith(_ZH_NOT_NEGATION, index) or sentence.startswith(
            _ZH_NOT_NEGATION, max(0, index - 1)
        ):
            continue
        return True
    words = [(m.group().lower(), m.start()) for m in _EN_WORD.finditer(sentence, begin, start)]
    tail = words[-EN_WINDOW:]
    for offset, (word, index) in enumerate(tail):
        if _inside(index, covered):
            continue
        is_negator = word in _EN_NEGATORS or word.endswith("n't")
        following = tail[offset + 1][0] if offset + 1 < len(tail) else ""
        if is_negator and following not in _EN_NOT_ONLY:
            return True
    return False
