"""Winnowing fingerprints (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for
document fingerprinting", SIGMOD 2003), the method behind MOSS.

Why our own small module and not a library: the checks need exactly MOSS's properties,
and they are small: (1) code is compared as a token stream in which names, strings and numbers
are replaced by their kind, so renaming variables, editing comments or re-spacing does not
hide a copy; (2) a match of at least ``K + W - 1`` tokens is always found (the winnowing
guarantee), shorter ones are noise; (3) fingerprints shared with a *base* (the starter and
the reference solution) are dropped, as MOSS's ``-b`` does, so students who all wrote the
solution the course taught are not flagged. Nothing here runs student code: the text is
only parsed and tokenised.

Before fingerprinting, ``without_no_ops`` removes statements with no effect (``pass``, bare
constants, assignments to ``_``, ``if True:``) and splits compound asserts, so padding a
copy with ``_ = None`` after every line, or splitting ``assert a and b`` in two, hides
nothing. ``copydetect`` (PyPI) was measured and not used: see ``integrity``.
"""

from __future__ import annotations

import ast
import hashlib
import io
import keyword
import tokenize
from collections.abc import Iterable
from functools import lru_cache

#: Tokens per k-gram (MOSS's noise threshold) and the winnowing window.
K = 8
W = 6
SKIPPED = {
    tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
    tokenize.ENCODING, tokenize.ENDMARKER,
}  # fmt: skip


class _NoOps(ast.NodeTransformer):
    """Drops what does nothing and splits what asserts two things at once."""

    def _body(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        kept: list[ast.stmt] = []
        for statement in statements:
            visited = self.visit(statement)
            if visited is None:
                continue
            kept.extend(visited if isinstance(visited, list) else [visited])
        return kept

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for name in ("body", "orelse", "finalbody"):
            statements = getattr(node, name, None)
            if isinstance(statements, list) and all(isinstance(s, ast.stmt) for s in statements):
                kept = self._body(statements)
                setattr(node, name, kept or ([ast.Pass()] if name == "body" else []))
        for name in ("handlers", "cases"):
            for child in getattr(node, name, None) or []:
                self.visit(child)
        return node

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        if isinstance(node.value, (ast.Constant, ast.Name)):
            return None
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        to_underscore = all(isinstance(t, ast.Name) and t.id == "_" for t in node.targets)
        if to_underscore and isinstance(node.value, (ast.Constant, ast.Name)):
            return None
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
        if isinstance(node.test, ast.Constant):
            return self._body(node.body if node.test.value else node.orelse) or None
        return self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> list[ast.stmt]:
        return [ast.Assert(test=part, msg=None) for part in _conjuncts(node.test)]


def _conjuncts(test: ast.expr) -> list[ast.expr]:
    """``a and b`` -> a, b; ``(a, b) == (c, d)`` -> a == c, b == d; else the test itself."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [part for value in test.values for part in _conjuncts(value)]
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.left, ast.Tuple)
        and isinstance(test.comparators[0], ast.Tuple)
        and len(test.left.elts) == len(test.comparators[0].elts)
    ):
        pairs = zip(test.left.elts, test.comparators[0].elts, strict=True)
        return [ast.Compare(left=a, ops=[ast.Eq()], comparators=[b]) for a, b in pairs]
    return [test]


@lru_cache(maxsize=4096)
def without_no_ops(text: str) -> str:
    """The program with no-op statements removed and asserts split, re-printed by ``ast``
    (one layout for every spacing); text that does not parse is returned as it is."""
    try:
        tree = ast.parse(text)
        tree.body = _NoOps()._body(tree.body)
        return ast.unparse(tree)
    except (SyntaxError, ValueError, RecursionError):
        return text


def code_tokens(text: str) -> list[str]:
    """Python tokens with names, strings and numbers replaced by their kind; text that
    does not tokenise falls back to its words."""
    tokens: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in SKIPPED:
                continue
            if token.type == tokenize.NAME:
                tokens.append(token.string if keyword.iskeyword(token.string) else "N")
            elif token.type == tokenize.STRING:
                tokens.append("S")
            elif token.type == tokenize.NUMBER:
                tokens.append("0")
            else:
                tokens.append(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text.split()
    return tokens


def _hash(gram: Iterable[str]) -> int:
    digest = hashlib.blake2b("\x1f".join(gram).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def fingerprints(tokens: list[str], k: int = K, w: int = W) -> set[int]:
    """The winnowed fingerprints: in each window of ``w`` consecutive k-gram hashes, the
    minimum, each value recorded once."""
    hashes = [_hash(tokens[i : i + k]) for i in range(len(tokens) - k + 1)]
    if len(hashes) <= w:
        return set(hashes)
    chosen: set[int] = set()
    for start in range(len(hashes) - w + 1):
        window = hashes[start : start + w]
        smallest = min(window)
        chosen.add(smallest)
    return chosen


def similarity(a: set[int], b: set[int]) -> float:
    """Shared fingerprints over all of both (Jaccard). Stricter than MOSS's "share of the
    smaller file": two probes written from the same solution share much of their own code
    without one being a copy (two of the course's wrong-probe fixtures share 0.89 of the
    smaller set, 0.67 Jaccard); a renamed, re-spaced copy stays at 1.0."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)
