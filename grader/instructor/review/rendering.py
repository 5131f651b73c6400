"""The page's Jinja2 environment: this package's templates first, then the grading core's
(``grader/render/templates``), autoescaping on for every template and string, and the
zh/en catalogues as ``t(message)`` and ``label(id, ...)``."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, urlencode

from jinja2 import ChoiceLoader, Environment, PackageLoader, pass_context, select_autoescape
from jinja2.runtime import Context

from grader.instructor.review.details import check_title, concept_note, concept_state
from grader.judge.results import Message
from grader.judge.sanitize import clean
from grader.render.catalog import LANGUAGES, render_message


@cache
def environment() -> Environment:
    env = Environment(
        loader=ChoiceLoader(
            [
                PackageLoader("grader.instructor.review", "templates"),
                PackageLoader("grader.render", "templates"),
            ]
        ),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["num"] = number
    env.filters["fit"] = fit
    env.globals["clean"] = clean
    env.globals["LANGUAGES"] = LANGUAGES
    env.globals["check_title"] = check_title
    env.globals["concept_state"] = concept_state
    env.globals["concept_note"] = concept_note
    env.globals["STATUS_SYMBOLS"] = STATUS_SYMBOLS
    env.globals["lang_query"] = lang_query
    env.globals["who"] = who
    return env


#: Every status is shown with a symbol and its label as well as its colour.
STATUS_SYMBOLS = {
    "passed": "✔",
    "failed": "✘",
    "needs_review": "?",
    "reviewed": "✎",
    "resubmit": "!",
    "missing": "–",
}


def lang_query(query: str, lang: str) -> str:
    """The page's own query string with ``lang`` switched (and no one-time flash)."""
    kept = [
        (k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k not in ("lang", "flash")
    ]
    return urlencode([*kept, ("lang", lang)])


def fit(text: str, units: int) -> str:
    """``text`` cut to ``units`` display columns (a CJK character takes two), with "…"."""
    used = 0
    for index, char in enumerate(text):
        used += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
        if used > units:
            return text[: max(index - 1, 0)] + "…"
    return text


def number(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


def translators(lang: str) -> dict[str, Callable[..., str]]:
    def t(message: Message | None) -> str:
        return "" if message is None else render_message(message.id, message.params, lang)

    def label(message_id: str, **params: Any) -> str:
        return render_message(message_id, params, lang)

    return {"t": t, "label": label}


@pass_context
def who(context: Context, student: str) -> str:
    """The roster's "name · section" of ``student`` ("" off the roster); autoescaped."""
    names: Mapping[str, str] = context.get("names") or {}
    return names.get(student, "")


def render(name: str, lang: str, context: Mapping[str, Any]) -> str:
    return environment().get_template(name).render({**context, **translators(lang), "lang": lang})
