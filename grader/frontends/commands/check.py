"""``grader check EX-12-01 [--path FILE]``: grade one exercise, print the report."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from grader.errors import EXIT_CODES
from grader.frontends.commands.common import add_common, emit, turn_notices

EPILOG = f"""environment:
  GRADER_LANG       feedback language (zh or en)
  GRADER_ISOLATION  sandbox for the runs: auto (default: the strongest available),
                    namespaces (fail if unavailable), rlimits (no isolation: a probe can
                    read the solutions; fine for self-checks, never for official grading)
                    or portable (a fresh Python process per run, no isolation, on any
                    platform: what auto uses on Windows and macOS). The report names the
                    mode used (JSON: "isolation"); in rlimits and portable mode its first
                    line says so, and its JSON says "official": false.

{EXIT_CODES}"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = subparsers.add_parser(
        "check",
        help="check one exercise",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("exercise", help="exercise id, e.g. EX-12-01")
    sub.add_argument("--path", type=Path, help="file to check (.py, .md or .ipynb)")
    add_common(sub)
    sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.service import GradingService, GradingSettings
    from grader.errors import exit_code_for

    # The renderer is imported, and the report's texts read, before the check: that work then
    # overlaps the master's start-up (a one-shot check's master is already importing, see
    # cli._prestart_check) instead of following the last run.
    from grader.judge.texts import registered_texts
    from grader.render.json_out import report_to_dict
    from grader.render.text import report_to_text

    registered_texts()
    settings = GradingSettings.from_env(root=args.root, lang=lang, self_check=True)
    with GradingService(settings, on_turn_wait=turn_notices(lang)) as service:
        report = service.check(args.exercise, args.path).report
    given = args.exercise if args.exercise.strip() != report.exercise else None
    if as_json:
        emit(json.dumps(report_to_dict(report, lang, given=given), ensure_ascii=False, indent=2))
    else:
        emit(report_to_text(report, lang, given=given))
    return exit_code_for(report.status)
