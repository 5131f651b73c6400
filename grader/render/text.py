"""The terminal form of a report: a header, one line per check, then details for failures."""

from __future__ import annotations

import os
import sys
from typing import TextIO

from grader.render.catalog import render_message
from grader.render.sanitize import fenced
from grader.results import CheckReport, Message

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


def report_to_text(report: CheckReport, lang: str, *, color: bool | None = None) -> str:
    paint = use_color(sys.stdout) if color is None else color

    def t(message: Message) -> str:
        return render_message(message.id, message.params, lang)

    def c(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if paint else text

    status_color = {"passed": _GREEN, "needs_review": _YELLOW}.get(report.status, _RED)
    title = t(report.title) if report.title else ""
    status = t(Message(f"status.{report.status}"))
    score = f"{t(Message('label.score'))} {_points(report.score)}/{_points(report.max_score)}"
    lines = [c(_BOLD, f"{report.exercise} {title}") + f"  [{c(status_color, status)}]  {score}"]
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
    if report.isolation == "rlimits":
        lines.append(c(_YELLOW, t(Message("report.weak_isolation"))))
    return "\n".join(lines)
