"""Evidence beyond structure: what two hand-ins share in their raw text that the course did
not give them and the class does not share.

Structure (winnowing over tokens with names reduced to their kind) is what finds a copy
that was renamed or re-spaced, but it cannot tell a copy from two students who both wrote
the obvious probe: the statement fixes the calls, the cases and the asserts. What a copier
keeps, and two honest students rarely both invent, is in the raw text: the names they
chose, their messages, their comments, their lines. An item counts as evidence only when
it is *rare*: not in the course's vocabulary (the starter, the solution, the statement,
Python's builtins, the generic names every probe uses) and written by few others in the
class (``ClassItems``).
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

#: A shared item is rare when at most this many students wrote it.
RARE_AT_MOST = 3
#: Raw lines shorter than this (folded) say nothing by themselves.
LINE_MIN = 24
#: Names, strings and comments shorter than this are what anyone writes.
ITEM_MIN = 4
#: Names anyone writes in a probe: never evidence, whoever shares them.
_GENERIC = (
    "i j k n x y a b c d e r s t ok ex err error errors exc result results res expected "
    "actual got want value values case cases row rows item items got outcome outcomes "
    "decision decisions data out output fields field name names count counts first "
    "second third main test tests check checks run args kwargs self cls engine session "
    "conn connection envelope transaction policy retries retry delay delays attempt "
    "attempts receipts tasks receipt task event events table label msg message setUp "
    "tearDown setUpClass __init__ __call__ __name__ __main__ "
)
GENERIC = frozenset(_GENERIC.split())
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: A name's words: snake_case parts and CamelCase humps.
_SEGMENT = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])|[^\W\d_a-zA-Z]+", re.UNICODE)


@dataclass(frozen=True)
class RawItems:
    """What a hand-in's raw text carries, each part a set of normalised strings."""

    names: frozenset[str]
    strings: frozenset[str]
    comments: frozenset[str]
    lines: frozenset[str]


@dataclass(frozen=True)
class Evidence:
    names: tuple[str, ...]
    strings: tuple[str, ...]
    comments: tuple[str, ...]
    lines: tuple[str, ...]

    @property
    def count(self) -> int:
        """Independent items. Shared lines are shown, not counted: a line made of a shared
        name is that name again, and one made of the statement's calls is everyone's."""
        return len(self.names) + len(self.strings) + len(self.comments)

    @property
    def weight(self) -> int:
        """A student's own words (a message, a comment) weigh two; a name, one: two students
        pick the same name far more often than they write the same sentence. Items from
        one choice (``test_row_0`` ... ``test_row_3``; "oops (retry)", "oops (countdown)")
        weigh as one: each part is counted by its items' first words."""
        return len(_firsts(self.names)) + 2 * (
            len(_firsts(self.strings)) + len(_firsts(self.comments))
        )


def _firsts(items: Iterable[str]) -> set[str]:
    return {words[0].casefold() for item in items if (words := _SEGMENT.findall(item))}


def _fold(text: str) -> str:
    return " ".join(_WORD.findall(unicodedata.normalize("NFKC", text).casefold()))


_QUOTES = re.compile(r"^[rRbBuUfF]{0,2}(\"{3}|'{3}|\"|')|(\"{3}|'{3}|\"|')$|^#+")


def _literal(text: str) -> str:
    """A string or comment as its author wrote it: spacing and case aside, punctuation
    kept ("oops :(" is not "oops"); quotes and a comment's "#" dropped."""
    return " ".join(unicodedata.normalize("NFKC", _QUOTES.sub("", text)).casefold().split())


def chosen_names(text: str) -> set[str]:
    """The names a student chose: what the program binds (variables, functions, classes,
    parameters, attributes it assigns, import aliases), not the library names it uses."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return set(_WORD.findall(text))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
    return names


def raw_items(text: str) -> RawItems:
    """Chosen names, string literals, comments and lines of ``text`` (folded)."""
    strings: set[str] = set()
    comments: set[str] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and (literal := _literal(token.string)):
                strings.add(literal)
            elif token.type == tokenize.COMMENT and (literal := _literal(token.string)):
                comments.add(literal)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    lines = {
        line.strip() for line in text.splitlines() if len(_fold(line).replace(" ", "")) >= LINE_MIN
    }
    return RawItems(
        frozenset(n for n in chosen_names(text) if len(n) >= ITEM_MIN),
        frozenset(s for s in strings if len(s.replace(" ", "")) >= ITEM_MIN),
        frozenset(c for c in comments if len(c.replace(" ", "")) >= ITEM_MIN),
        frozenset(lines),
    )


def vocabulary(course_texts: Iterable[str]) -> RawItems:
    """What the course gave every student: the items of its texts, plus builtins and the
    generic names; a statement's prose contributes its words as names and strings."""
    names: set[str] = set(GENERIC) | set(dir(builtins))
    strings: set[str] = set()
    comments: set[str] = set()
    lines: set[str] = set()
    for text in course_texts:
        items = raw_items(text)
        names |= items.names | set(_WORD.findall(text)) | set(re.findall(r"\w+", text))
        strings |= items.strings | set(text.split()) | set(_fold(text).split())
        comments |= items.comments
        lines |= items.lines
    return RawItems(frozenset(names), frozenset(strings), frozenset(comments), frozenset(lines))


PARTS = ("names", "strings", "comments")


class ClassItems:
    """Who in the class wrote each item, to tell rare items from common ones.

    An item is common when more than ``RARE_AT_MOST`` students wrote it, whatever the
    size of the class (ten students who chose one name make it no evidence between any
    two of them). Its limit: a ring of more copiers than that, all copying one file,
    makes that file's names common (a ring with no rare item left is still reported when
    its files are byte-identical). Counting only students outside a pair's structural cluster
    was measured and rejected: students who write the same popular style then share
    "rare" items, 38 to 42 false reports in the 48-probe class."""

    def __init__(self, every: Mapping[str, RawItems], course: RawItems) -> None:
        self.course = course
        self.every = every
        self.users: dict[str, dict[str, set[str]]] = {part: {} for part in PARTS}
        for student, items in every.items():
            for part in PARTS:
                for item in getattr(items, part):
                    self.users[part].setdefault(item, set()).add(student)
        self.limit = RARE_AT_MOST

    def rare(self, part: str, items: Iterable[str]) -> list[str]:
        known: frozenset[str] = getattr(self.course, part)
        return sorted(
            item
            for item in items
            if item not in known and len(self.users[part].get(item, ())) <= self.limit
        )

    def shared(self, left: str, right: str) -> Evidence:
        """The rare names, strings and comments both hand-ins carry."""
        a, b = self.every[left], self.every[right]
        names = self.rare("names", a.names & b.names)
        strings = self.rare("strings", a.strings & b.strings)
        comments = self.rare("comments", a.comments & b.comments)
        return Evidence(tuple(names), tuple(strings), tuple(comments), ())

    def with_lines(self, left: str, right: str, evidence: Evidence) -> Evidence:
        """``evidence`` with the shared lines that hold a word that is neither the
        course's nor an item already counted (shown to the reader, never counted)."""
        a, b = self.every[left], self.every[right]
        counted = {*evidence.names, *evidence.strings, *evidence.comments}
        known = self.course.names | self.course.strings | counted
        lines = sorted(
            line
            for line in (a.lines & b.lines) - self.course.lines
            if any(
                word not in known and not word.isdigit() and len(word) >= ITEM_MIN
                for word in re.findall(r"\w+", line)
            )
            and not any(
                item.casefold() in _fold(line) or item in _literal(line) for item in counted
            )
        )
        return replace(evidence, lines=tuple(lines))
