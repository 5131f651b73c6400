"""Why JSON only: unpickling runs code; ``accept_content=['json']`` refuses to unpickle.

``MarkerPayload`` is a harmless stand-in for an attack: unpickling it calls
``pathlib.Path.write_text`` on a marker file (a real attacker would name ``os.system``).
``refuse_then_load`` first hands the bytes to kombu's ``loads`` with the course's
``accept_content`` — the call a worker makes for every message body — which refuses the
content type before reading a byte; then to ``pickle.loads``, which writes the marker.
"""

from __future__ import annotations

import pickle
import pickletools
from pathlib import Path
from typing import Any

PICKLE_CONTENT_TYPE = "application/x-python-serialize"


class MarkerPayload:
    """Pickles to "call Path.write_text(marker, ...)" — harmless, but code all the same."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (Path.write_text, (self.marker, "written while unpickling\n"))


def callables_named(payload: bytes) -> list[str]:
    """The globals a pickle imports when loaded (``pickletools`` reads it without running it)."""
    names: list[str] = []
    pushed: list[object] = []
    memo: dict[int, object] = {}
    for opcode, argument, _position in pickletools.genops(payload):
        if opcode.name in ("SHORT_BINUNICODE", "BINUNICODE", "UNICODE"):
            pushed.append(argument)
        elif opcode.name == "MEMOIZE" and pushed:
            memo[len(memo)] = pushed[-1]
        elif opcode.name in ("BINGET", "LONG_BINGET") and isinstance(argument, int):
            pushed.append(memo.get(argument))
        elif opcode.name == "STACK_GLOBAL" and len(pushed) >= 2:
            names.append(f"{pushed[-2]}.{pushed[-1]}")
            pushed.append(names[-1])
        elif opcode.name == "GLOBAL":
            names.append(str(argument).replace(" ", "."))
        elif opcode.name not in ("PROTO", "FRAME"):
            pushed.append(None)
    return names


def refuse_then_load(folder: Path) -> list[str]:
    from kombu.exceptions import ContentDisallowed
    from kombu.serialization import loads

    from ticketflow.workers.app import reliability_settings

    marker = folder / "marker.txt"
    marker.unlink(missing_ok=True)
    payload = pickle.dumps(MarkerPayload(marker))
    accept = reliability_settings()["accept_content"]
    called = ", ".join(callables_named(payload))
    lines = [f"a pickle payload; loading it would call: {called}"]
    try:
        loads(payload, PICKLE_CONTENT_TYPE, "binary", accept=accept)  # type: ignore[no-untyped-call]
        lines.append(f"kombu loads with accept_content={accept}: accepted (unexpected)")
    except ContentDisallowed as error:
        lines.append(f"kombu loads with accept_content={accept}: ContentDisallowed ({error})")
    lines.append(f"  marker file exists afterwards: {marker.exists()}")
    pickle.loads(payload)  # the demonstration: our own harmless payload, on purpose
    lines.append("pickle.loads(payload), as a pickle-accepting worker would do:")
    lines.append(
        f"  marker file exists afterwards: {marker.exists()} ({marker.read_text().strip()!r})"
    )
    return lines
