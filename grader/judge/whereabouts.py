"""Where a probe stopped, said in the student's terms: the line of their file, or for a
notebook the cell and the line within it. Pure (no processes, no files).

``Locate`` maps a line of the submitted module to (notebook cell, line in the cell); it is
``Submission.locate`` for notebooks and None for plain files.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from grader.judge.results import Message, msg

Locate = Callable[[int], "tuple[int, int] | None"]


def where(line: int | None, locate: Locate | None) -> tuple[int, int] | None:
    """(cell, line in cell) for a notebook line; None for a plain file or an unknown line."""
    if line is None or locate is None:
        return None
    try:
        return locate(line)
    except Exception:
        return None


def uncaught_message(
    prefix: str, kind: str, message: str, line: int | None, locate: Locate | None
) -> Message:
    """``<prefix>.uncaught`` (line of the file) or ``<prefix>.uncaught_cell`` (notebook)."""
    place = where(line, locate)
    if place is not None:
        return msg(
            f"{prefix}.uncaught_cell", type=kind, message=message, cell=place[0], line=place[1]
        )
    return msg(f"{prefix}.uncaught", type=kind, message=message, line=line)


def stopped_message(kind: str, line: int, locate: Locate | None) -> Message:
    """The follow-on checks' truthful "not judged": where the real run stopped."""
    place = where(line, locate)
    if place is not None:
        return msg("followon.stopped_cell", type=kind, cell=place[0], line=place[1])
    return msg("followon.stopped_line", type=kind, line=line)


def relocate_traceback(text: str, display_name: str, locate: Locate | None) -> str:
    """``File "probe.ipynb", line 57`` -> ``File "probe.ipynb", cell 4, line 3``."""
    if locate is None or not text:
        return text
    pattern = re.compile(r'(File "' + re.escape(display_name) + r'"), line (\d+)')

    def replace(match: re.Match[str]) -> str:
        place = where(int(match.group(2)), locate)
        if place is None:
            return match.group(0)
        return f"{match.group(1)}, cell {place[0]}, line {place[1]}"

    return pattern.sub(replace, text)
