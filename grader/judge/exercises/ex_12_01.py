"""EX-12-01 [code]: the same event delivered twice takes effect once."""

from __future__ import annotations

from grader.judge.exercises.spec import CodeExercise, Records, Requirement, calls_of
from grader.judge.results import Message, msg


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


#: The statement, step by step. Facts: ``first.returned``, ``second.returned`` (steps 3-4),
#: ``second.receipts``, ``second.tasks`` (step 5: the counts after both deliveries) are
#: required; ``first.receipts``/``first.tasks`` (counts between the deliveries) are not, but
#: are observed, so a probe that counts at the wrong time is still told apart.
REQUIRED_FACTS = frozenset({"first.returned", "second.returned", "second.receipts", "second.tasks"})
REQUIREMENTS = (
    Requirement(
        "step 4: the first delivery returns True (is True, not just truthy)",
        frozenset({"first.returned"}),
        "returns_none",
    ),
    Requirement(
        "step 4: the second delivery returns False (is False)",
        frozenset({"second.returned"}),
        "always_true",
    ),
    Requirement(
        "step 5: exactly 1 business task after BOTH deliveries (not only after the first)",
        frozenset({"second.tasks"}),
        "effect_on_every_delivery",
    ),
    Requirement(
        "step 5: exactly 1 NotificationReceipt",
        frozenset({"second.receipts"}),
        "dedupe_without_receipt",
    ),
)

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
        "effect_on_every_delivery",
        "savepoint_always_true",
        "orm_effect_on_every_delivery",
    ),
    check_calls=check_calls,
    requirements=REQUIREMENTS,
)
