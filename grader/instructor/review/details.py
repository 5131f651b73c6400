"""What the submission page lists about one result: the checks, each mutant killed or
survived, and each twin passed, failed or not evaluated (from the one ``equivalents``
check: twins are tried in the exercise's order and the first failure is named)."""

from __future__ import annotations

from dataclasses import dataclass

from grader.instructor.feedback import lateness_notes
from grader.instructor.gradebook import CheckView, ResultView
from grader.instructor.term.store import ReceiptView
from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.judge.results import Message

PASSED, FAILED, NOT_EVALUATED = "passed", "failed", "not_evaluated"


@dataclass(frozen=True)
class TwinRow:
    twin: str
    description: Message
    state: str


@dataclass(frozen=True)
class MutantRow:
    mutant: str
    description: Message
    killed: bool
    check: CheckView


def _spec_twins(exercise: str) -> tuple[str, ...]:
    try:
        spec = get_exercise(exercise)
    except Exception:  # an exercise this grader no longer knows: nothing to list
        return ()
    return spec.twins if isinstance(spec, CodeExercise) else ()


def twin_rows(result: ResultView) -> list[TwinRow]:
    check = next((c for c in result.checks if c.category == "equivalents"), None)
    twins = _spec_twins(result.exercise)
    if check is None or not twins:
        return []
    failed_twin = None
    if not check.passed and check.message.id == "twin.failed":
        named = check.message.params.get("twin")
        if isinstance(named, Message) and named.id.startswith("twin."):
            failed_twin = named.id.removeprefix("twin.")
    rows = []
    state = PASSED if check.passed or failed_twin else NOT_EVALUATED
    for twin in twins:
        if twin == failed_twin:
            rows.append(TwinRow(twin, Message(f"twin.{twin}"), FAILED))
            state = NOT_EVALUATED  # the twins after the first failure were not run
            continue
        rows.append(TwinRow(twin, Message(f"twin.{twin}"), state))
    return rows


def mutant_rows(result: ResultView) -> list[MutantRow]:
    return [
        MutantRow(c.subject, Message(f"mutant.{c.subject}"), c.passed, c)
        for c in result.checks
        if c.category == "mutant" and c.subject
    ]


def check_title(result: ResultView, check: CheckView) -> Message:
    """The check's own title; a mutant or concept check stored without one is named from
    the catalogue (never a bare "{arg}")."""
    if check.label is not None:
        return check.label
    if check.category == "mutant" and check.subject:
        return Message("check.mutant", {"arg": Message(f"mutant.{check.subject}")})
    if check.category == "concept" and check.subject:
        concept = Message(f"concept.{result.exercise}.{check.subject}")
        return Message("check.concept", {"arg": concept})
    return check.to_result().title


def concept_rows(result: ResultView) -> list[CheckView]:
    return [c for c in result.checks if c.category == "concept"]


FOUND, CONTRADICTED, MISSING = "found", "contradicted", "missing"
#: Rubric outcomes shown as "contradicted": the answer states the opposite, or denies it.
_CONTRADICTING = ("concept.contradicted", "concept.negated")


def concept_state(check: CheckView) -> str:
    """``found``, ``contradicted`` or ``missing`` (stuffed and not judged count as missing);
    the check's evidence is the sentence that decided it."""
    if check.passed:
        return FOUND
    return CONTRADICTED if check.message.id in _CONTRADICTING else MISSING


def concept_note(check: CheckView) -> Message | None:
    """The deciding sentence as the page shows it ("contradicts: ..." when it contradicts)."""
    if not check.evidence:
        return None
    if concept_state(check) == CONTRADICTED:
        return Message("concept.contradicts", {"sentence": check.evidence})
    return Message("concept.decided", {"sentence": check.evidence})


def term_notes(result: ResultView, receipt: ReceiptView | None) -> list[Message]:
    """What the term says of this hand-in, as ``grade`` and ``integrity`` say it: handed in
    late (and the penalty the exports apply), or a zip whose manifest names another student."""
    if receipt is None:
        return []
    key = (result.student, result.exercise, result.content_sha256)
    notes = lateness_notes([result], {key: receipt}).get(result.exercise, [])
    claimed = receipt.manifest_student
    if claimed and claimed != result.student:
        notes.append(Message("integrity.manifest", {"student": result.student, "claimed": claimed}))
    return notes
