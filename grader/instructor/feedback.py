"""Per-student feedback pages: self-contained HTML (inline CSS, no script, nothing fetched),
rendered by Jinja2 with autoescaping on, so a student's ``<script>`` is shown as text.

Every score on a page is the official grade (``ResultView.grade``, from
``grader.instructor.grade``): the late penalty is part of it and is shown beside the raw
score. A page shows students only what the instructor released, in words meant for them:

- a prose answer the instructor has not decided is "awaiting the instructor (N points)",
  with no provisional score, unless the pages are written with ``everything=True``
  (``grader feedback --all``), which marks the score provisional;
- a decided item shows its final score and the reviewer's comment;
- a submission that cannot be graded (a corrupt zip) says "needs re-submission" and why;
- code checks are listed with what passed and failed; a prose answer's rubric checks are
  notes for the reviewer and never appear, decided or not;
- the instructor's own flags (a submission "changed since review", weak isolation) never
  appear: a decision on an older submission is simply not shown for the new one.

``notes`` is the hook for what another part of the instructor's tools knows per exercise
(lateness and penalty, from the term's deadlines): lines of catalogue messages shown under
the exercise's score, e.g. ``{"EX-11-01": [Message("feedback.late", {...})]}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from grader.instructor.gradebook.views import ResultView
from grader.instructor.term.store import ReceiptView
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


def released(result: ResultView, everything: bool = False) -> bool:
    """Whether the student may see this result's score and checks."""
    return result.grade.released(everything)


def feedback_html(
    student: str,
    results: Sequence[ResultView],
    lang: str,
    *,
    everything: bool = False,
    notes: Mapping[str, Sequence[Message]] | None = None,
) -> str:
    def t(message: Message | None) -> str:
        return "" if message is None else render_message(message.id, message.params, lang)

    def label(message_id: str, **params: Any) -> str:
        return render_message(message_id, params, lang)

    shown = [(result, result.grade, released(result, everything)) for result in results]
    total = sum(grade.student_score(everything) or 0.0 for _, grade, _ in shown)
    maximum = sum(result.max_score for result in results)
    return (
        _environment()
        .get_template("feedback.html.j2")
        .render(
            lang=lang,
            student=student,
            shown=shown,
            everything=everything,
            notes=notes or {},
            total=round(total, 2),
            maximum=round(maximum, 2),
            held=sum(1 for _, _, open_ in shown if not open_),
            t=t,
            label=label,
            clean=clean,
            num=_number,
        )
    )


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def lateness_notes(
    results: Sequence[ResultView], received: Mapping[tuple[str, str, str], ReceiptView]
) -> dict[str, list[Message]]:
    """A "handed in late" line for each late exercise (its received time is the instructor's,
    never the student's clock: ``grader.instructor.term.receiving``)."""
    notes: dict[str, list[Message]] = {}
    for result in results:
        receipt = received.get((result.student, result.exercise, result.content_sha256))
        if receipt is None or receipt.late_by_seconds <= 0:
            continue
        due = receipt.due_at.strftime("%Y-%m-%d %H:%M %Z") if receipt.due_at else "?"
        params = {
            "late": _duration(receipt.late_by_seconds),
            "due": due.strip(),
            "penalty": f"{result.grade.penalty * 100:g}",  # the grade's, as every view
        }
        notes.setdefault(result.exercise, []).append(Message("feedback.late", params))
    return notes


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{days} d"] if days else []
    parts += [f"{hours} h"] if hours or days else []
    return " ".join([*parts, f"{minutes} min"]) if not days else " ".join(parts)
