"""EX-13-01 [code]: a failure between receipt and effect leaves neither behind."""

from __future__ import annotations

from grader.judge.exercises.spec import CodeExercise, Records, Requirement, calls_of
from grader.judge.results import Message, msg

#: Stands for "this delivery raised" (no record value can be this very object).
RAISED = object()


def check_calls(records: Records) -> Message | None:
    """For one event: a delivery that raised, then one answered True, then one answered False."""
    calls = calls_of(records, "apply_notification_once")
    if not calls:
        return msg("calls.apply.too_few", count=0, needed=3)
    by_event: dict[object, list[object]] = {}
    for call in calls:
        outcome = RAISED if "raised" in call else call.get("result")
        by_event.setdefault(call.get("event_id"), []).append(outcome)
    failing = [outcomes for outcomes in by_event.values() if RAISED in outcomes]
    if not failing:
        return msg("calls.atomic.no_failure")
    outcomes = failing[0]
    after = outcomes[outcomes.index(RAISED) + 1 :]
    applied = _first(after, True)
    if applied is None:
        return msg("calls.atomic.no_redelivery")
    if _first(after[applied + 1 :], False) is None:
        return msg("calls.atomic.no_duplicate")
    return None


def _first(outcomes: list[object], wanted: bool) -> int | None:
    """Index of the first outcome that IS ``wanted`` (identity: 1 is not True)."""
    return next((i for i, outcome in enumerate(outcomes) if outcome is wanted), None)


#: The statement, step by step. Facts: ``failure.raised`` (the injected exception came out
#: of apply_notification_once), ``failure.receipts``/``failure.tasks`` (counts after it),
#: then ``redelivery.*`` and ``duplicate.*`` (returned, receipts, tasks). All are required.
REQUIREMENTS = (
    Requirement(
        "step 3: apply_notification_once RAISES the injected exception (it is not swallowed)",
        frozenset({"failure.raised"}),
        "effect_error_rolled_back",
    ),
    Requirement(
        "step 3: after the failure, 0 receipts and 0 business tasks",
        frozenset({"failure.receipts", "failure.tasks"}),
        "receipt_first_then_repair",
    ),
    Requirement(
        "step 4: the redelivery returns True (is True)",
        frozenset({"redelivery.returned"}),
        "returns_none",
    ),
    Requirement(
        "steps 4-5: 1 receipt and 1 business task after the redelivery and after the duplicate",
        frozenset(
            {"redelivery.receipts", "redelivery.tasks", "duplicate.receipts", "duplicate.tasks"}
        ),
        "effect_committed_first",
    ),
    Requirement(
        "step 5: the duplicate delivery returns False (is False)",
        frozenset({"duplicate.returned"}),
        "always_true",
    ),
)

EXERCISE = CodeExercise(
    id="EX-13-01",
    student_file="atomic_effect_probe.py",
    target="effects",
    twins=("savepoint_effect", "orm_effect"),
    mutants=(
        "receipt_committed_first",
        "effect_committed_first",
        "effect_error_swallowed",
        "always_true",
        "returns_none",
        "effect_error_rolled_back",
        "receipt_first_then_repair",
        "savepoint_error_swallowed",
        "orm_error_swallowed",
    ),
    check_calls=check_calls,
    requirements=REQUIREMENTS,
)
