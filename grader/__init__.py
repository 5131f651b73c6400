"""The ticketflow course grader.

In a notebook::

    from grader import check
    check("EX-12-01")            # a CheckReport; Jupyter shows it as an HTML table

Importing ``grader`` is cheap: everything is loaded on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.judge.results import CheckReport, CheckResult

__all__ = ["CheckReport", "CheckResult", "check"]


def check(
    exercise_id: str,
    submission: str | Path | None = None,
    *,
    lang: str | None = None,
    root: str | Path | None = None,
) -> CheckReport:
    """Check an exercise from a (warm) notebook kernel; see ``grader.frontends.notebook.check``."""
    from grader.frontends.notebook import check as notebook_check

    return notebook_check(exercise_id, submission, lang=lang, root=root)


def __getattr__(name: str) -> Any:
    if name in ("CheckReport", "CheckResult"):
        from grader.judge import results

        return getattr(results, name)
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
