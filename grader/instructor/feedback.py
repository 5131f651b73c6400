"""Per-student feedback pages: self-contained HTML (inline CSS, no script, nothing fetched),
rendered by Jinja2 with autoescaping on, so a student's ``<script>`` is shown as text."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from grader.instructor.gradebook.views import ResultView
from grader.judge.results import Message
from grader.judge.sanitize import clean
from grader.render.catalog import render_message


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("grader.render", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def feedback_html(student: str, results: Sequence[ResultView], lang: str) -> str:
    def t(message: Message | None) -> str:
        return "" if message is None else render_message(message.id, message.params, lang)

    def label(message_id: str, **params: Any) -> str:
        return render_message(message_id, params, lang)

    total = sum(result.final_score or 0.0 for result in results)
    maximum = sum(result.max_score for result in results)
    return (
        _environment()
        .get_template("feedback.html.j2")
        .render(
            lang=lang,
            student=student,
            results=results,
            total=round(total, 2),
            maximum=round(maximum, 2),
            t=t,
            label=label,
            clean=clean,
        )
    )
