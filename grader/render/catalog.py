"""Message lookup: ``render_message(id, params, lang)``.

An id is looked up in the UI catalogue (``grader.render.messages``, zh and en side by side),
then among the texts the judge side registers about one exercise or stand-in
(``grader.judge.texts``: titles, twins, mutants, concept summaries); a language it lacks
falls back to en, an unknown id shows itself.

Templates use ``str.format`` fields; parameters are inserted as values (never formatted
again), and a parameter that is itself a ``Message`` is rendered first, in the same
language.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from grader.judge.texts import registered_texts
from grader.render.messages import MESSAGES

if TYPE_CHECKING:
    from grader.runner.turns import Holder

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
    """Every text in ``lang``: the registered exercise and stand-in texts, then the UI's."""
    everything = {**registered_texts(), **MESSAGES}
    return {key: texts[lang] for key, texts in everything.items() if lang in texts}


def _template(message_id: str, lang: str) -> str:
    texts = MESSAGES.get(message_id) or registered_texts().get(message_id) or {}
    return texts.get(lang) or texts.get("en") or message_id


class _Params(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render_message(message_id: str, params: Mapping[str, Any], lang: str) -> str:
    from grader.judge.message import Message
    from grader.judge.sanitize import clean

    template = _template(message_id, lang)
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


#: The notice a report carries when its runs were not isolated, by isolation mode: its first
#: line (text), its banner (HTML) and its JSON ``notice``, with ``"official": false``.
UNOFFICIAL_NOTICES = {
    "rlimits": "report.weak_isolation",
    "portable": "report.portable_isolation",
}


def unofficial_notice(isolation: str | None) -> str | None:
    """The message id of that notice, or None for an isolated run (or no run)."""
    return UNOFFICIAL_NOTICES.get(isolation or "")


def evidence_label(kind: str) -> str:
    """The label above a failed check's evidence: the program's output (code), or the
    student's own text, quoted as written (prose)."""
    return "label.evidence_text" if kind == "prose" else "label.evidence"


def turn_wait_notice(holder: Holder | None, lang: str) -> str:
    """What a grader waiting for the user's turn tells that user (``grader.runner.turns``):
    who holds it, and what to do when the holder is stopped."""
    if holder is None:
        return render_message("turn.unknown", {}, lang)
    params = {"pid": holder.pid, "command": holder.command or "?"}
    return render_message("turn.stopped" if holder.stopped else "turn.held", params, lang)
