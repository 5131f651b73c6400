"""The one helper for terminal tables: columns padded by display width (CJK counts 2)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def width(text: str) -> int:
    """Terminal columns ``text`` takes: wide and full-width characters count 2."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, size: int) -> str:
    return text + " " * max(0, size - width(text))


def table(header: Sequence[str], rows: Sequence[Sequence[str]], *, gap: str = "  ") -> str:
    """``header``, a rule of dashes, then ``rows``; every column as wide as its widest cell."""
    widths = [max(width(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        gap.join(pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, gap.join("-" * w for w in widths))
    return "\n".join(lines)
