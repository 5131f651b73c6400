"""``grader extend STUDENT [EXERCISE] --until TIME --reason TEXT``: a later due time.

exit codes: 0 recorded (or listed / revoked); 2 a bad time, a time before the due time, an
unknown exercise, an invalid student id or one the gradebook does not know, bad course
settings, no gradebook, or a gradebook the grader did not create. A refusal writes nothing."""

from __future__ import annotations

import argparse
from pathlib import Path

from grader.errors import EXIT_PASSED, UsageError
from grader.frontends.commands.common import add_db
from grader.render.catalog import render_message

EPILOG = """Without EXERCISE the extension covers every exercise of the student. TIME is ISO
8601 (without an offset: the timezone of course.toml), and not before the due time of any
exercise it covers. STUDENT must be on the roster or among the graded submissions. The
lateness and penalty of the student's recorded submissions are recomputed at once. --list
shows every extension; --revoke removes one.

exit codes:
  0  recorded, listed or revoked
  2  bad time, a time before the due time, unknown exercise, invalid student id or one
     neither on the roster nor among the submissions, bad course.toml, no gradebook at
     --db, or a gradebook the grader did not create (nothing is written)"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "extend",
        help="give a student a later due time (one exercise or all), with a reason",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("student", nargs="?")
    parser.add_argument("exercise", nargs="?", help="one exercise (default: all)")
    parser.add_argument("--until", metavar="TIME", help="the new due time")
    parser.add_argument("--reason", default="", help="why (kept with the extension)")
    parser.add_argument("--revoke", action="store_true", help="remove the extension")
    parser.add_argument("--list", action="store_true", help="list every extension")
    parser.add_argument("--course", type=Path, metavar="course.toml")
    add_db(parser)
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.handin import valid_student_id
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.gradebook.service import default_reviewer
    from grader.instructor.term.deadlines import ALL, load_settings, parse_time, settings_path
    from grader.instructor.term.receiving import refresh_lateness
    from grader.instructor.term.store import (
        extensions,
        grant_extension,
        known_students,
        revoke_extension,
    )
    from grader.judge.exercises import get_exercise

    settings = load_settings(settings_path(args.course))
    if args.list:
        with Gradebook(args.db, must_exist=True) as book:
            for item in extensions(book):
                print("\t".join((item.student, item.exercise, item.until.isoformat(), item.reason)))
        return EXIT_PASSED
    if not args.student or not valid_student_id(args.student):
        raise UsageError("error.student_id", given=str(args.student or "")[:80])
    exercise = ALL if args.exercise is None else get_exercise(args.exercise).id
    if args.revoke:
        with Gradebook(args.db, must_exist=True) as book:
            gone = revoke_extension(book, args.student, exercise)
            refresh_lateness(book, settings)
        message = "extend.revoked" if gone else "extend.none"
        print(render_message(message, {"student": args.student, "exercise": exercise}, lang))
        return EXIT_PASSED
    if not args.until:
        raise UsageError("error.extend_until")
    until = parse_time(args.until, settings.timezone, "--until")
    earlier = settings.due_after(exercise, until)
    if earlier is not None:
        name, due = earlier
        raise UsageError(
            "error.extend_before_due", until=until.isoformat(), exercise=name, due=due.isoformat()
        )
    with Gradebook(args.db, must_exist=True) as book:
        if args.student not in known_students(book):
            raise UsageError("error.extend_unknown_student", student=args.student)
        grant_extension(book, args.student, exercise, until, args.reason, default_reviewer())
        refresh_lateness(book, settings)
    params = {"student": args.student, "exercise": exercise, "until": until.isoformat()}
    print(render_message("extend.granted", params, lang))
    return EXIT_PASSED
