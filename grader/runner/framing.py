"""Length-prefixed frames: a 4-byte big-endian length, then the body.

The grader's one framer. The runner's pipes (``grader.runner.protocol``, JSON objects) and
the oracle conversation (``grader.proxy.wire``, tagged JSON values) both frame with it,
each with its own size limit: the reader refuses a frame announced over the limit before
it reads (or buffers) a byte of its body.
"""

from __future__ import annotations

import struct

HEADER = struct.Struct(">I")


class FrameTooLarge(ValueError):
    """A frame over the limit, to send or announced by the other end."""


def pack(body: bytes, limit: int) -> bytes:
    """``body`` as one frame (``FrameTooLarge`` if it is over ``limit`` bytes)."""
    if len(body) > limit:
        raise FrameTooLarge(f"a frame of {len(body)} bytes is over the {limit}-byte limit")
    return HEADER.pack(len(body)) + body


def announced(header: bytes, limit: int) -> int:
    """The body size a frame's header announces (``FrameTooLarge`` over ``limit``)."""
    (size,) = HEADER.unpack(header)
    if size > limit:
        raise FrameTooLarge(f"a frame of {size} bytes announced (limit {limit})")
    return int(size)


class FrameBuffer:
    """Incremental reader: feed it bytes as they arrive, get whole frame bodies back."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        bodies: list[bytes] = []
        while len(self._buf) >= HEADER.size:
            end = HEADER.size + announced(bytes(self._buf[: HEADER.size]), self._limit)
            if len(self._buf) < end:
                break
            bodies.append(bytes(self._buf[HEADER.size : end]))
            del self._buf[:end]
        return bodies

    @property
    def pending(self) -> int:
        return len(self._buf)
