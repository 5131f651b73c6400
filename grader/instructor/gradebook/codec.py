"""Messages to and from JSON columns: a ``Message`` is stored as its catalogue id and
parameters (never as text), so the gradebook renders in any language later. A parameter
that is itself a message is stored as ``{"$message": id, "params": {...}}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader.judge.results import Message, ParamValue

_NESTED = "$message"


def params_to_json(params: Mapping[str, ParamValue]) -> dict[str, Any]:
    return {key: _value_to_json(value) for key, value in params.items()}


def _value_to_json(value: ParamValue) -> Any:
    if isinstance(value, Message):
        return {_NESTED: value.id, "params": params_to_json(value.params)}
    return value


def params_from_json(data: Mapping[str, Any] | None) -> dict[str, ParamValue]:
    return {key: _value_from_json(value) for key, value in (data or {}).items()}


def _value_from_json(value: Any) -> ParamValue:
    if isinstance(value, dict) and _NESTED in value:
        return Message(str(value[_NESTED]), params_from_json(value.get("params")))
    if value is None or isinstance(value, str | int | float):
        return value
    return str(value)


def message_from(message_id: str | None, params: Mapping[str, Any] | None) -> Message | None:
    return None if message_id is None else Message(message_id, params_from_json(params))


def split_name(check_name: str) -> tuple[str, str | None]:
    """Split a check name: ``mutant:off_by_one_bound`` -> ("mutant", "off_by_one_bound"),
    ``output`` -> ("output", None)."""
    category, _, subject = check_name.partition(":")
    return category, subject or None
