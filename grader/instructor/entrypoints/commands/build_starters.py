"""``grader build-starters [--check]``: regenerate the student starters from solutions/.

A broken ``# BEGIN SOLUTION`` / ``# END SOLUTION`` pair is a usage error (exit 2) naming the
solution file and the line.
"""

from __future__ import annotations

import argparse

from grader.errors import EXIT_FAILED, EXIT_PASSED, UsageError
from grader.frontends.commands.common import add_common, emit


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = subparsers.add_parser("build-starters", help="regenerate starters from solutions/")
    sub.add_argument("--check", action="store_true", help="only report stale starters (exit 1)")
    add_common(sub, json_flag=False)
    sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.course import SOLUTIONS_DIR, find_course_root
    from grader.instructor.starters import build_starters, stale_files

    root = find_course_root(args.root)
    if not (root / SOLUTIONS_DIR).is_dir():
        raise UsageError("error.no_solutions", root=str(root))
    if args.check:
        stale = stale_files(root)
        for path in stale:
            emit(f"stale: {path}")
        return EXIT_FAILED if stale else EXIT_PASSED
    for path in build_starters(root):
        emit(f"wrote {path}")
    return EXIT_PASSED
