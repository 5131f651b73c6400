"""``grader``: check exercises from the command line.

    grader check EX-12-01 [--path FILE] [--root DIR] [--lang zh|en] [--json]
    grader list [--root DIR] [--lang zh|en] [--json] [--no-run]
    grader build-starters [--root DIR] [--check]
    grader release --out DIR [--root DIR]

Exit codes: 0 every check passed, or a prose answer is awaiting instructor review (the
output says so); 1 some check failed (an untouched starter counts as failed: "not
started"); 2 usage or input error (unknown exercise, missing or unreadable file, syntax
error, invalid notebook); 3 internal error (a grader bug or broken installation: the
message asks to report it). No command ever ends with a Python traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from grader.errors import EXIT_FAILED, EXIT_INTERNAL, EXIT_PASSED, GraderError, InternalError
from grader.render.catalog import LANGUAGES, render_message, resolve_lang
from grader.results import CheckReport

EXIT_CODES = """exit codes:
  0  every check passed, or a prose answer is awaiting instructor review
  1  some check failed (an untouched starter is "not started": failed)
  2  usage or input error: unknown exercise, missing/unreadable file, syntax error, bad notebook
  3  internal grader error (please report it)"""


CHECK_EPILOG = f"""environment:
  GRADER_LANG       feedback language (zh or en)
  GRADER_ISOLATION  sandbox for the runs: auto (default: the strongest available),
                    namespaces (fail if unavailable) or rlimits (no isolation: a probe can
                    read the solutions; fine for self-checks, never for official grading).
                    The report names the mode used (JSON: "isolation").

{EXIT_CODES}"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="grader",
        description="Check ticketflow course exercises (lessons 11-13).",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--root", type=Path, help="course root (default: search upward for exercises/)"
        )
        sub.add_argument(
            "--lang", choices=LANGUAGES, help="feedback language (default: $GRADER_LANG or zh)"
        )
        sub.add_argument("--json", action="store_true", help="print machine-readable JSON")

    check = commands.add_parser(
        "check",
        help="check one exercise",
        epilog=CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("exercise", help="exercise id, e.g. EX-12-01")
    check.add_argument("--path", type=Path, help="file to check (.py, .md or .ipynb)")
    common(check)

    listing = commands.add_parser("list", help="every exercise with your current status")
    listing.add_argument(
        "--no-run", action="store_true", help="never run probes; use the cache only"
    )
    common(listing)

    starters = commands.add_parser("build-starters", help="regenerate starters from solutions/")
    starters.add_argument("--root", type=Path, help="course root (default: search upward)")
    starters.add_argument(
        "--check", action="store_true", help="only report stale starters (exit 1)"
    )
    from grader.commands import release

    release.register(commands)  # new commands: grader/commands/<name>.py, one line each here
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:  # e.g. `grader check ... | head`: the reader went away
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    lang = resolve_lang(getattr(args, "lang", None))
    as_json = bool(getattr(args, "json", False))
    try:
        if hasattr(args, "run"):
            return int(args.run(args, lang, as_json))
        if args.command == "check":
            return run_check(args, lang, as_json)
        if args.command == "list":
            return run_list(args, lang, as_json)
        from grader.starters import run_build

        return run_build(args.root, check=args.check)
    except GraderError as error:
        return report_error(error, lang, as_json, getattr(args, "exercise", None))
    except KeyboardInterrupt:
        print(render_message("error.interrupted", {}, lang), file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise
    except Exception as error:  # the last line of defence: never a traceback
        detail = f"{type(error).__name__}: {error}"[:300]
        return report_error(
            InternalError(detail=detail), lang, as_json, getattr(args, "exercise", None)
        )


def report_error(error: GraderError, lang: str, as_json: bool, exercise: str | None) -> int:
    text = render_message(error.message_id, error.params, lang)
    if as_json:
        from grader.render.json_out import error_to_dict
        from grader.render.sanitize import visible

        shown = None if exercise is None else visible(exercise)
        payload = error_to_dict(shown, text, error.message_id, error.exit_code)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(text, file=sys.stderr)
    return error.exit_code if error.exit_code else EXIT_INTERNAL


def exit_code_for(report: CheckReport) -> int:
    """passed and needs_review -> 0, failed -> 1 (errors never reach a report here)."""
    return EXIT_PASSED if report.status in ("passed", "needs_review") else EXIT_FAILED


def run_check(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.course import find_course_root
    from grader.grading import grade_exercise

    root: Path | None = None
    if args.path is None or args.root is not None:
        root = find_course_root(args.root)
    else:
        root = _optional_root()
    checked = grade_exercise(args.exercise, args.path, lang=lang, root=root)
    report = checked.report
    if root is not None and checked.submission.path.suffix != ".ipynb":
        from grader import cache

        cache.store(root, report, checked.submission.text)  # the text graded, not re-read
    if as_json:
        print(json.dumps(report.to_dict(lang), ensure_ascii=False, indent=2))
    else:
        from grader.render.text import report_to_text

        print(report_to_text(report, lang))
    return exit_code_for(report)


def _optional_root() -> Path | None:
    from grader.course import find_course_root

    try:
        return find_course_root()
    except GraderError:
        return None


def run_list(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.course import find_course_root
    from grader.listing import list_exercises
    from grader.render.listing import entries_to_dicts, entries_to_text

    entries = list_exercises(find_course_root(args.root), run_missing=not args.no_run)
    if as_json:
        print(json.dumps(entries_to_dicts(entries, lang), ensure_ascii=False, indent=2))
    else:
        print(entries_to_text(entries, lang))
    return EXIT_PASSED


if __name__ == "__main__":
    raise SystemExit(main())
