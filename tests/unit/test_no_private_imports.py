"""No module in ``grader/`` or ``src/`` uses another package's ``_private`` names.

A name with one leading underscore is free to change without notice; a package that needs
it from another package needs a public name instead (for example
``ticketflow.notifications.statements`` for the grader's stand-ins). Two forms are caught,
by ``ast`` over every ``.py`` file:

* ``from ticketflow.x import _name`` (or ``from ticketflow.x._mod import name``);
* ``m._name`` where ``m`` was bound by ``import`` / ``from ... import`` to something from
  another package (``from ticketflow.notifications import effects`` then
  ``effects._receipt_upsert``, or ``import ticketflow.x`` then ``ticketflow.x._y``).

Dunder names (``__table__``, ``__name__``) are public protocol, not private.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = frozenset({"ticketflow", "ticketflow_lab", "grader"})
SOURCES = (ROOT / "grader", ROOT / "src")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _package_of(path: Path) -> str:
    relative = path.relative_to(ROOT)
    parts = relative.parts[1:] if relative.parts[0] == "src" else relative.parts
    return parts[0]


def _foreign(module: str | None, own: str) -> bool:
    top = (module or "").split(".")[0]
    return top in PACKAGES and top != own


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything that is not a plain name chain."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def offences(source: str, own: str) -> list[str]:
    """Every use of another package's private name in ``source`` (a module of ``own``)."""
    tree = ast.parse(source)
    bound: dict[str, str] = {}  # local name -> the foreign module path it stands for
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _foreign(alias.name, own):
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _foreign(node.module, own):
            module = node.module or ""
            for alias in node.names:
                if any(_private(part) for part in module.split(".")) or _private(alias.name):
                    found.append(f"line {node.lineno}: from {module} import {alias.name}")
                bound[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = _dotted(node)
            if chain is not None and chain[0] in bound:
                found.append(f"line {node.lineno}: {'.'.join(chain)}")
    return sorted(set(found), key=lambda line: int(line.split()[1].rstrip(":")))


def _python_files() -> list[Path]:
    return sorted(path for root in SOURCES for path in root.rglob("*.py"))


def test_the_check_sees_the_source_tree() -> None:
    files = _python_files()
    packages = {_package_of(path) for path in files}
    assert packages >= PACKAGES, packages
    assert len(files) > 50


@pytest.mark.parametrize(
    "source",
    [
        "from ticketflow.notifications.effects import _BUSINESS_TASK_INSERT\n",
        "from ticketflow.notifications._impl import insert_receipt\n",
        "from ticketflow.notifications import effects\neffects._receipt_upsert('sqlite')\n",
        "from ticketflow.notifications import effects as e\nx = e._RECEIPTS\n",
        "import ticketflow.notifications.effects\nticketflow.notifications.effects._TASKS\n",
        "import ticketflow.workers.policy as p\np.BoundedRetryPolicy._max\n",
        "def f():\n    from ticketflow_lab import harness\n    return harness._private()\n",
    ],
)
def test_a_private_name_of_another_package_is_caught(source: str) -> None:
    assert offences(source, own="grader"), source


@pytest.mark.parametrize(
    "source",
    [
        "from ticketflow.notifications.statements import BUSINESS_TASK_INSERT\n",
        "from grader.proxy.oracle import _helpers\n",  # the importing package's own private
        "from ticketflow.db.models import BusinessTask\nBusinessTask.__table__\n",
        "import ticketflow\nticketflow.__version__\n",
        "self._max_retries = 3\n",  # not bound to another package
        "from .link import _frame\n",  # relative: always the same package
    ],
)
def test_public_names_and_own_privates_pass(source: str) -> None:
    assert offences(source, own="grader") == [], source


def test_no_module_uses_another_packages_private_names() -> None:
    report = []
    for path in _python_files():
        for offence in offences(path.read_text(encoding="utf-8"), _package_of(path)):
            report.append(f"{path.relative_to(ROOT)} {offence}")
    assert report == [], "\n".join(report)
