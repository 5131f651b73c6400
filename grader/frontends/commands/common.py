"""What every subcommand shares: the common flags, writing output, the settings."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from grader.render.catalog import LANGUAGES, turn_wait_notice

if TYPE_CHECKING:
    from grader.runner.turns import Holder


def add_common(sub: argparse.ArgumentParser, *, json_flag: bool = True) -> None:
    sub.add_argument(
        "--root", type=Path, help="course root (default: search upward for exercises/)"
    )
    sub.add_argument(
        "--lang", choices=LANGUAGES, help="feedback language (default: $GRADER_LANG or zh)"
    )
    if json_flag:
        sub.add_argument("--json", action="store_true", help="print machine-readable JSON")


def emit(text: str, stream: TextIO | None = None) -> None:
    """Print ``text``; a reader that went away (``grader check ... | head -1``) is not an
    error: the rest is dropped and the command still ends with its verdict's exit code."""
    out = stream or sys.stdout
    try:
        try:
            print(text, file=out, flush=True)
        except UnicodeEncodeError:  # a console or pipe in a legacy code page (Windows: GBK)
            encoding = getattr(out, "encoding", None) or "ascii"
            out.buffer.write((text + "\n").encode(encoding, "backslashreplace"))
            out.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())  # so the interpreter's final flush cannot fail again
        os.close(devnull)


def turn_notices(
    lang: str, stream: TextIO | None = None, *, below_bar: bool = False
) -> Callable[[Holder | None], None]:
    """Tells the person waiting (on stderr: ``--json`` output stays clean) who holds their
    runs' turn, when a run of theirs waits for it (``grader.runner.turns``). The one teller
    of ``grader check``, ``check()`` in a notebook and a batch's workers; ``below_bar``
    starts the notice on a line of its own, under a progress bar."""
    lead = "\n" if below_bar else ""

    def tell(holder: Holder | None) -> None:
        emit(lead + turn_wait_notice(holder, lang), stream or sys.stderr)

    return tell


def add_db(sub: argparse.ArgumentParser) -> None:
    """``--db URL``, the gradebook, as every instructor command takes it."""
    sub.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
