"""``grader.check()`` for notebooks: the grading service, errors as a report.

Every call is graded like ``grader check`` (``GradingService.check``) by a service kept for
the kernel's lifetime (one per settings), and gets a fresh fork server of its own, so
nothing of one call (one student, or one version of an answer) is in memory when the next
one runs. Errors come back as a report with status "error" (no
traceback in the notebook); an exercise id is shown with its control characters spelled
out, never raw.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.errors import GraderError, InternalError, UnknownExercise
from grader.judge.message import Message
from grader.judge.results import CheckReport, build_report, failed_check

if TYPE_CHECKING:
    from grader.app.inbox_client import HandinReceipt
    from grader.app.service import GradingService, GradingSettings


@dataclasses.dataclass(frozen=True)
class ShownReport(CheckReport):
    """A report that shows itself: Jupyter's HTML table, ``print()``'s text, ``to_dict()``."""

    @classmethod
    def of(cls, report: CheckReport) -> ShownReport:
        fields = {field.name: getattr(report, field.name) for field in dataclasses.fields(report)}
        return cls(**fields)

    def to_dict(self, lang: str | None = None) -> dict[str, Any]:
        from grader.render.json_out import report_to_dict

        return report_to_dict(self, lang or self.lang)

    def _repr_html_(self) -> str:
        from grader.render.html import report_to_html

        return report_to_html(self, self.lang)

    def __str__(self) -> str:
        from grader.render.text import report_to_text

        return report_to_text(self, self.lang, color=False)


def check(
    exercise_id: str,
    submission: str | Path | None = None,
    *,
    lang: str | None = None,
    root: str | Path | None = None,
) -> CheckReport:
    from grader.render.catalog import resolve_lang

    language = resolve_lang(lang)
    try:
        return ShownReport.of(_check(exercise_id, submission, language, root))
    except GraderError as error:
        return error_report(exercise_id, error, language)
    except Exception as error:  # a notebook shows a report, never a grader traceback
        internal = InternalError(detail=f"{type(error).__name__}: {error}"[:300])
        return error_report(exercise_id, internal, language)


def _check(
    exercise_id: str, submission: str | Path | None, lang: str, root: str | Path | None
) -> CheckReport:
    from grader.app.service import GradingSettings
    from grader.frontends.commands.common import turn_notices

    # one service (and so one warm master) whatever the language; the call chooses it
    settings = GradingSettings.from_env(root=root, lang="zh", self_check=True)
    path = Path(submission) if submission is not None else None
    service = _service(settings)
    # who holds the user's turn, in the cell's output, in this call's language
    service.on_turn_wait = turn_notices(lang)
    return service.check(exercise_id, path, lang=lang).report


#: Keyed by the settings and, when no root is given, the directory it is searched from.
_services: dict[tuple[GradingSettings, str | None], GradingService] = {}


def _service(settings: GradingSettings) -> GradingService:
    """The kernel's service for ``settings`` (what it keeps warm is shared by its calls;
    what a call grades is not: each call is a student session of its own)."""
    from grader.app.service import GradingService

    key = (settings, os.getcwd() if settings.root is None else None)
    service = _services.get(key)
    if service is None:
        if not _services:
            atexit.register(_close_all)
        service = _services[key] = GradingService(settings)
    return service


def _close_all() -> None:
    for service in _services.values():
        service.close()
    _services.clear()


def error_report(exercise_id: str, error: GraderError, lang: str) -> ShownReport:
    from grader.judge.sanitize import visible

    check = failed_check("input", 0.0, Message(error.message_id, dict(error.params)))
    kind = "unknown_exercise" if isinstance(error, UnknownExercise) else "input_error"
    if error.exit_code != 2:
        kind = "internal_error"
    title = Message(f"report.{kind}")
    return ShownReport.of(
        build_report(visible(exercise_id), "code", (check,), status="error", title=title, lang=lang)
    )


def submit(
    student: str | None,
    *,
    to: str | None,
    token: str | None,
    root: str | Path | None,
    lang: str | None,
) -> HandinReceipt | None:
    """``grader.submit()``: hand in, print the receipt; a refusal is printed, not raised."""
    import getpass

    from grader.app.course import find_course_root
    from grader.app.inbox_client import inbox_address
    from grader.frontends.commands.submit import receipt_line
    from grader.frontends.handin import pack_and_hand_in
    from grader.render.catalog import render_message, resolve_lang

    shown = resolve_lang(lang)
    try:
        address = inbox_address(to, token)
        course = find_course_root(Path(root) if root is not None else None)
        done = pack_and_hand_in(course, student or getpass.getuser(), address)
    except GraderError as error:
        print(render_message(error.message_id, error.params, shown), file=sys.stderr)
        return None
    print(render_message("submit.handed_in", {"url": address.url}, shown))
    print(receipt_line(done.receipt, shown))
    return done.receipt
