"""``grader roster import FILE`` / ``grader roster show``: the class list in the gradebook.

exit codes: 0 done; 2 the file cannot be read, has no id column, or an id is invalid or
twice (the line is named), or the gradebook is not the grader's."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.frontends.commands.common import add_db
from grader.render.catalog import render_message

EPILOG = """The file is CSV, UTF-8 with or without a BOM. Columns by header (case, spaces and
underscores ignored; others ignored): id (or student), name, email, sis_user_id,
sis_login_id, section. Importing again updates changed students and adds new ones.

exit codes:
  0  imported / shown
  2  unreadable file, no id column, an invalid or repeated id (its line named), or a
     gradebook the grader did not create"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "roster",
        help="import or show the class list (names, emails, SIS ids, sections)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    importing = actions.add_parser("import", help="read roster.csv into the gradebook")
    importing.add_argument("file", type=Path)
    showing = actions.add_parser("show", help="list the roster")
    showing.add_argument("--json", action="store_true", help="print machine-readable JSON")
    for sub in (importing, showing):
        add_db(sub)
        sub.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
        sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from dataclasses import asdict

    from grader.instructor.gradebook import Gradebook
    from grader.instructor.term.roster import read_roster
    from grader.instructor.term.store import import_roster, roster

    if args.action == "import":
        students = read_roster(args.file)  # refused before the gradebook is opened
        with Gradebook(args.db) as book:
            added, changed = import_roster(book, students)
            total = len(roster(book))
        params = {"added": added, "changed": changed, "total": total, "path": str(args.file)}
        print(render_message("roster.imported", params, lang))
        return EXIT_PASSED
    with Gradebook(args.db, must_exist=True) as book:
        listed = roster(book)
    if as_json:
        print(json.dumps([asdict(s) for s in listed], ensure_ascii=False, indent=2))
        return EXIT_PASSED
    if not listed:
        print(render_message("roster.empty", {}, lang))
    for s in listed:
        print("\t".join((s.student, s.name, s.email, s.sis_user_id, s.sis_login_id, s.section)))
    return EXIT_PASSED
