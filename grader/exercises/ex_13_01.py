"""EX-13-01 [code]: a failure between receipt and effect leaves neither behind."""

from __future__ import annotations

from grader.exercises.ex_12_01 import EFFECTS_PRELOAD
from grader.exercises.spec import CodeExercise, Records, calls_of
from grader.results import Message, msg


def check_calls(records: Records) -> Message | None:
    """For one event: a delivery that raised, then one answered True, then one answered False."""
    calls = calls_of(records, "apply_notification_once")
    if not calls:
        return msg("calls.apply.too_few", count=0, needed=3)
    by_event: dict[object, list[object]] = {}
    for call in calls:
        outcome = "raised" if "raised" in call else call.get("result")
        by_event.setdefault(call.get("event_id"), []).append(outcome)
    failing = [outcomes for outcomes in by_event.values() if "raised" in outcomes]
    if not failing:
        return msg("calls.atomic.no_failure")
    outcomes = failing[0]
    after = outcomes[outcomes.index("raised") + 1 :]
    if True not in after:
        return msg("calls.atomic.no_redelivery")
    if False not in after[after.index(True) + 1 :]:
        return msg("calls.atomic.no_duplicate")
    return None

EXERCISE = CodeExercise(
    id="EX-13-01",
    student_file="atomic_effect_probe.py",
    target="effects",
    preload=EFFECTS_PRELOAD,
    mutants=(
        "receipt_committed_first",
        "effect_committed_first",
        "effect_error_swallowed",
        "always_true",
    ),
    check_calls=check_calls,
)
