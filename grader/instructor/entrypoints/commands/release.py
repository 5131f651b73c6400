"""``grader release --out DIR [--root DIR]``: build the student copy (instructors)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from grader.errors import EXIT_PASSED


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "release",
        help="build the student copy: no solutions, tests or prose rubrics (instructors)",
        description=(
            "Write the student copy of the course into a new folder: lessons, exercise "
            "statements and starters, ticketflow (+ ticketflow_lab), the grader, README, "
            "Makefile. RELEASE-MANIFEST.json in it lists what was left out and why."
        ),
    )
    parser.add_argument("--out", type=Path, required=True, help="a new or empty folder")
    parser.add_argument(
        "--root", type=Path, help="course root (default: search upward for exercises/)"
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="message language")
    parser.add_argument("--json", action="store_true", help="print the manifest summary as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.course import find_course_root
    from grader.instructor.release import MANIFEST, build_release
    from grader.render.catalog import render_message

    root = find_course_root(args.root)
    release = build_release(
        root,
        args.out,
        progress=lambda key, params: print(render_message(key, params, lang), file=sys.stderr),
    )
    if as_json:
        summary = {
            "out": str(release.out),
            "files": len(release.files),
            "left_out": [entry.path for entry in release.left_out],
        }
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        params = {"out": str(release.out), "files": len(release.files), "manifest": MANIFEST}
        print(render_message("release.done", params, lang))
    return EXIT_PASSED
