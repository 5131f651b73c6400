"""``grader export [--db URL] --format canvas|moodle|csv|json [--out FILE]``."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from grader.errors import EXIT_PASSED, UsageError
from grader.frontends.commands.common import add_db
from grader.render.catalog import render_message

if TYPE_CHECKING:
    from grader.instructor.term.lms import ExportOptions, Table

EPILOG = """formats:
  canvas  Student, ID, SIS User ID, SIS Login ID, Section (from the roster), one column per
          exercise (named with --column / --columns), a Points Possible row, no total
  moodle  one identifier column (--identifier email|idnumber|username), one column per
          grade item, with --feedback a feedback column per item; only student rows
  csv     student, one column per exercise, total, a Points Possible row
  json    everything: raw score, exported score, penalty, lateness, review, error reason
Every cell is the official grade (grader/instructor/grade): the late penalty is part of
it; code that does not parse is 0 unless you decided otherwise. A submission that needs
re-submission (a corrupt zip, a manifest mismatch) is empty and named on stderr (0 with
--errors-as-zero). A prose answer awaiting your decision is empty and counted on stderr
(--provisional exports its provisional score, each one named on stderr). Spreadsheet
formats are UTF-8 with a BOM; no cell starts like a formula.

--out FILE must be in a folder that exists. An existing FILE is replaced only when it is an
export of this gradebook in the same format (same leading columns, no student this
gradebook does not have); otherwise export refuses and writes nothing (--force replaces it).

exit codes:
  0  written
  2  no gradebook at --db (nothing is created), a database the grader did not create, a
     bad --column / --columns mapping, an --out folder that does not exist, an existing
     --out that is not an export of this gradebook (see --force); nothing is written"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export",
        help="the gradebook as an LMS import (canvas, moodle), CSV or JSON",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(parser)
    parser.add_argument("--format", choices=("csv", "canvas", "moodle", "json"), default="csv")
    parser.add_argument("--out", type=Path, help="file to write (default: standard output)")
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace --out even if it is not an export of this gradebook",
    )
    parser.add_argument(
        "--column",
        action="append",
        default=[],
        metavar='EX-ID="NAME"',
        help='the LMS column of an exercise, e.g. EX-11-01="Probe 11 (12345)" (repeatable)',
    )
    parser.add_argument(
        "--columns", type=Path, metavar="FILE", help="CSV of exercise,column lines (a mapping)"
    )
    parser.add_argument(
        "--identifier",
        choices=("email", "idnumber", "username"),
        default="email",
        help="moodle: the column Moodle maps users from (default: email)",
    )
    parser.add_argument("--feedback", action="store_true", help="moodle: feedback columns")
    parser.add_argument(
        "--errors-as-zero",
        action="store_true",
        help="export a submission that needs re-submission as 0 instead of empty",
    )
    parser.add_argument(
        "--provisional",
        action="store_true",
        help="export the provisional score of prose answers you have not decided yet",
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the messages")
    parser.set_defaults(run=run)


def column_names(pairs: list[str], mapping: Path | None) -> dict[str, str]:
    """``EX-ID=NAME`` pairs and the mapping file's ``exercise,column`` rows."""
    from grader.judge.exercises import get_exercise

    found: list[tuple[str, str]] = []
    if mapping is not None:
        try:
            text = mapping.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            detail = str(error)[:200]
            raise UsageError("error.export_mapping", given=str(mapping), detail=detail) from None
        found += [(r[0], r[1]) for r in csv.reader(text.splitlines()) if len(r) >= 2 and r[0]]
    for pair in pairs:
        exercise, sep, name = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError("error.export_mapping", given=pair, detail="EX-ID=NAME")
        found.append((exercise, name))
    return {get_exercise(e.strip()).id: n.strip().strip('"') for e, n in found}


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.term import lms
    from grader.instructor.term.export_file import check_out_folder, check_overwrite
    from grader.instructor.term.store import receipts, roster

    if args.out is not None:
        check_out_folder(args.out)
    options = lms.ExportOptions(
        columns=column_names(args.column, args.columns),
        errors_as_zero=args.errors_as_zero,
        identifier=args.identifier,
        feedback=args.feedback,
        provisional=args.provisional,
    )
    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
        table = lms.build_table(results, roster(book), receipts(book))
    unmapped: list[str] = []
    if args.format == "canvas":
        text, unmapped = lms.to_canvas(table, results, options)
    elif args.format == "moodle":
        text, unmapped = lms.to_moodle(table, options)
    elif args.format == "csv":
        text = lms.to_csv(table, results, options)
    else:
        text = json.dumps(lms.to_json(table, results, options), ensure_ascii=False, indent=2)
        text += "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        check_overwrite(args.out, text, args.format, force=args.force)
        args.out.write_text(text, encoding="utf-8", newline="")
    kind = "canvas" if args.format == "canvas" else args.identifier
    _warn(table, unmapped, options, kind, lang)
    return EXIT_PASSED


def _warn(table: Table, unmapped: list[str], options: ExportOptions, kind: str, lang: str) -> None:
    resubmit = "export.resubmit_zero" if options.errors_as_zero else "export.resubmit_empty"
    waiting = "export.awaiting_provisional" if options.provisional else "export.awaiting_blank"
    for message, cells in ((resubmit, table.errors()), (waiting, table.awaiting())):
        if cells:
            print(render_message(message, _named(cells), lang), file=sys.stderr)
    if unmapped:
        params = {"count": len(unmapped), "students": ", ".join(unmapped[:20]), "kind": kind}
        message = "export.unmapped_canvas" if kind == "canvas" else "export.unmapped"
        print(render_message(message, params, lang), file=sys.stderr)


def _named(cells: list[tuple[str, str]]) -> dict[str, str | int]:
    """The cells counted, and the first 20 named as ``student exercise``."""
    names = [f"{student} {exercise}" for student, exercise in cells]
    more = f" (+{len(names) - 20})" if len(names) > 20 else ""
    return {"count": len(cells), "students": ", ".join(names[:20]), "more": more}
