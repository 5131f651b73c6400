"""The notebook form of a report (``CheckReport._repr_html_``): a Jinja2 template with
autoescape, so every value (the student's output included) is text, never markup. The
templates in ``templates/`` are reused by the review page."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from grader.render.catalog import evidence_label, render_message
from grader.render.view import report_view

if TYPE_CHECKING:
    import jinja2

    from grader.judge.results import CheckReport

_STATUS_COLOR = {"passed": "#1a7f37", "needs_review": "#9a6700"}
_LABELS = ("score", "check", "result", "points", "details", "evidence", "evidence_above", "hint")


@cache
def environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("grader.render", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
    )


def report_to_html(report: CheckReport, lang: str) -> str:
    labels = {name: render_message(f"label.{name}", {}, lang) for name in _LABELS}
    labels["evidence"] = render_message(evidence_label(report.kind), {}, lang)
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            view=report_view(report, lang),
            labels=labels,
            color=_STATUS_COLOR.get(report.status, "#cf222e"),
        )
    )
