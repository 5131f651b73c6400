"""``grader grade SUBMISSIONS``: grade a whole class into the gradebook."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from grader.errors import EXIT_PASSED
from grader.render.catalog import render_message

EPILOG = """The submissions folder holds one folder or .zip per student, named by the student
id (see README, "For instructors: grading a class"). Re-running grades only what changed.

exit codes:
  0  every submission has a gradebook row (whatever the students scored); with
     --dry-run, the listing was printed (nothing written)
  2  usage error: no such folder, a folder that is not a class (one student's folder,
     a course copy: see --force), bad --db URL, a database the grader did not create,
     unreachable broker or database, no worker consuming within --wait-timeout, or no
     isolating sandbox (see --allow-weak-isolation)
  3  internal grader error (a grader bug; one student's bad submission never causes it)
  130  interrupted (Ctrl-C / SIGTERM): the runs in flight were finished or cancelled,
     what was recorded stays; run the same command again to grade the rest. A second
     Ctrl-C stops at once."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "grade",
        help="grade a class of submissions into the gradebook",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("submissions", type=Path, help="folder with one folder or .zip per student")
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--jobs", type=_positive, help="local worker processes (default: cores)")
    parser.add_argument("--broker", help="grade on Celery workers (amqp://... or redis://...)")
    parser.add_argument(
        "--exercise",
        action="append",
        default=[],
        metavar="ID",
        help="only this exercise (repeatable)",
    )
    parser.add_argument(
        "--wait-timeout",
        type=float,
        default=600.0,
        metavar="S",
        help="with --broker: give up (exit 2) when no student finished for S seconds (default 600)",
    )
    parser.add_argument(
        "--allow-weak-isolation",
        action="store_true",
        help="grade even without the isolating sandbox (rows marked as not official)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="grade the folder even if it looks like one student's folder or a course copy",
    )
    parser.add_argument(
        "--received-at",
        type=Path,
        metavar="FILE.csv",
        help="when work arrived: student,exercise,time rows (exercise 'all' for every one);"
        " default: each file's modification time in SUBMISSIONS (the collection time)",
    )
    parser.add_argument(
        "--course",
        type=Path,
        metavar="course.toml",
        help="due dates and late policy (default: course.toml at the course root, if any)",
    )
    parser.add_argument(
        "--roster-only",
        action="store_true",
        help="grade only students on the roster (grader roster import); report the others",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="list what would be graded, refused and skipped; write nothing",
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.batch.progress import GradingProgress
    from grader.instructor.batch.run import GradeOptions, chosen_exercises, dry_run, grade_class

    options = GradeOptions(
        submissions=args.submissions,
        db_url=args.db,
        jobs=args.jobs,
        broker=args.broker,
        exercises=args.exercise,
        allow_weak_isolation=args.allow_weak_isolation,
        wait_timeout=args.wait_timeout,
        force=args.force,
        roster_only=args.roster_only,
        received_at=args.received_at,
        course=args.course,
    )
    if args.dry_run:
        return _print_dry_run(dry_run(options), lang, as_json)

    def note(message_id: str, params: dict[str, str | int]) -> None:
        print(render_message(message_id, params, lang), file=sys.stderr)

    def progress(total: int) -> GradingProgress:
        label = render_message("batch.progress", {}, lang)
        return GradingProgress(label, total, enabled=sys.stderr.isatty())

    result = grade_class(options, note=note, progress=progress)
    students = {source.student for source in result.discovery.students}
    summary = with_decisions(result.summary, args.db, students, chosen_exercises(args.exercise))
    if as_json:
        print(json.dumps(summary))
    else:
        print(render_message("batch.summary", summary, lang))
    return EXIT_PASSED


def _print_dry_run(planned: list[Any], lang: str, as_json: bool) -> int:
    if as_json:
        print(json.dumps([{"action": p.action, "name": p.name, "kind": p.kind} for p in planned]))
        return EXIT_PASSED
    for entry in planned:
        print(
            render_message(
                f"batch.dry_{entry.action}", {"name": entry.name, "kind": entry.kind}, lang
            )
        )
    counts = {
        action: sum(1 for p in planned if p.action == action)
        for action in ("grade", "refuse", "skip")
    }
    print(render_message("batch.dry_summary", counts, lang))
    return EXIT_PASSED


#: The summary's field for each status the grader gives.
_FIELDS = {"passed": "passed", "failed": "failed", "needs_review": "needs_review"}
_FIELDS |= {"error": "errors", "missing": "missing"}


def with_decisions(
    summary: dict[str, float | int],
    db_url: str | None,
    students: set[str],
    exercises: tuple[str, ...],
) -> dict[str, float | int]:
    """The run's summary with every item the instructor decided counted as ``reviewed``
    (and no longer under the status the grader gave it), as the review page shows it."""
    from grader.instructor.gradebook import Gradebook

    with Gradebook(db_url) as book:
        decided = [
            result
            for result in book.results()
            if result.reviewed and result.student in students and result.exercise in exercises
        ]
    counted = dict(summary)
    counted["reviewed"] = len(decided)
    for result in decided:
        field = _FIELDS.get(result.status)
        if field is not None and int(counted.get(field, 0)) > 0:
            counted[field] = int(counted[field]) - 1
    return counted
