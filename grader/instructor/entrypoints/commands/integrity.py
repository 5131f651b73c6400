"""``grader integrity [--db URL] [--json]``: identical and near-identical submissions per
exercise, and zips whose manifest names another student.

exit codes: 0 report printed (whatever it found); 2 no gradebook at --db, or a database
the grader did not create."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from grader.errors import EXIT_PASSED
from grader.frontends.commands.common import add_db
from grader.render.catalog import render_message

EPILOG = """identical: the same judged content (sha256), whatever the row's status; the starter
and the reference solution left out. reference: a hand-in that is the reference solution,
comments, layout and no-op statements aside.
near-identical (code): winnowing fingerprints as MOSS computes them, over Python tokens
with names reduced to their kind, after removing no-op statements (pass, bare constants,
_ = ..., if True:) and splitting asserts; the statement's obvious shape and fingerprints
a large share of the class holds are left out. A pair is reported when >= 70% of the
smaller hand-in's own fingerprints are in the other (containment, shown beside Jaccard)
AND their raw texts share rare names, strings or comments (written by at most 3 students,
not given by the course): structure alone never accuses. Each report says why and names
its side-by-side view on the review page. near-identical (prose): answers within 6
characters of each other.

exit codes:
  0  the report was printed (whatever it found)
  2  no gradebook at --db, or a database the grader did not create"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "integrity",
        help="identical / near-identical submissions and manifests naming another student",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(parser)
    parser.add_argument(
        "--root", type=Path, help="course root, for the starters and solutions (default: search)"
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the report")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.course import find_course_root
    from grader.errors import CourseRootNotFound
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.term.integrity import base_texts, integrity_report
    from grader.instructor.term.reasons import near_line
    from grader.instructor.term.store import receipts
    from grader.judge.exercises import exercise_ids, get_exercise

    try:
        root: Path | None = find_course_root(args.root)
    except CourseRootNotFound:
        root = None
    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
        received = receipts(book)
    kinds = {e: get_exercise(e).kind for e in exercise_ids()}
    report = integrity_report(results, base_texts(root), received, kinds)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
        return EXIT_PASSED
    if root is None:
        print(render_message("integrity.no_base", {}, lang))
    for exercise, groups in report.identical.items():
        for group in groups:
            params = {"exercise": exercise, "students": ", ".join(group)}
            print(render_message("integrity.identical", params, lang))
    for exercise, student in report.reference:
        print(
            render_message("integrity.reference", {"exercise": exercise, "student": student}, lang)
        )
    for pair in report.near:
        print(near_line(pair, lang))
    for student, claimed in report.manifests:
        params = {"student": student, "claimed": claimed}
        print(render_message("integrity.manifest", params, lang))
    if not (report.identical or report.near or report.manifests or report.reference):
        print(render_message("integrity.clean", {"count": len(results)}, lang))
    return EXIT_PASSED
