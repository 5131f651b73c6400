"""Text copied from the exercise statement (or its hint) counts for nothing.

A sentence is *copied* when most of its word trigrams (three consecutive words: an English
word or identifier, or one Chinese character; punctuation and case ignored) also occur in
the statement: pasting the question back, or a sentence of it with a word changed, states
nothing of the student's own; naming an identifier of the statement in a sentence of one's
own does not make it copied. Linear: one set of the statement's trigrams, one pass per
sentence.
"""

from __future__ import annotations

import re

from grader.judge.rubric.text import normalize

#: Share of a sentence's trigrams found in the statement from which it is copied.
COPIED_SHARE = 0.6
#: Sentences of fewer words are never called copied.
MIN_WORDS = 6
#: Characters of the statement read (a statement has ~600).
MAX_STATEMENT = 12_000


_WORD = re.compile(r"[A-Za-z0-9]{1,40}|[^\x00-\x7f]")

Trigram = tuple[str, str, str]


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text) if w.isalnum()]


def _trigrams(words: list[str]) -> set[Trigram]:
    return {(words[i], words[i + 1], words[i + 2]) for i in range(len(words) - 2)}


def statement_trigrams(statement: str) -> frozenset[Trigram]:
    return frozenset(_trigrams(_words(normalize(statement[:MAX_STATEMENT]))))


def copied(sentence: str, statement: frozenset[Trigram]) -> bool:
    words = _words(sentence)
    if not statement or len(words) < MIN_WORDS:
        return False
    grams = _trigrams(words)
    return len(grams & statement) >= COPIED_SHARE * len(grams)
