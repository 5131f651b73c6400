"""``grader submit [--student ID] [--out FILE]`` and ``grader submit --verify FILE``."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.render.catalog import render_message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "submit", help="pack your exercise answers into ID.zip (with a manifest) to hand in"
    )
    parser.add_argument("--student", help="your student id (default: your user name)")
    parser.add_argument("--out", type=Path, help="zip to write (default: ./ID.zip)")
    parser.add_argument(
        "--verify", type=Path, metavar="FILE", help="check a zip against its manifest"
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite the zip when it already exists"
    )
    parser.add_argument("--root", type=Path, help="course root (default: search upward)")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.course import find_course_root
    from grader.app.handin import pack, verify

    if args.verify is not None:
        verified = verify(args.verify)
        params = {"path": str(args.verify), "count": verified.files, "student": verified.student}
        print(render_message("submit.verified", params, lang))
        return EXIT_PASSED
    student = args.student or getpass.getuser()
    packed = pack(find_course_root(args.root), student, args.out, overwrite=args.force)
    for exercise in packed.left_out:
        print(
            render_message("submit.left_out_starter", {"exercise": exercise}, lang), file=sys.stderr
        )
    params = {"count": len(packed.exercises), "path": str(packed.path)}
    print(render_message("submit.packed", params, lang))
    return EXIT_PASSED
