"""EX-12-01 [code]: the same event delivered twice takes effect once."""

from __future__ import annotations

from grader.exercises.spec import CodeExercise, Records, calls_of
from grader.results import Message, msg


def check_calls(records: Records) -> Message | None:
    """Two deliveries of one envelope, answered True then False by the real code."""
    calls = calls_of(records, "apply_notification_once")
    if len(calls) < 2:
        return msg("calls.apply.too_few", count=len(calls), needed=2)
    results: dict[object, list[object]] = {}
    for call in calls:
        outcome = "raised" if "raised" in call else call.get("result")
        results.setdefault(call.get("event_id"), []).append(outcome)
    if all(len(seen) < 2 for seen in results.values()):
        return msg("calls.apply.distinct_events", count=len(results))
    if not any(_true_then_false(seen) for seen in results.values()):
        return msg("calls.apply.results", results=str(next(iter(results.values()))[:4]))
    return None


def _true_then_false(outcomes: list[object]) -> bool:
    return len(outcomes) >= 2 and outcomes[0] is True and outcomes[1] is False


EXERCISE = CodeExercise(
    id="EX-12-01",
    student_file="notification_once_probe.py",
    target="effects",
    twins=("savepoint_effect", "orm_effect"),
    mutants=(
        "no_dedupe",
        "always_true",
        "returns_none",
        "receipt_without_task",
        "task_twice",
        "dedupe_without_receipt",
    ),
    check_calls=check_calls,
)
