"""The ticketflow course grader.

In a notebook::

    from grader import check
    check("EX-12-01")            # a CheckReport; Jupyter shows it as an HTML table
    submit()                     # hand in to the course's inbox ($GRADER_INBOX, $GRADER_TOKEN)

Importing ``grader`` is cheap: everything is loaded on first use.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.app.inbox_client import HandinReceipt
    from grader.judge.results import CheckReport, CheckResult

__all__ = ["CheckReport", "CheckResult", "check", "submit"]


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


def submit(
    student: str | None = None,
    *,
    to: str | None = None,
    token: str | None = None,
    root: str | Path | None = None,
    lang: str | None = None,
) -> HandinReceipt | None:
    """Pack this course's answers and hand them in to the inbox (``grader submit --to``):
    ``to``/``token`` default to ``$GRADER_INBOX``/``$GRADER_TOKEN``, ``student`` to the
    OS user. Returns the inbox's receipt (server time, sha256, version), or None after
    printing, in the student's words, why nothing was handed in (never a traceback)."""
    from grader.frontends.notebook import submit as notebook_submit

    return notebook_submit(student, to=to, token=token, root=root, lang=lang)


def __getattr__(name: str) -> Any:
    if name in ("CheckReport", "CheckResult"):
        from grader.judge import results

        return getattr(results, name)
    raise AttributeError(f"module 'grader' has no attribute {name!r}")
