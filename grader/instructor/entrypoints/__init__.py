"""The instructor wing's entry points, and the one hook through which the ``grader`` command
finds them.

``grader.frontends.cli`` (the student side) never imports this wing: it looks this module up
by name (``INSTRUCTOR_PLUGIN`` there) and calls ``command_modules()``. A student copy has no
``grader/instructor/`` (``grader release``), and an install without the ``instructor`` extra
(``pip install -e .``) lacks the wing's dependencies: in both, ``grader --help`` lists only
the student's commands. ``missing_extra()`` says which dependencies are absent, read from the
package's own metadata, so the extra is written down once (``pyproject.toml``).
"""

from __future__ import annotations

import functools
import importlib
import re
from importlib.metadata import PackageNotFoundError, distribution, requires
from types import ModuleType

#: The instructor's subcommands, in ``--help`` order: modules of ``.commands``.
COMMAND_NAMES = (
    "build_starters",
    "grade",
    "worker",
    "export",
    "feedback",
    "stats",
    "review",
    "inbox",
    "release",
    "roster",
    "extend",
    "integrity",
    "gradebook",
)
DISTRIBUTION = "ticketflow-course"
EXTRA = "instructor"
#: How to install it, as the ``--help`` of an install without it says.
INSTALL_HINT = f'pip install -e ".[{EXTRA}]"'
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_IN_EXTRA = re.compile(rf"""extra\s*==\s*["']{EXTRA}["']""")


@functools.cache
def missing_extra() -> tuple[str, ...]:
    """The distributions of the ``instructor`` extra that are not installed (none when the
    course package itself is not installed: then nothing is known to be missing)."""
    try:
        requirements = requires(DISTRIBUTION) or []
    except PackageNotFoundError:
        return ()
    names = []
    for requirement in requirements:
        found = _NAME.match(requirement)
        if found and _IN_EXTRA.search(requirement.partition(";")[2]):
            names.append(found.group(0))
    return tuple(name for name in names if not _installed(name))


def _installed(name: str) -> bool:
    try:
        distribution(name)
    except PackageNotFoundError:
        return False
    return True


def command_modules() -> tuple[ModuleType, ...]:
    """The instructor's command modules; none when the extra is not installed."""
    if missing_extra():
        return ()
    return tuple(importlib.import_module(f"{__name__}.commands.{name}") for name in COMMAND_NAMES)
