"""The terminal form of a report: a header, one line per check, then details for failures."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from grader.message import Message
from grader.render.catalog import render_message
from grader.render.sanitize import fenced, visible

if TYPE_CHECKING:
    from grader.results import CheckReport

_GREEN, _RED, _YELLOW, _DIM, _BOLD, _RESET = (
    "\x1b[32m",
    "\x1b[31m",
    "\x1b[33m",
    "\x1b[2m",
    "\x1b[1m",
    "\x1b[0m",
)


def use_color(stream: TextIO) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _points(value: float) -> str:
    return f"{value:g}"


def report_to_text(
    report: CheckReport, lang: str, *, color: bool | None = None, given: str | None = None
) -> str:
    """The report for a terminal. ``given``: the id as typed, when it was normalised
    ("EX-12-01 (from ex-12-1)"). In "rlimits" mode the FIRST line says the check was not
    isolated, so no screenshot of a pass can pass for an official one."""
    paint = use_color(sys.stdout) if color is None else color

    def t(message: Message) -> str:
        return render_message(message.id, message.params, lang)

    def c(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if paint else text

    status_color = {"passed": _GREEN, "needs_review": _YELLOW}.get(report.status, _RED)
    title = t(report.title) if report.title else ""
    status = t(Message(f"status.{report.status}"))
    score = f"{t(Message('label.score'))} {_points(report.score)}/{_points(report.max_score)}"
    exercise = report.exercise
    if given is not None:
        exercise = t(
            Message("report.normalized_id", {"exercise": exercise, "given": visible(given)})
        )
    lines = []
    if report.isolation == "rlimits":
        lines.append(c(_YELLOW, t(Message("report.weak_isolation"))))
    if report.status == "error":
        lines.append(c(_BOLD, f"{exercise} {title}") + f"  [{c(status_color, status)}]")
    else:
        lines.append(c(_BOLD, f"{exercise} {title}") + f"  [{c(status_color, status)}]  {score}")
    for check in report.checks:
        mark = c(_GREEN, "✔") if check.passed else c(_RED, "✘")
        lines.append(
            f"  {mark} {t(check.title)}  ({_points(check.points)}/{_points(check.max_points)})"
        )
        if check.passed:
            continue
        lines.append(f"      {t(check.message)}")
        if check.evidence:
            lines.append(c(_DIM, f"      {t(Message('label.evidence'))}:"))
            lines.extend(fenced(check.evidence, "      │ "))
        if check.hint is not None:
            lines.append(f"      {c(_YELLOW, t(Message('label.hint')))}: {t(check.hint)}")
    if report.summary is not None:
        lines.append(c(status_color, t(report.summary)))
    return "\n".join(lines)
