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

EPILOG = """identical: the same judged content (sha256), the starter and the reference solution
left out. near-identical (code): winnowing fingerprints as MOSS computes them, over
Python tokens with names, strings and numbers reduced to their kind, the starter's and
solution's fingerprints removed; pairs whose fingerprints overlap >= 80% (Jaccard).

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
    for pair in report.near:
        near: dict[str, str | int] = {
            "exercise": pair.exercise,
            "first": pair.first,
            "second": pair.second,
            "share": round(pair.share * 100),
        }
        print(render_message("integrity.near", near, lang))
    for student, claimed in report.manifests:
        params = {"student": student, "claimed": claimed}
        print(render_message("integrity.manifest", params, lang))
    if not (report.identical or report.near or report.manifests):
        print(render_message("integrity.clean", {"count": len(results)}, lang))
    return EXIT_PASSED
