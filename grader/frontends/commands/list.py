"""``grader list [--no-run]``: every exercise with the student's current status."""

from __future__ import annotations

import argparse
import json

from grader.errors import EXIT_PASSED
from grader.frontends.commands.common import add_common, emit


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sub = subparsers.add_parser("list", help="every exercise with your current status")
    sub.add_argument("--no-run", action="store_true", help="never run probes; use the cache only")
    add_common(sub)
    sub.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.app.listing import list_exercises
    from grader.app.service import GradingService, GradingSettings
    from grader.render.listing import entries_to_dicts, entries_to_text

    settings = GradingSettings.from_env(root=args.root, lang=lang, self_check=True)
    with GradingService(settings) as service:
        entries = list_exercises(service, run_missing=not args.no_run)
    if as_json:
        emit(json.dumps(entries_to_dicts(entries, lang), ensure_ascii=False, indent=2))
    else:
        emit(entries_to_text(entries, lang))
    return EXIT_PASSED
