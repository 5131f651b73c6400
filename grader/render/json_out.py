"""The machine-readable form of a report (``grader check --json``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grader.judge.message import Message
from grader.judge.sanitize import clean, visible
from grader.render.catalog import render_message, unofficial_notice

if TYPE_CHECKING:
    from grader.judge.results import CheckReport


def _text(message: Message | None, lang: str) -> str | None:
    return None if message is None else render_message(message.id, message.params, lang)


def report_to_dict(report: CheckReport, lang: str, *, given: str | None = None) -> dict[str, Any]:
    """``{"exercise", "status", "score", "max_score", "checks": [...]}`` plus a few extras.

    ``isolation``: the sandbox mode the runs used ("namespaces", "rlimits", "portable";
    null: no run); ``official``: false when the runs were not isolated ("rlimits",
    "portable"), with ``notice`` saying
    so (both come first); ``given``: the id as typed, when it was normalised.
    """
    notice = unofficial_notice(report.isolation)
    head: dict[str, Any] = {"official": notice is None}
    if notice is not None:
        head["notice"] = render_message(notice, {}, lang)
    if given is not None:
        head["given"] = visible(given)
    return {
        **head,
        "exercise": report.exercise,
        "status": report.status,
        "score": float(report.score),
        "max_score": float(report.max_score),
        "checks": [
            {
                "name": check.name,
                "passed": check.passed,
                "points": float(check.points),
                "message": _text(check.message, lang),
                "hint": _text(check.hint, lang),
                "max_points": float(check.max_points),
                "title": _text(check.title, lang),
                "message_id": check.message.id,
                "evidence": None if check.evidence is None else clean(check.evidence),
            }
            for check in report.checks
        ],
        "kind": report.kind,
        "title": _text(report.title, lang),
        "summary": _text(report.summary, lang),
        "lang": lang,
        "isolation": report.isolation,
    }


def error_to_dict(exercise: str | None, message: str, code: str, exit_code: int) -> dict[str, Any]:
    return {
        "exercise": exercise,
        "status": "error",
        "score": 0.0,
        "max_score": 0.0,
        "checks": [],
        "error": {"id": code, "message": message, "exit_code": exit_code},
    }
