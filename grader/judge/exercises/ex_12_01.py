"""EX-12-01 [code]: the same event delivered twice takes effect once."""

from __future__ import annotations

from grader.judge.exercises.spec import CodeExercise, Records, Requirement, calls_of
from grader.judge.results import Message, msg


def check_calls(records: Records) -> Message | None:
    """One envelope delivered twice to one database, answered True then False by the real
    code. The database is told by the real code itself: it answers False only to an event
    its database already applied. So a probe with a fresh database per test (one test
    delivers once, the next twice: [True, True, False] for one event id) delivered twice
    to one database, and one whose two deliveries went to two databases ([True, True]) did
    not."""
    calls = calls_of(records, "apply_notification_once")
    if len(calls) < 2:
        return msg("calls.apply.too_few", count=len(calls), needed=2)
    results: dict[object, list[object]] = {}
    for call in calls:
        outcome = "raised" if "raised" in call else call.get("result")
        results.setdefault(call.get("event_id"), []).append(outcome)
    repeated = [seen for seen in results.values() if len(seen) >= 2]
    if not repeated:
        return msg("calls.apply.distinct_events", count=len(results))
    if not any(_applied_then_refused(seen) for seen in repeated):
        return msg("calls.apply.results", results=str(repeated[0][:4]))
    return None


def _applied_then_refused(outcomes: list[object]) -> bool:
    """A delivery answered False after one answered True (identity: 1 is not True)."""
    first_true = next((i for i, outcome in enumerate(outcomes) if outcome is True), None)
    return first_true is not None and any(o is False for o in outcomes[first_true + 1 :])


#: The statement, step by step. Facts: ``first.returned``, ``second.returned`` (steps 3-4),
#: ``second.receipts``, ``second.tasks`` (step 5: the counts after both deliveries) are
#: required; ``first.receipts``/``first.tasks`` (counts between the deliveries) are not, but
#: are observed, so a probe that counts at the wrong time is still told apart.
REQUIRED_FACTS = frozenset({"first.returned", "second.returned", "second.receipts", "second.tasks"})
REQUIREMENTS = (
    Requirement(
        "step 4: the first delivery returns True (is True, not just truthy)",
        frozenset({"first.returned"}),
        "returns_event_id",
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
        "returns_event_id",
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
