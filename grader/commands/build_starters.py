"""``grader build-starters [--check]``: regenerate the student starters from solutions/."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = subparsers.add_parser("build-starters", help="regenerate starters from solutions/")
    sub.add_argument("--root", type=Path, help="course root (default: search upward)")
    sub.add_argument("--check", action="store_true", help="only report stale starters (exit 1)")
    sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.starters import run_build

    return run_build(args.root, check=args.check)
