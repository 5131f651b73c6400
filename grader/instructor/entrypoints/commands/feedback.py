"""``grader feedback [--db URL] --out DIR [--students ID,...] [--exercises ID,...] [--all]``:
one HTML page per student, showing only what the instructor released (see
``grader.instructor.feedback``): by default a prose answer not yet decided shows no score."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from grader.errors import EXIT_PASSED, UsageError
from grader.render.catalog import render_message


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "feedback", help="write one self-contained HTML page per student (what you released)"
    )
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--out", type=Path, required=True, help="folder to write STUDENT.html into")
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the pages")
    parser.add_argument(
        "--students", type=_names, default=[], metavar="ID,...", help="only these students"
    )
    parser.add_argument(
        "--exercises", type=_names, default=[], metavar="ID,...", help="only these exercises"
    )
    release = parser.add_mutually_exclusive_group()
    release.add_argument(
        "--only-reviewed",
        dest="everything",
        action="store_false",
        help="prose answers show a score only once you decided them (the default)",
    )
    release.add_argument(
        "--all",
        dest="everything",
        action="store_true",
        help="release everything, provisional prose scores included (marked provisional)",
    )
    parser.set_defaults(run=run, everything=False)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.feedback import feedback_html, lateness_notes, released
    from grader.instructor.gradebook import Gradebook, ResultView
    from grader.instructor.term.store import receipts

    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
        received = receipts(book)
    known_students = {r.student for r in results}
    known_exercises = {r.exercise for r in results}
    for given, known in ((args.students, known_students), (args.exercises, known_exercises)):
        unknown = [name for name in given if name not in known]
        if unknown:
            raise UsageError("error.feedback_unknown", names=", ".join(unknown[:5]))
    per_student: dict[str, list[ResultView]] = defaultdict(list)
    for result in results:
        if args.students and result.student not in args.students:
            continue
        if args.exercises and result.exercise not in args.exercises:
            continue
        per_student[result.student].append(result)
    args.out.mkdir(parents=True, exist_ok=True)
    held = 0
    for student, rows in per_student.items():  # ids are [A-Za-z0-9._-]: safe file names
        notes = lateness_notes(rows, received)
        page = feedback_html(student, rows, lang, everything=args.everything, notes=notes)
        (args.out / f"{student}.html").write_text(page, "utf-8")
        held += sum(1 for row in rows if not released(row, args.everything))
    params = {"count": len(per_student), "path": str(args.out)}
    print(render_message("feedback.written", params, lang))
    if held:
        print(render_message("feedback.filtered", {"held": held}, lang), file=sys.stderr)
    return EXIT_PASSED
