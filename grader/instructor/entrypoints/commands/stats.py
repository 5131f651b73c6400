"""``grader stats [--db URL] [--json]``: what the class got wrong, per check and mutant."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from grader.errors import EXIT_PASSED
from grader.judge.results import Message, ParamValue
from grader.render.catalog import render_message

if TYPE_CHECKING:
    from grader.instructor.gradebook.stats import ExerciseStats


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
    from grader.instructor.gradebook.stats import class_stats, stats_to_json, stray_ids
    from grader.instructor.term.store import roster

    with Gradebook(args.db, must_exist=True) as book:
        results = book.results()
        listed = {student.student for student in roster(book)}
    stats = class_stats(results, listed)
    strays = stray_ids(results, listed)
    if as_json:
        print(json.dumps(stats_to_json(stats, results, strays), ensure_ascii=False, indent=2))
        return EXIT_PASSED
    if not stats:
        print(render_message("stats.empty", {}, lang))
        return EXIT_PASSED
    for item in stats:
        for line in _lines(item, lang):
            print(line)
    if strays:
        params = {"count": len(strays), "ids": ", ".join(strays)}
        print(render_message("stats.stray", params, lang))
    return EXIT_PASSED


def _lines(item: ExerciseStats, lang: str) -> list[str]:
    """One exercise: its pass share with the denominator, what was not really attempted,
    then each check and mutant the class failed (a mutant over the probes evaluated)."""
    title = render_message(f"exercise.{item.exercise}.title", {}, lang)
    if item.kind == "prose":
        params = {"passed": item.passed, "decided": item.decided, "waiting": item.waiting}
        head = render_message("stats.prose_decided", params, lang)
    else:
        passed = render_message("stats.passed", {}, lang)
        head = f"{passed} {item.passed}/{item.handed_in} ({item.passed_share:.0%})"
    lines = [f"{item.exercise} {title}: {head}"]
    if item.scored:
        scores: dict[str, ParamValue] = {
            "mean": f"{item.mean_final:g}",
            "max_score": f"{item.max_score:g}",
            "graded": item.scored,
        }
        lines.append("  " + render_message("stats.final_scores", scores, lang))
    apart = [
        render_message(message_id, {"count": count}, lang)
        for message_id, count in (
            ("stats.not_started", item.not_started),
            ("stats.too_short", item.too_short),
        )
        if count
    ]
    if apart:
        lines.append("  " + "; ".join(apart))
    for check in item.checks:
        if not check.failed:
            continue
        share = round(check.share * 100)
        if check.category == "mutant":
            counts: dict[str, ParamValue] = {
                "mutant": Message(f"mutant.{check.subject}"),
                "share": share,
                "survived": check.failed,
                "evaluated": check.total,
                "handed": check.seen,
            }
            line = render_message("stats.mutant_evaluated", counts, lang) + f" [{check.subject}]"
        else:
            name = _title(item.exercise, check.category, check.subject)
            line = render_message("stats.check_failed", {"check": name, "share": share}, lang)
        lines.append(f"  {line}")
    return lines


def _title(exercise: str, category: str, subject: str | None) -> Message:
    """A check's title as ``grader check`` shows it (a concept by its described name)."""
    if category == "concept" and subject:
        return Message("check.concept", {"arg": Message(f"concept.{exercise}.{subject}")})
    return Message(f"check.{category}")
