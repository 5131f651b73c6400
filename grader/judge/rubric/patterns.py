"""Rubric terms as regular expressions that cannot backtrack catastrophically.

Every term is checked by ``lint`` before it is compiled: no unbounded repetition (``*``,
``+``, ``{m,}``), no repeated group (``(...){m,n}``, ``(...)*``), every bound at most
``MAX_BOUND``. It only ever runs on one sentence of at most ``MAX_SENTENCE`` characters
(see ``text``), so the work per term and sentence is bounded even in the pure-Python
engine. When ``google-re2`` is installed its linear-time engine is used instead; both
engines get the same flags (case-insensitive, ASCII ``\\w``/``\\b`` so an English word glued
to Chinese text still has a word boundary) and the tests check they agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Protocol

#: Largest ``{m,n}`` bound a term may use (the gap allowed between two words).
MAX_BOUND = 30


class Pattern(Protocol):
    def finditer(self, text: str) -> Iterator[Match]: ...


class Match(Protocol):
    def start(self) -> int: ...
    def end(self) -> int: ...


class UnboundedPattern(ValueError):
    """A rubric term that could backtrack without bound (a bug in the rubric data)."""


def lint(pattern: str) -> None:
    """Raise ``UnboundedPattern`` unless every repetition in ``pattern`` is bounded and flat."""
    index, in_class = 0, False
    previous = ""
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            previous, index = "escape", index + 2
            continue
        if in_class:
            in_class = char != "]"
            previous = "class" if not in_class else previous
            index += 1
            continue
        if char == "[":
            in_class = True
        elif char in "*+":
            raise UnboundedPattern(f"unbounded {char!r} in {pattern!r}")
        elif char == "{":
            close = pattern.find("}", index)
            _, _, high = pattern[index + 1 : close].partition(",")
            if close < 0 or not high.strip().isdigit() or int(high) > MAX_BOUND:
                raise UnboundedPattern(
                    f"repetition must be {{m,n}} with n <= {MAX_BOUND}: {pattern!r}"
                )
            if previous == ")":
                raise UnboundedPattern(f"a repeated group can backtrack: {pattern!r}")
            index = close
        previous = char
        index += 1


def _re2_compiler() -> Callable[[str], Pattern] | None:
    try:
        import re2  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return None

    options = re2.Options()
    options.case_sensitive = False

    def compile_re2(pattern: str) -> Pattern:
        compiled: Pattern = re2.compile(pattern, options)
        return compiled

    return compile_re2


def _re_compile(pattern: str) -> Pattern:
    return re.compile(pattern, re.IGNORECASE | re.ASCII)


@cache
def engine() -> str:
    """``re2`` when google-re2 imports, else ``re`` (the pure-Python fallback);
    ``GRADER_RUBRIC_ENGINE=re`` forces the fallback (to measure or test it)."""
    import os

    if os.environ.get("GRADER_RUBRIC_ENGINE") == "re":
        return "re"
    return "re2" if _re2_compiler() is not None else "re"


@cache
def compiled(pattern: str, use: str | None = None) -> Pattern:
    """The linted, compiled term (``use``: force ``re`` or ``re2``; default ``engine()``)."""
    lint(pattern)
    compiler = _re2_compiler() if (use or engine()) == "re2" else None
    return compiler(pattern) if compiler is not None else _re_compile(pattern)
