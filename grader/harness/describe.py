"""Turn values seen inside the student's process into small JSON-safe facts.

Never calls the student's ``__repr__``/``__eq__``: only exact built-in types are kept,
anything else is described by its type name.
"""

from __future__ import annotations

from typing import Any

JsonScalar = str | int | float | bool | None


def type_name(value: object) -> str:
    cls = type(value)
    name = type.__dict__["__name__"].__get__(cls)
    return name if isinstance(name, str) else "?"


def plain(value: object) -> JsonScalar | dict[str, Any]:
    """Exact ``bool``/``int``/``str``/``None`` as themselves; anything else as its type."""
    if value is None or value is True or value is False:
        return value
    if type(value) is int:
        return value if -(2**53) < value < 2**53 else str(value)
    if type(value) is str:
        return value[:200]
    return {"type": type_name(value)}
