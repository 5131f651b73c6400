"""What every subcommand shares: the common flags, writing output, the settings."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from grader.render.catalog import LANGUAGES


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


def add_db(sub: argparse.ArgumentParser) -> None:
    """``--db URL``, the gradebook, as every instructor command takes it."""
    sub.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
