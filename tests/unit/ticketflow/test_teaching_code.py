"""ticketflow is read by students: the habits it shows are checked here (issue 33)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections import Counter
from pathlib import Path

import pytest

import ticketflow
from ticketflow.notifications.effects import apply_notification_once

PACKAGE = Path(ticketflow.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))
MODULES = sorted(
    info.name for info in pkgutil.walk_packages(ticketflow.__path__, prefix="ticketflow.")
)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', '?')}"


def test_no_import_inside_a_function() -> None:
    found = [
        _where(path, inner)
        for path in SOURCES
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if isinstance(inner, ast.Import | ast.ImportFrom)
    ]
    assert found == []


def test_no_any_in_the_package() -> None:
    """Not in a signature, not anywhere: ``typing.Any`` is never imported or named."""
    found = [
        _where(path, node)
        for path in SOURCES
        for node in ast.walk(_tree(path))
        if (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
        or (isinstance(node, ast.ImportFrom) and any(a.name == "Any" for a in node.names))
    ]
    assert found == []


def test_apply_notification_once_shows_one_path() -> None:
    source = inspect.getsource(apply_notification_once)
    tree = ast.parse(source)
    branches = [node for node in ast.walk(tree) if isinstance(node, ast.If)]
    assert [ast.unparse(node.test) for node in branches] == [
        "not isinstance(envelope, EventEnvelope)",  # the argument check
        "applied",  # the effect, only for the first delivery
    ]
    for other_path in ("dialect", "postgresql", "begin_nested", "IntegrityError", "try:"):
        assert other_path not in source


@pytest.mark.parametrize("name", ["NotificationHandler", "DeadLetterReason", "UnitOfWork"])
def test_one_definition(name: str) -> None:
    definitions = [
        _where(path, node)
        for path in SOURCES
        for node in ast.walk(_tree(path))
        if (isinstance(node, ast.ClassDef) and node.name == name)
        or (
            isinstance(node, ast.Assign | ast.AnnAssign)
            and any(
                isinstance(target, ast.Name) and target.id == name
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            )
        )
    ]
    assert len(definitions) == 1, definitions


#: Names the course's texts import from a second module (EX-11-01 takes the policy from
#: ``ticketflow.workers.tasks``; every exercise takes ``EventEnvelope`` from
#: ``ticketflow.messaging.outbox``): exported there too, defined once.
COURSE_PATHS = {
    "BoundedRetryPolicy": ("ticketflow.workers.policy", "ticketflow.workers.tasks"),
    "RetryDecision": ("ticketflow.workers.policy", "ticketflow.workers.tasks"),
    "RetryableTaskError": ("ticketflow.workers.policy", "ticketflow.workers.tasks"),
    "EventEnvelope": ("ticketflow.messaging.envelope", "ticketflow.messaging.outbox"),
}


def test_each_public_name_has_one_home() -> None:
    """A name is exported (``__all__``) by the module that defines it and by no other, except
    where the course's texts import it from (``COURSE_PATHS``, defining module first)."""
    exported: dict[str, list[str]] = {}
    for name in MODULES:
        for public in getattr(importlib.import_module(name), "__all__", ()):
            exported.setdefault(public, []).append(name)
    shared = {public: tuple(sorted(m)) for public, m in exported.items() if len(m) > 1}
    assert shared == {name: tuple(sorted(paths)) for name, paths in COURSE_PATHS.items()}
    for public, (home, _) in COURSE_PATHS.items():
        assert getattr(importlib.import_module(home), public).__module__ == home


def test_the_package_says_nothing_to_the_grader() -> None:
    """No contract addressed to the grader: its stand-ins copy or wrap public functions."""
    mentions = Counter(
        str(path.relative_to(PACKAGE.parent))
        for path in SOURCES
        for line in path.read_text(encoding="utf-8").splitlines()
        if "grader" in line.lower() or "stand-in" in line.lower()
    )
    assert mentions == Counter()
