"""``grader stats [--db URL] [--json]``: what the class got wrong, per check and mutant."""

from __future__ import annotations

import argparse
import json

from grader.errors import EXIT_PASSED
from grader.judge.results import Message
from grader.render.catalog import render_message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats", help="per exercise the pass share; per check and mutant the share that failed"
    )
    parser.add_argument(
        "--db", help="gradebook URL (default: $GRADER_DB_URL or sqlite:///gradebook.db)"
    )
    parser.add_argument("--lang", choices=("zh", "en"), help="language of the report")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, lang: str, as_json: bool) -> int:
    from grader.instructor.gradebook import Gradebook
    from grader.instructor.gradebook.stats import class_stats, stats_to_json

    with Gradebook(args.db, must_exist=True) as book:
        stats = class_stats(book.results())
    if as_json:
        print(json.dumps(stats_to_json(stats), ensure_ascii=False, indent=2))
        return EXIT_PASSED
    if not stats:
        print(render_message("stats.empty", {}, lang))
        return EXIT_PASSED
    for item in stats:
        title = render_message(f"exercise.{item.exercise}.title", {}, lang)
        passed = render_message("stats.passed", {}, lang)
        print(
            f"{item.exercise} {title}: {passed} {item.passed}/{item.handed_in}"
            f" ({item.passed_share:.0%})"
        )
        for check in item.checks:
            if not check.failed:
                continue
            share = round(check.share * 100)
            if check.category == "mutant":
                mutant = Message(f"mutant.{check.subject}")
                line = render_message(
                    "stats.mutant_survived", {"mutant": mutant, "share": share}, lang
                )
                line += f" [{check.subject}]"
            else:
                name = _title(item.exercise, check.category, check.subject)
                line = render_message("stats.check_failed", {"check": name, "share": share}, lang)
            print(f"  {line}")
    return EXIT_PASSED


def _title(exercise: str, category: str, subject: str | None) -> Message:
    """A check's title as ``grader check`` shows it (a concept by its described name)."""
    if category == "concept" and subject:
        return Message("check.concept", {"arg": Message(f"concept.{exercise}.{subject}")})
    return Message(f"check.{category}")
