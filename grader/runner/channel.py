"""The observation channel: JSON lines from the child (prelude records, uncaught report) to host.

Wire format, one JSON object per line::

    {"record": {"kind": "...", ...data}}
    {"uncaught": {"type": "...", "message": "...", "traceback": "...", "line": 3}}

The channel is an inherited pipe fd in the student's process, so the student can write to
it too: everything read here is an untrusted claim. The host reads it with a byte cap, and
parses each line with ``parse_claim`` (size, depth and encoding limits): a line it refuses
is a dropped claim, never an exception in the host.
"""

from __future__ import annotations

import json
import os
import re
import threading
from typing import Any

#: Longest single line the host parses; longer lines are skipped and counted as dropped.
MAX_LINE = 256 * 1024
#: Deepest nesting of objects/lists a claim may have (real records are two or three deep).
MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Longest record the Recorder sends; bigger ones are replaced by a stub record.
MAX_RECORD = 64 * 1024


class Recorder:
    """Child side, handed to the prelude: ``recorder.record("retry", countdown=2)``.

    Writes are best effort: if the student closed or broke the channel, records are lost
    silently (``failed`` counts them) instead of raising into the code under test.
    References to ``json``/``os`` functions are bound at construction so a student who
    monkeypatches ``json.dumps`` or ``os.write`` afterwards does not break recording.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._encode = json.JSONEncoder(
            ensure_ascii=False, separators=(",", ":"), default=repr
        ).encode
        self._write = os.write
        self._lock = threading.Lock()
        self.failed = 0

    def record(self, kind: str, **data: Any) -> None:
        payload: dict[str, Any] = {"kind": str(kind), **data}
        try:
            line = self._encode({"record": payload})
        except (TypeError, ValueError, RecursionError) as exc:
            line = self._encode({"record": {"kind": str(kind), "unencodable": repr(exc)}})
        if len(line) > MAX_RECORD:
            stub = {"kind": str(kind), "truncated": True, "bytes": len(line)}
            line = self._encode({"record": stub})
        self._send(line)

    def _report_uncaught(self, info: dict[str, Any]) -> None:
        line = self._encode({"uncaught": info})
        if len(line) > MAX_LINE - 1:
            info = dict(info, traceback=str(info.get("traceback", ""))[-8192:])
            line = self._encode({"uncaught": info})
        self._send(line)

    def _send(self, line: str) -> None:
        data = (line + "\n").encode("utf-8", "replace")
        with self._lock:
            try:
                view = memoryview(data)
                while view:
                    view = view[self._write(self._fd, view) :]
            except OSError:
                self.failed += 1


class ChannelReader:
    """Host side: parses lines as they arrive, keeping at most ``cap`` bytes of records."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.records: list[dict[str, Any]] = []
        self.uncaught: dict[str, Any] | None = None
        self.dropped = 0
        self.truncated = False
        self._kept = 0
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> None:
        self._buf += data
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > MAX_LINE:
                    if not self._skipping:
                        self.dropped += 1
                    self._skipping = True
                    self._buf.clear()
                return
            line = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            if self._skipping:
                self._skipping = False
                continue
            self._line(line)

    def close(self) -> None:
        if self._buf and not self._skipping:
            self._line(bytes(self._buf))
        self._buf.clear()

    def _line(self, line: bytes) -> None:
        if not line.strip():
            return
        if len(line) > MAX_LINE or (self.truncated and not line.startswith(b'{"uncaught"')):
            self.dropped += 1  # past the cap only the (short) uncaught report is still parsed
            return
        message = parse_claim(line)
        if message is not None and len(message) == 1:
            if isinstance(message.get("uncaught"), dict):
                self.uncaught = message["uncaught"]
                return
            record = message.get("record")
            if isinstance(record, dict) and isinstance(record.get("kind"), str):
                if self._kept + len(line) > self.cap:
                    self.truncated = True
                    self.dropped += 1
                    return
                self._kept += len(line)
                self.records.append(record)
                return
        self.dropped += 1


def parse_claim(line: bytes | bytearray) -> dict[str, Any] | None:
    """One untrusted JSON line as a dict, or None when it is not a sound claim.

    Refused: invalid UTF-8 or JSON, integers past the int-digits cap, nesting deeper than
    ``MAX_DEPTH`` (``json`` itself would raise ``RecursionError`` near 1,000 levels), and
    lone surrogates in any string or key (they cannot be encoded back to UTF-8).
    """
    if len(line) > MAX_LINE:
        return None
    try:
        value = json.loads(line)
    except (ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(value, dict) or not _sound(value):
        return None
    return value


def _sound(root: object) -> bool:
    """Iterative walk (no recursion: the value may be nearly 1,000 levels deep)."""
    stack: list[tuple[object, int]] = [(root, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and _SURROGATE.search(value):
                return False
        elif isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                return False
            if isinstance(value, dict):
                stack.extend((key, depth + 1) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)
    return True
