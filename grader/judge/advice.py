"""Advice read from the probe's text: why a probe that passes everywhere may test nothing.

A verdict never rests on this (only on behaviour); it only chooses a more precise hint for
a wrong implementation the probe let through. Two mistakes are recognised:

- Python's own compile-time ``SyntaxWarning: assertion is always true`` (``assert (x, "msg")``
  asserts a non-empty tuple, which is always true);
- a test runner whose result is thrown away: ``pytest.main()`` or ``unittest.main(exit=False)``
  as a bare statement returns the failures instead of exiting with them, so the probe
  still exits 0.

Pure and bounded: one ``compile`` and one ``ast`` walk of the submitted text; anything the
text does that these cannot read yields no advice.
"""

from __future__ import annotations

import ast
import warnings

from grader.judge.results import Message, msg
from grader.judge.whereabouts import Locate, where

_ALWAYS_TRUE = "assertion is always true"


def always_true_assertion(source: str) -> int | None:
    """The line of the first assert Python warns is always true, or None."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SyntaxWarning)
        try:
            compile(source, "<probe>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    for warning in caught:
        if issubclass(warning.category, SyntaxWarning) and _ALWAYS_TRUE in str(warning.message):
            return warning.lineno
    return None


def _runner(call: ast.Call) -> str | None:
    """``pytest.main`` / ``unittest.main`` (exit=False) when ``call`` is one, else None."""
    function = call.func
    if not (isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name)):
        return None
    name = f"{function.value.id}.{function.attr}"
    if name == "pytest.main":
        return "pytest.main()"
    if name == "unittest.main":
        for keyword in call.keywords:
            value = keyword.value
            if keyword.arg == "exit" and isinstance(value, ast.Constant) and value.value is False:
                return "unittest.main(exit=False)"
    return None


def discarded_runner(source: str) -> tuple[str, int] | None:
    """(the call, its line) of the first test runner whose result is thrown away, or None."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            runner = _runner(node.value)
            if runner is not None:
                return runner, node.lineno
    return None


def _place(line: int, locate: Locate | None) -> Message:
    cell = where(line, locate)
    if cell is not None:
        return msg("advice.place_cell", cell=cell[0], line=cell[1])
    return msg("advice.place_line", line=line)


def source_hint(source: str, locate: Locate | None = None) -> Message | None:
    """The hint for a probe that let a wrong implementation through, when its text shows why."""
    line = always_true_assertion(source)
    if line is not None:
        return msg("hint.assert_always_true", place=_place(line, locate))
    runner = discarded_runner(source)
    if runner is not None:
        return msg("hint.discarded_runner", call=runner[0], place=_place(runner[1], locate))
    return None
