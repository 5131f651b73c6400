"""The terminal form of a report: a header, one line per check, then details for failures."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, TextIO

from grader.judge.sanitize import fenced, visible
from grader.render.catalog import evidence_label, render_message
from grader.render.view import report_view

if TYPE_CHECKING:
    from grader.judge.results import CheckReport

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


def report_to_text(
    report: CheckReport, lang: str, *, color: bool | None = None, given: str | None = None
) -> str:
    """The report for a terminal. ``given``: the id as typed, when it was normalised
    ("EX-12-01 (from ex-12-1)"). In "rlimits" mode the FIRST line says the check was not
    isolated, so no screenshot of a pass can pass for an official one."""
    paint = use_color(sys.stdout) if color is None else color

    def c(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if paint else text

    exercise = report.exercise
    if given is not None:
        params = {"exercise": exercise, "given": visible(given)}
        exercise = render_message("report.normalized_id", params, lang)
    view = report_view(report, lang, exercise=exercise)
    status_color = {"passed": _GREEN, "needs_review": _YELLOW}.get(view.status, _RED)
    lines = [] if view.weak_isolation is None else [c(_YELLOW, view.weak_isolation)]
    head = c(_BOLD, f"{view.exercise} {view.title}") + f"  [{c(status_color, view.status_text)}]"
    if view.score is not None:
        head += f"  {render_message('label.score', {}, lang)} {view.score}"
    lines.append(head)
    if view.error is not None:
        lines.append(f"  {view.error}")
    for row in view.rows:
        mark = c(_GREEN, "✔") if row.passed else c(_RED, "✘")
        lines.append(f"  {mark} {row.title}  ({row.points})")
        if row.message:
            lines.append(f"      {row.message}")
        if row.evidence:
            label = render_message(evidence_label(report.kind), {}, lang)
            lines.append(c(_DIM, f"      {label}:"))
            lines.extend(fenced(row.evidence, "      │ "))
        if row.evidence_above:
            lines.append(c(_DIM, f"      {render_message('label.evidence_above', {}, lang)}"))
        if row.hint:
            lines.append(f"      {c(_YELLOW, render_message('label.hint', {}, lang))}: {row.hint}")
    if view.summary is not None:
        lines.append(c(status_color, view.summary))
    return "\n".join(lines)
