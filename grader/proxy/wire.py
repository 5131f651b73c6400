"""Frames of the oracle conversation, and the values they carry. Both ends use this module.

A frame (``grader.runner.framing``, the grader's one framer) carries one JSON document.
Values are tagged so that no JSON object is ever ambiguous: a scalar (``None``, ``bool``, a
small ``int``, ``float``, ``str``) travels as itself, everything else as a one-key object::

    {"$list": [...]}  {"$dict": {"key": ...}}  {"$int": "-1f"}  {"$h": 3}
    {"$dt": "2026-01-01T00:00:00+00:00"}  {"$stmt": "business_task_insert"}
    {"$model": "BusinessTask"}  {"$new": "BusinessTask", "id": 0, "values": {...}}

``$h`` is a handle: an object that stays in the student's process (its session, its
exception, its payload value), named by a number for the length of one call. ``$stmt``,
``$model`` and ``$new`` name SQLAlchemy things the student's process rebuilds from its own
ticketflow (see ``grader.proxy.child.statements``).

The oracle reads untrusted frames: at most ``MAX_FRAME`` bytes, ``MAX_DEPTH`` levels,
``MAX_HEX`` hex digits for a big int; a bad frame raises ``WireError``.

``Codec`` is the one encoder/decoder of these values. Each end subclasses it only to say
what a value that is not plain data becomes (``other``: a handle in the student's process;
a ``Remote``'s handle, a datetime or a registered encoder's tag in the oracle) and what its
own tags decode to (``decode_tag``); the SQLAlchemy encoder is registered by the oracle's
effects implementation, never imported here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from grader.runner import framing

HEADER = framing.HEADER
MAX_FRAME = 4 << 20
MAX_DEPTH = 32
MAX_HEX = 20_000
#: Ints beyond this travel as hex (JSON's decimal digits are capped by the interpreter).
SMALL_INT = 2**63
TAGS = frozenset({"$list", "$dict", "$int", "$h", "$dt", "$stmt", "$model", "$new"})


class WireError(Exception):
    """A frame that is not a frame of this conversation (too big, not JSON, too deep)."""


def _framed(exc: framing.FrameTooLarge) -> WireError:
    return WireError(str(exc))


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=True).encode
_decode = json.JSONDecoder().decode


def frame(message: Any) -> bytes:
    try:
        return framing.pack(_encode(message).encode("utf-8", "surrogatepass"), MAX_FRAME)
    except framing.FrameTooLarge as exc:
        raise _framed(exc) from None


def encode_text(message: Any) -> str:
    """A message's JSON text, as a frame carries it (the same values give the same text)."""
    return _encode(message)


def frame_size(header: bytes) -> int:
    try:
        return framing.announced(header, MAX_FRAME)
    except framing.FrameTooLarge as exc:
        raise _framed(exc) from None


def parse(body: bytes) -> Any:
    try:
        return _decode(body.decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as exc:
        raise WireError(f"not a JSON frame: {type(exc).__name__}") from None


def big_int(value: int) -> dict[str, str]:
    return {"$int": format(value, "x")}


def int_from_hex(text: object) -> int:
    if type(text) is not str or not 0 < len(text) <= MAX_HEX:
        raise WireError("bad $int")
    try:
        return int(text, 16)
    except ValueError:
        raise WireError("bad $int") from None


def tag_of(value: dict[Any, Any]) -> str:
    """The tag of a tagged object (``$new`` has three keys, every other tag one)."""
    keys = list(value)
    if keys and keys[0] in TAGS and (len(keys) == 1 or keys[0] == "$new"):
        return str(keys[0])
    raise WireError("an object without a known tag")


class Codec:
    """Plain data as itself or ``$list``/``$dict``/``$int``; everything else by ``other``.

    ``sequences``: the types sent as ``$list``; ``max_items``/``max_str``: longer values go
    to ``other`` too (None: no limit). Containers nested deeper than ``MAX_DEPTH - 2`` go
    to ``other`` as well. ``malformed`` is the exception a bad value raises on this end.
    """

    sequences: tuple[type, ...] = (list,)
    max_items: int | None = None
    max_str: int | None = None
    malformed: Callable[[str], BaseException] = WireError

    def encode(self, value: Any, depth: int = 0) -> Any:
        kind = type(value)
        if value is None or kind is bool or kind is float:
            return value
        if kind is int:
            return value if -SMALL_INT < value < SMALL_INT else big_int(value)
        if kind is str and (self.max_str is None or len(value) <= self.max_str):
            return value
        if depth < MAX_DEPTH - 2 and (self.max_items is None or _size(value) <= self.max_items):
            if kind in self.sequences:
                return {"$list": [self.encode(item, depth + 1) for item in value]}
            if kind is dict and all(type(key) is str for key in value):
                return {"$dict": {k: self.encode(item, depth + 1) for k, item in value.items()}}
        return self.other(value, depth)

    def other(self, value: Any, depth: int) -> Any:
        raise self.malformed(f"cannot send a {type(value).__name__}")

    def decode(self, value: Any, depth: int = 0) -> Any:
        if value is None or type(value) in (bool, int, float, str):
            return value
        if type(value) is not dict or depth > MAX_DEPTH:
            raise self.malformed("malformed value")
        tag = tag_of(value)
        inner = value[tag]
        if tag == "$list" and type(inner) is list:
            return [self.decode(item, depth + 1) for item in inner]
        if tag == "$dict" and type(inner) is dict:
            return {str(k): self.decode(item, depth + 1) for k, item in inner.items()}
        if tag == "$int":
            return int_from_hex(inner)
        return self.decode_tag(tag, value, depth)

    def decode_tag(self, tag: str, value: dict[str, Any], depth: int) -> Any:
        raise self.malformed(f"cannot rebuild {tag}")


def _size(value: Any) -> int:
    return len(value) if type(value) in (list, tuple, dict, str) else 0
