"""``grader export [--db URL] --format csv|json [--out FILE]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.render.catalog import render_message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("export", help="the gradebook as CSV (LMS import) or JSON")
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.gradebook.export import awaiting_review, to_csv, to_json

    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
    if args.format == "csv":
        text = to_csv(results)
    else:
        text = json.dumps(to_json(results), ensure_ascii=False, indent=2) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    waiting = awaiting_review(results)
    if waiting:
        print(render_message("export.awaiting_review", {"count": waiting}, lang), file=sys.stderr)
    return EXIT_PASSED
