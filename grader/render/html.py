"""The notebook form of a report (``CheckReport._repr_html_``). Everything is escaped."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from grader.message import Message
from grader.render.catalog import render_message
from grader.render.sanitize import clean

if TYPE_CHECKING:
    from grader.results import CheckReport

_PRE = "margin:2px 0;white-space:pre-wrap"
_STATUS_COLOR = {"passed": "#1a7f37", "needs_review": "#9a6700"}


def report_to_html(report: CheckReport, lang: str) -> str:
    def t(message: Message) -> str:
        return escape(render_message(message.id, message.params, lang))

    color = _STATUS_COLOR.get(report.status, "#cf222e")
    title = t(report.title) if report.title else ""
    rows = []
    for check in report.checks:
        mark = "✔" if check.passed else "✘"
        details = [] if check.passed else [f"<div>{t(check.message)}</div>"]
        if not check.passed and check.evidence:
            details.append(
                f"<div><small>{t(Message('label.evidence'))}</small>"
                f"<pre style='{_PRE}'>{escape(clean(check.evidence))}</pre></div>"
            )
        if not check.passed and check.hint is not None:
            details.append(f"<div><b>{t(Message('label.hint'))}</b>: {t(check.hint)}</div>")
        rows.append(
            "<tr>"
            f"<td style='text-align:left'>{t(check.title)}</td>"
            f"<td>{mark}</td>"
            f"<td>{check.points:g}/{check.max_points:g}</td>"
            f"<td style='text-align:left'>{''.join(details)}</td>"
            "</tr>"
        )
    summary = f"<p style='color:{color}'>{t(report.summary)}</p>" if report.summary else ""
    if report.isolation == "rlimits":
        summary += f"<p style='color:#9a6700'>{t(Message('report.weak_isolation'))}</p>"
    return (
        "<div class='grader-report'>"
        f"<h4>{escape(report.exercise)} {title} "
        f"<span style='color:{color}'>[{t(Message(f'status.{report.status}'))}]</span> "
        f"{t(Message('label.score'))} {report.score:g}/{report.max_score:g}</h4>"
        "<table><thead><tr>"
        f"<th>{t(Message('label.check'))}</th><th>{t(Message('label.result'))}</th>"
        f"<th>{t(Message('label.points'))}</th><th>{t(Message('label.details'))}</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>{summary}</div>"
    )
