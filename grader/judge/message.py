"""A catalogue message: an id plus parameters; the renderer picks the language.

Its own module so that results (what a check produced) and render (how it is shown) both
depend on it and never on each other at import time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

ParamValue: TypeAlias = "str | int | float | Message | None"


@dataclass(frozen=True)
class Message:
    id: str
    params: Mapping[str, ParamValue] = field(default_factory=dict)


def msg(message_id: str, **params: ParamValue) -> Message:
    return Message(message_id, params)
