"""``grader list`` output: an aligned table (CJK-width aware) or JSON."""

from __future__ import annotations

from typing import Any

from grader.judge.results import ListEntry
from grader.render.catalog import render_message
from grader.render.table import table


def _t(message_id: str, lang: str) -> str:
    return render_message(message_id, {}, lang)


def _status(entry: ListEntry, lang: str) -> str:
    label = render_message(f"status.{entry.status}", {}, lang)
    if entry.kind == "prose" and entry.status == "needs_review" and not entry.score:
        awaiting = {"max_score": f"{entry.max_score:g}"}  # no provisional score to show
        return f"{label} ({render_message('list.prose_awaiting', awaiting, lang)})"
    if entry.status in ("passed", "failed", "needs_review"):
        label += f" ({entry.score:g}/{entry.max_score:g})"
    return label


def entries_to_text(entries: list[ListEntry], lang: str) -> str:
    header = [
        _t(key, lang)
        for key in ("list.id", "list.kind", "list.title", "list.points", "list.status")
    ]
    rows = [
        [
            entry.exercise,
            _t(f"kind.{entry.kind}", lang),
            render_message(entry.title.id, entry.title.params, lang),
            f"{entry.max_score:g}",
            _status(entry, lang),
        ]
        for entry in entries
    ]
    return table(header, rows) + "\n" + _t("list.footer", lang)


def entries_to_dicts(entries: list[ListEntry], lang: str) -> list[dict[str, Any]]:
    return [
        {
            "exercise": entry.exercise,
            "kind": entry.kind,
            "title": render_message(entry.title.id, entry.title.params, lang),
            "points": entry.max_score,
            "status": entry.status,
            "score": entry.score,
        }
        for entry in entries
    ]
