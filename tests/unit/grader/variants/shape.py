"""How a stand-in differs from the real function: in its statements (AST) and in the SQL it
sends. Used by ``test_shape.py``; ``python -m tests.unit.grader.variants.shape`` prints the
report that ``files/shape_<target>.txt`` holds (regenerate it, then review the diff)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections import Counter
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, event

from grader.render.catalog import catalogue
from grader.variants import effects as effect_variants
from grader.variants import policy as policy_variants
from tests.support.db import ready_engine
from tests.support.factories import make_envelope
from tests.unit.grader.variants.builds import built
from ticketflow.notifications import effects
from ticketflow.workers.policy import BoundedRetryPolicy

#: The real function's PostgreSQL branch: no stand-in has it (the sandbox has no network).
POSTGRES_BRANCH = "connection.dialect.name == 'postgresql'"


def _function(source_object: Any) -> ast.FunctionDef:
    tree = ast.parse(textwrap.dedent(inspect.getsource(source_object)))
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    return function


def _variant(target: str, name: str) -> ast.FunctionDef:
    module = policy_variants if target == "policy" else effect_variants
    return _function(getattr(module, name))


def _real(target: str) -> ast.FunctionDef:
    if target == "policy":
        return _function(BoundedRetryPolicy.decision)
    return _function(effects.apply_notification_once)


def statements(function: ast.FunctionDef) -> Counter[str]:
    """Every simple statement, as ``<enclosing blocks> :: <code>`` (docstrings left out)."""
    found: Counter[str] = Counter()
    for path, statement in _walk(function.body, ()):
        found[" / ".join((*path, ast.unparse(statement)))] += 1
    return found


def _walk(
    body: list[ast.stmt], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], ast.stmt]]:
    for statement in body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        if isinstance(statement, ast.If):
            test = ast.unparse(statement.test)
            if test == POSTGRES_BRANCH:
                yield from _walk(statement.orelse, path)
                continue
            yield from _walk(statement.body, (*path, f"if {test}"))
            yield from _walk(statement.orelse, (*path, f"if not ({test})"))
        elif isinstance(statement, ast.With):
            items = ", ".join(ast.unparse(item) for item in statement.items)
            yield from _walk(statement.body, (*path, f"with {items}"))
        elif isinstance(statement, ast.Try):
            yield from _walk(statement.body, (*path, "try"))
            for handler in statement.handlers:
                caught = ast.unparse(handler.type) if handler.type else ""
                yield from _walk(handler.body, (*path, f"except {caught}"))
        elif isinstance(statement, ast.For | ast.While):
            head = ast.unparse(statement).splitlines()[0]
            yield from _walk(statement.body, (*path, head))
        else:
            yield path, statement


def statement_diff(target: str, name: str) -> list[str]:
    real, mine = statements(_real(target)), statements(_variant(target, name))
    removed = sorted((real - mine).elements())
    added = sorted((mine - real).elements())
    return [f"- {line}" for line in removed] + [f"+ {line}" for line in added]


class InjectedFailure(RuntimeError):
    pass


def sql_trace(apply: Any) -> list[str]:
    """Every statement a failure, a redelivery and a duplicate send, with its parameters'
    names and the table object the statement was built from."""
    engine: Engine = ready_engine()
    sent: list[str] = []
    left = [1]

    @event.listens_for(engine, "before_cursor_execute")
    def record(
        conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: Any
    ) -> None:
        compiled = getattr(context, "compiled", None)
        built_from = getattr(getattr(compiled, "statement", None), "table", None)
        keys = sorted(parameters) if isinstance(parameters, dict) else len(parameters or ())
        table = "" if built_from is None else f" on {type(built_from).__name__} {built_from.name}"
        sent.append(f"{' '.join(statement.split())} {keys}{table}")
        if left[0] and statement.lstrip().upper().startswith("INSERT INTO BUSINESS_TASKS"):
            left[0] -= 1
            raise InjectedFailure("effect store went away")

    transaction = effects.SqlAlchemyEffectTransaction(engine)
    envelope = make_envelope("evt-shape")
    for _ in range(3):
        try:
            apply(envelope, transaction)
        except InjectedFailure:
            sent.append("(raised)")
    engine.dispose()
    return sent


def sql_diff(name: str) -> list[str]:
    real, mine = (
        Counter(sql_trace(built("effects", "real"))),
        Counter(sql_trace(built("effects", name))),
    )
    removed = sorted((real - mine).elements())
    added = sorted((mine - real).elements())
    return [f"- {line}" for line in removed] + [f"+ {line}" for line in added]


def stand_in_names(module: Any) -> list[str]:
    """Every function the variants module defines, in the order it defines them."""
    return [
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__
    ]


def report(target: str) -> str:
    """For each stand-in: its catalogue description, then how it differs from the real code."""
    lines: list[str] = []
    module = policy_variants if target == "policy" else effect_variants
    for name in stand_in_names(module):
        kind = "twin" if name in module.TWINS else "mutant"
        lines += [f"## {kind} {name}", f"says: {catalogue('en')[f'{kind}.{name}']}", "statements:"]
        lines += [f"  {line}" for line in statement_diff(target, name)]
        if target == "effects":
            lines.append("sql (failure, redelivery, duplicate):")
            lines += [f"  {line}" for line in sql_diff(name)]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(report(sys.argv[1] if len(sys.argv) > 1 else "effects"), end="")
