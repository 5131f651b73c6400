"""Frames of the oracle conversation, and the values they carry. Both ends use this module.

A frame is a 4-byte big-endian length and one JSON document. Values are tagged so that no
JSON object is ever ambiguous: a scalar (``None``, ``bool``, a small ``int``, ``float``,
``str``) travels as itself, everything else as a one-key object::

    {"$list": [...]}  {"$dict": {"key": ...}}  {"$int": "-1f"}  {"$h": 3}
    {"$dt": "2026-01-01T00:00:00+00:00"}  {"$stmt": "business_task_insert"}
    {"$model": "BusinessTask"}  {"$new": "BusinessTask", "id": 0, "values": {...}}

``$h`` is a handle: an object that stays in the student's process (its session, its
exception, its payload value), named by a number for the length of one call. ``$stmt``,
``$model`` and ``$new`` name SQLAlchemy things the student's process rebuilds from its own
ticketflow (see ``grader.proxy.child.statements``).

The oracle reads untrusted frames: at most ``MAX_FRAME`` bytes, ``MAX_DEPTH`` levels,
``MAX_HEX`` hex digits for a big int; a bad frame raises ``WireError``.
"""

from __future__ import annotations

import json
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_FRAME = 4 << 20
MAX_DEPTH = 32
MAX_HEX = 20_000
#: Ints beyond this travel as hex (JSON's decimal digits are capped by the interpreter).
SMALL_INT = 2**63
TAGS = frozenset({"$list", "$dict", "$int", "$h", "$dt", "$stmt", "$model", "$new"})


class WireError(Exception):
    """A frame that is not a frame of this conversation (too big, not JSON, too deep)."""


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=True).encode
_decode = json.JSONDecoder().decode


def frame(message: Any) -> bytes:
    body = _encode(message).encode("utf-8", "surrogatepass")
    if len(body) > MAX_FRAME:
        raise WireError(f"a frame of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return HEADER.pack(len(body)) + body


def frame_size(header: bytes) -> int:
    (size,) = HEADER.unpack(header)
    if size > MAX_FRAME:
        raise WireError(f"a frame of {size} bytes announced (limit {MAX_FRAME})")
    return int(size)


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
