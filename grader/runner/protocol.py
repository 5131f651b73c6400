"""Messages of the client <-> host pipe: one UTF-8 JSON object per frame (``framing``).

JSON only, never pickle: the host must not execute anything because of what it reads.
"""

from __future__ import annotations

import json
import os
import select
import time
from collections.abc import Mapping
from typing import Any

from grader.runner import framing
from grader.runner.model import RunnerError

#: Largest frame either side accepts (a request carries source text; a result two capped streams).
MAX_FRAME = 64 << 20


def encode(message: Mapping[str, Any]) -> bytes:
    """One frame. A lone surrogate in any string becomes "?" instead of raising: the host
    must never fail on text a run produced (``channel.parse_claim`` already refuses them)."""
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    try:
        return framing.pack(text.encode("utf-8", "replace"), MAX_FRAME)
    except framing.FrameTooLarge as exc:
        raise RunnerError(f"message not sent: {exc}") from None


class FrameDecoder:
    """Incremental decoder: feed it bytes as they arrive, get whole messages back."""

    def __init__(self) -> None:
        self._frames = framing.FrameBuffer(MAX_FRAME)

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        try:
            bodies = self._frames.feed(data)
        except framing.FrameTooLarge as exc:
            raise RunnerError(f"protocol broken: {exc}") from None
        out: list[dict[str, Any]] = []
        for body in bodies:
            try:
                message = json.loads(body)
            except ValueError as exc:
                raise RunnerError(f"protocol broken: bad JSON frame ({exc})") from None
            if not isinstance(message, dict):
                raise RunnerError("protocol broken: frame is not a JSON object")
            out.append(message)
        return out

    @property
    def pending(self) -> int:
        return self._frames.pending


def write_all(fd: int, data: bytes) -> None:
    """Blocking write of the whole buffer (EPIPE surfaces as RunnerError)."""
    view = memoryview(data)
    try:
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except (BrokenPipeError, ConnectionResetError) as exc:
        raise RunnerError("runner host pipe closed") from exc


def read_messages(fd: int, decoder: FrameDecoder, timeout: float | None) -> list[dict[str, Any]]:
    """Block until at least one whole message arrived (or raise on EOF/timeout)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            raise RunnerError(f"runner host did not answer within {timeout:.1f} s")
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            raise RunnerError("runner host exited unexpectedly (EOF on its pipe)")
        messages = decoder.feed(chunk)
        if messages:
            return messages


def write_status(fd: int, message: Mapping[str, Any]) -> None:
    """One JSON line on a run's status pipe (written only by trusted supervisor code)."""
    data = (json.dumps(message) + "\n").encode()
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass
