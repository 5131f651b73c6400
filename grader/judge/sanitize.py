"""Make untrusted text (the student's output) safe to show next to grader output."""

from __future__ import annotations

import re

# ANSI/VT escape sequences (CSI, OSC, single-character escapes) and other C0/C1 controls.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b.?")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """Drop escape sequences and control characters (tabs and newlines stay)."""
    return _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))


def fenced(text: str, prefix: str = "    │ ") -> list[str]:
    """Untrusted text as lines that start with a fence: it cannot pass for a grader line."""
    return [prefix + line for line in clean(text).expandtabs(4).splitlines()]


def visible(text: str) -> str:
    """``text`` with every control, escape and bidi character spelled out (``\\x1b``), for
    echoing something the user typed (an exercise id) where stripping could change its look."""
    return "".join(
        char if char.isprintable() and not _CONTROLS.match(char) else _escape(char) for char in text
    )


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
