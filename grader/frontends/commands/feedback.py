"""``grader feedback [--db URL] --out DIR [--lang zh|en]``: one HTML page per student."""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.render.catalog import render_message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "feedback", help="write one self-contained HTML page per student"
    )
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--out", type=Path, required=True, help="folder to write STUDENT.html into")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the pages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.feedback import feedback_html
    from grader.instructor.gradebook import Gradebook, ResultView

    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
    per_student: dict[str, list[ResultView]] = defaultdict(list)
    for result in results:
        per_student[result.student].append(result)
    args.out.mkdir(parents=True, exist_ok=True)
    for student, rows in per_student.items():  # ids are [A-Za-z0-9._-]: safe file names
        (args.out / f"{student}.html").write_text(feedback_html(student, rows, lang), "utf-8")
    params = {"count": len(per_student), "path": str(args.out)}
    print(render_message("feedback.written", params, lang))
    return EXIT_PASSED
