"""Every integrity report in words an instructor can forward: who, the share, and the
evidence beyond structure (rare names, strings, comments, shared lines), with where to
see the pair side by side. ``grader integrity`` prints these lines; the review page's
pair view shows the same ones."""

from __future__ import annotations

from grader.instructor.term.integrity import NearPair
from grader.render.catalog import render_message


def _quoted(items: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(repr(item) for item in items[:limit])
    return shown + (f" (+{len(items) - limit})" if len(items) > limit else "")


def why(pair: NearPair, lang: str) -> str:
    """The evidence beyond structure, in words an instructor can forward."""
    evidence = pair.evidence
    parts = [
        render_message(f"integrity.why.{name}", {"items": _quoted(items)}, lang)
        for name, items in (
            ("names", evidence.names),
            ("strings", evidence.strings),
            ("comments", evidence.comments),
        )
        if items
    ]
    if evidence.lines:
        example = repr(evidence.lines[0].strip())
        params = {"count": len(evidence.lines), "example": example}
        parts.append(render_message("integrity.why.lines", params, lang))
    return "; ".join(parts)


def reason(pair: NearPair, lang: str) -> str:
    """One report's sentence: who, the share, and why."""
    params: dict[str, str | int] = {
        "exercise": pair.exercise,
        "first": pair.first,
        "second": pair.second,
        "share": round(pair.share * 100),
        "containment": round(pair.containment * 100),
        "distance": pair.distance,
        "why": why(pair, lang),
    }
    return render_message(f"integrity.near_{pair.basis}", params, lang)


def pair_path(exercise: str, first: str, second: str) -> str:
    """A pair's side-by-side view on the review page."""
    return f"/pair/{exercise}/{first}/{second}"


def near_line(pair: NearPair, lang: str) -> str:
    """The report as ``grader integrity`` prints it: the sentence, then where to look."""
    path = pair_path(pair.exercise, pair.first, pair.second)
    return f"{reason(pair, lang)}\n  {render_message('integrity.see_pair', {'path': path}, lang)}"
