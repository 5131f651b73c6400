"""The Makefile's lists of test modules name what the suite has."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _variable(name: str) -> list[str]:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{name}\s*:=(.*)$", text, re.MULTILINE)
    assert found, name
    return found.group(1).split()


def test_every_module_marked_alone_is_in_the_alone_pass() -> None:
    """``make test`` runs ``-m alone`` on ``ALONE_TESTS`` only: a module left out would not run."""
    marked = sorted(
        str(path.relative_to(REPO))
        for path in (REPO / "tests").rglob("test_*.py")
        if "files" not in path.relative_to(REPO).parts
        and re.search(r"pytest\.mark\.alone\b", path.read_text(encoding="utf-8"))
    )
    assert marked and sorted(_variable("ALONE_TESTS")) == marked


def test_the_portable_pass_names_modules_that_exist() -> None:
    assert all((REPO / path).is_file() for path in _variable("PORTABLE_TESTS"))
