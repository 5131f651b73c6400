"""``grader roster import FILE`` / ``grader roster show``: the class list in the gradebook.

exit codes: 0 done; 2 the file cannot be read, has no id column, or an id is invalid or
twice (the line is named), or the gradebook is not the grader's."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.frontends.commands.common import add_db
from grader.instructor.term import lms_files
from grader.render.catalog import render_message

EPILOG = """The file is CSV, UTF-8 with or without a BOM. Columns by header (case, spaces and
underscores ignored; others ignored): id (or student), name, email, sis_user_id,
sis_login_id, section. Importing again updates changed students and adds new ones.

An LMS's own export is read as it is: a Canvas gradebook export (its Points Possible row
included; Canvas's ID is kept, the student id is the SIS login or, with --id-from
sis_user_id, the SIS user id), a Moodle grade export (student id: ID number), or a Moodle
grading worksheet (adds each listed student's "Participant N" to the roster, matched by
email). A repeated email, SIS id, Canvas id or participant is refused, its lines named.

`roster tokens` gives every roster student a secret for `grader inbox` (id, name, email,
token: a CSV for a mail merge). Running it again keeps the tokens it gave; --rotate ID
replaces one (a token that leaked). The file holds secrets: send each student only theirs.

exit codes:
  0  imported / shown
  2  unreadable file, no id column, an invalid or repeated id (its line named), or a
     gradebook the grader did not create; tokens: an empty roster, --rotate of an id not
     on the roster, or --out over an existing file without --force"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "roster",
        help="import or show the class list (names, emails, SIS ids, sections)",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    importing = actions.add_parser(
        "import", help="read roster.csv, or a Canvas or Moodle export as it is, into the gradebook"
    )
    importing.add_argument("file", type=Path)
    importing.add_argument(
        "--id-from",
        choices=lms_files.ID_FROM,
        help="the column that is the student id (Canvas: sis_login_id, the default, or "
        "sis_user_id; Moodle: idnumber)",
    )
    showing = actions.add_parser("show", help="list the roster")
    showing.add_argument("--json", action="store_true", help="print machine-readable JSON")
    tokens = actions.add_parser(
        "tokens", help="give each student a hand-in token (CSV for a mail merge)"
    )
    tokens.add_argument("--out", type=Path, help="CSV to write (default: print it)")
    tokens.add_argument(
        "--rotate", action="append", default=[], metavar="ID", help="replace ID's token"
    )
    tokens.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    for sub in (importing, showing, tokens):
        add_db(sub)
        sub.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
        sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from dataclasses import asdict

    from grader.instructor.gradebook import Gradebook
    from grader.instructor.term.store import import_roster, roster

    if args.action == "tokens":
        return _tokens(args, lang)
    if args.action == "import":
        if lms_files.roster_kind(args.file) == "moodle_worksheet":  # adds to the roster
            with Gradebook(args.db, must_exist=True) as book:
                students = lms_files.read_any_roster(args.file, args.id_from, roster(book))
        else:  # refused before the gradebook is opened
            students = lms_files.read_any_roster(args.file, args.id_from)
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
        print("\t".join((s.student, s.name, s.email, s.sis_user_id, s.sis_login_id, s.section,
                         s.canvas_id, s.moodle_participant)))  # fmt: skip
    return EXIT_PASSED


def _tokens(args: argparse.Namespace, lang: str) -> int:
    import csv
    import io
    import os

    from grader.errors import UsageError
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.term.inbox_store import ensure_tokens

    if args.out is not None and os.path.lexists(args.out) and not args.force:
        raise UsageError("error.tokens_exist", path=str(args.out))
    if args.out is not None and not args.out.parent.is_dir():
        raise UsageError("error.out_no_folder", path=str(args.out.parent))
    with Gradebook(args.db, must_exist=True) as book:
        rows = ensure_tokens(book, args.rotate)
    if not rows:
        raise UsageError("roster.empty_for_tokens")
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(("id", "name", "email", "token"))
    writer.writerows((row.student, row.name, row.email, row.token) for row in rows)
    if args.out is None:
        print(text.getvalue(), end="")
        return EXIT_PASSED
    temporary = args.out.with_name(f".{args.out.name}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
        handle.write(text.getvalue())
    os.replace(temporary, args.out)
    params = {"count": len(rows), "path": str(args.out), "rotated": len(args.rotate)}
    print(render_message("roster.tokens_written", params, lang))
    return EXIT_PASSED
