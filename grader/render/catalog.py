"""Message lookup: ``render_message(id, params, lang)``.

Templates use ``str.format`` fields; parameters are inserted as values (never formatted
again), and a parameter that is itself a ``Message`` is rendered first, in the same
language.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

LANGUAGES = ("zh", "en")
DEFAULT_LANG = "zh"
LANG_ENV = "GRADER_LANG"


def resolve_lang(requested: str | None = None) -> str:
    """``requested``, else ``$GRADER_LANG``, else zh (unknown values fall back to zh)."""
    for candidate in (requested, os.environ.get(LANG_ENV)):
        if candidate:
            short = candidate.strip().lower().replace("_", "-").split("-")[0]
            if short in LANGUAGES:
                return short
    return DEFAULT_LANG


def catalogue(lang: str) -> Mapping[str, str]:
    if lang == "en":
        from grader.render.messages_en import MESSAGES as EN

        return EN
    from grader.render.messages_zh import MESSAGES as ZH

    return ZH


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render_message(message_id: str, params: Mapping[str, Any], lang: str) -> str:
    from grader.judge.message import Message
    from grader.judge.sanitize import clean

    template = catalogue(lang).get(message_id)
    if template is None:
        template = catalogue("en").get(message_id, message_id)
    values = _Params()
    for key, value in params.items():
        if isinstance(value, Message):
            values[key] = render_message(value.id, value.params, lang)
        elif value is None:
            values[key] = "-"
        elif isinstance(value, str):
            values[key] = clean(value).replace("\n", " ")  # may come from the student's run
        else:
            values[key] = value
    return template.format_map(values)
