"""``grader gradebook runs | undo-run N | remove-student ID``: what a run recorded, undone.

exit codes: 0 listed / removed (or nothing confirmed: nothing changed); 2 no gradebook at
--db, a database the grader did not create, no such run."""

from __future__ import annotations

import argparse
import sys

from grader.errors import EXIT_PASSED, UsageError
from grader.frontends.commands.common import add_db
from grader.render.catalog import render_message

EPILOG = """runs lists every grade run with the gradings it recorded. undo-run N deletes what
run N recorded and shows each submission's earlier grading again (or none); remove-student
ID deletes every grading, received time and extension of ID (an id invented by grading
the wrong folder). The instructor's reviews are kept by both. Both ask for confirmation
(type yes) unless --yes.

exit codes:
  0  listed or removed; or not confirmed, and nothing changed
  2  no gradebook at --db, a database the grader did not create, no such run"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "gradebook",
        help="list grade runs; undo one run; remove a student",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("runs", help="every grade run and what it recorded")
    undo = actions.add_parser("undo-run", help="delete what one run recorded")
    undo.add_argument("run_id", type=int, metavar="N")
    remove = actions.add_parser("remove-student", help="delete everything of one student id")
    remove.add_argument("student", metavar="ID")
    for sub in (listing, undo, remove):
        add_db(sub)
        sub.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
        if sub is not listing:
            sub.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        sub.set_defaults(run=run)


def _confirmed(args: argparse.Namespace, question: str) -> bool:
    if args.yes:
        return True
    print(question, end=" ", flush=True)
    answer = sys.stdin.readline().strip().lower()
    return answer in ("yes", "y", "是")


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.gradebook.runs import remove_student, runs, undo_run

    with Gradebook(args.db, must_exist=True) as book:
        if args.action == "runs":
            for item in runs(book):
                folder = str(item.description.get("submissions", ""))
                finished = item.finished_at.isoformat() if item.finished_at else "-"
                print(f"{item.id}\t{item.started_at.isoformat()}\t{finished}\t"
                      f"{item.gradings}\t{folder}")  # fmt: skip
            return EXIT_PASSED
        if args.action == "undo-run":
            if args.run_id not in {item.id for item in runs(book)}:
                raise UsageError("error.no_such_run", run_id=args.run_id)
            question = render_message("gradebook.confirm_undo", {"run_id": args.run_id}, lang)
            if not _confirmed(args, question):
                print(render_message("gradebook.not_confirmed", {}, lang))
                return EXIT_PASSED
            count = undo_run(book, args.run_id) or 0
            params = {"run_id": args.run_id, "count": count}
            print(render_message("gradebook.undone", params, lang))
            return EXIT_PASSED
        question = render_message("gradebook.confirm_remove", {"student": args.student}, lang)
        if not _confirmed(args, question):
            print(render_message("gradebook.not_confirmed", {}, lang))
            return EXIT_PASSED
        count = remove_student(book, args.student)
    print(render_message("gradebook.removed", {"student": args.student, "count": count}, lang))
    return EXIT_PASSED
