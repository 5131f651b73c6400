"""Turn values seen inside the student's process into small JSON scalars.

Never calls the student's ``__repr__``/``__eq__``/``__getattr__``: only exact built-in types
are kept, anything else (an int subclass, a bool where an int is expected, a lying tuple)
is described as ``"<TypeName>"``.
"""

from __future__ import annotations

from typing import Any

JsonScalar = str | int | float | bool | None


def type_name(value: object) -> str:
    cls = type(value)
    name = type.__dict__["__name__"].__get__(cls)
    return name if isinstance(name, str) else "?"


def plain(value: object) -> JsonScalar:
    """Exact ``bool``/``int``/``str``/``None`` as themselves; anything else ``"<TypeName>"``."""
    if value is None or value is True or value is False:
        return value
    if type(value) is int:
        return value if -(2**53) < value < 2**53 else "<big int>"
    if type(value) is str:
        return value[:200]
    return f"<{type_name(value)}>"


def exact_int(value: object) -> JsonScalar:
    """An exact ``int`` as itself; a bool, an int subclass or anything else as its type."""
    return plain(value) if type(value) is int else f"<{type_name(value)}>"


def instance_fields(value: object) -> dict[str, Any]:
    """The instance's own ``__dict__`` (no properties, no ``__getattr__``); {} if it has none."""
    try:
        fields = object.__getattribute__(value, "__dict__")
    except AttributeError:
        return {}
    return dict.copy(fields) if type(fields) is dict else {}
