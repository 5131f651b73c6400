"""What an exercise is: a code probe judged by behaviour, or a prose answer judged by a rubric.

Specs are plain data (plus one pure function per code exercise that reads the recorded
calls). Their texts (titles, mutant descriptions, hints, concept summaries) are catalogue
ids derived from the names here, registered by ``grader.judge.texts`` from the files
beside each exercise and stand-in and from the answer keys.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from grader.judge.results import Message
from grader.variants.targets import TICKETFLOW_LIGHT, Target, get_target

Records = Sequence[Mapping[str, Any]]
CallsCheck = Callable[[Records], Message | None]

#: Modules every probe's fork server imports up front (the proxy's child side itself).
HARNESS_MODULES = (
    "grader.proxy.child.prelude",
    "grader.proxy.child.describe",
    "grader.proxy.child.disguise",
    "grader.proxy.wire",
    "grader.proxy.child.conversation",
)


@dataclass(frozen=True)
class Requirement:
    """One assertion the statement requires, and the mutant that only it catches.

    ``facts`` names the observable values the assertion covers (``<step>.<value>``, e.g.
    ``"R1.countdown"``; each exercise documents its steps). The enforcing ``mutant`` differs
    from the real code in at least one of these facts and in no other fact the statement
    requires, so a probe that leaves this assertion out lets it through.
    ``tests/unit/grader/judge/exercises/test_requirements.py`` checks that by running it.
    """

    assertion: str
    facts: frozenset[str]
    mutant: str


@dataclass(frozen=True)
class CodeExercise:
    """A probe: passes when it runs cleanly on the real code and on every twin, shows the
    required behaviour, and fails on every mutant.

    ``target`` names the function under test, declared in ``grader/variants/targets.py`` (its module,
    stand-ins file, preload and recording wrapper); ``twins`` (behaviour-equivalent rewrites
    of the real function) and ``mutants`` (known-wrong ones) are functions of the target's
    stand-ins file; ``preload``: extra modules this exercise's probe needs beyond the
    target's; ``expected_lines`` the stdout lines the statement requires, in order (empty:
    printing is not graded).
    """

    id: str
    student_file: str
    target: str
    twins: tuple[str, ...]
    mutants: tuple[str, ...]
    check_calls: CallsCheck
    preload: tuple[str, ...] = ()
    #: The statement's required assertions, line by line, each with its enforcing mutant.
    requirements: tuple[Requirement, ...] = ()
    expected_lines: tuple[str, ...] = ()
    points_run: float = 1.0
    points_output: float = 2.0
    points_calls: float = 1.0
    points_per_mutant: float = 1.0
    kind: Literal["code"] = "code"

    @property
    def title(self) -> Message:
        return Message(f"exercise.{self.id}.title")

    @property
    def max_score(self) -> float:
        output = self.points_output if self.expected_lines else 0.0
        mutants = self.points_per_mutant * len(self.mutants)
        return self.points_run + output + self.points_calls + mutants

    @property
    def function_under_test(self) -> Target:
        return get_target(self.target)

    @property
    def all_preload(self) -> tuple[str, ...]:
        target = self.function_under_test
        instrument = target.instrument.partition(":")[0] or "grader.proxy.child.generic"
        modules = (*TICKETFLOW_LIGHT, target.module, *target.preload, *self.preload)
        warm_ups = [m for m in modules if ":" in m]  # called in the host: last, in order
        plain = [m for m in modules if ":" not in m]
        return (*dict.fromkeys([*plain, *HARNESS_MODULES, instrument]), *dict.fromkeys(warm_ups))

    @property
    def importable_ticketflow(self) -> tuple[str, ...]:
        """The ticketflow modules a probe can import inside the sandbox."""
        return tuple(m for m in dict.fromkeys(self.all_preload) if m.startswith("ticketflow"))

    @property
    def recorded_function(self) -> str:
        return self.function_under_test.recorded_function

    @property
    def question_keys(self) -> tuple[str, ...]:
        return self.function_under_test.question_keys


@dataclass(frozen=True)
class Concept:
    """One idea a prose answer must contain (scored by ``grader.judge.rubric``).

    ``alternatives``: the concept is present when, for at least one alternative, every
    term (a regular expression with bounded repetitions only, case-insensitive, ASCII
    ``\\b``) matches, not negated, in one sentence that is not keyword stuffing. Write zh,
    en and mixed alternatives side by side. ``sections``: the template sections (names of
    ``ProseExercise.sections``) where it is looked for; empty: anywhere.
    """

    name: str
    alternatives: tuple[tuple[str, ...], ...]
    points: float = 1.0
    sections: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A section of the answer template: ``heading`` (a bounded regular expression) tells a
    heading of the answer that opens it, in the template's words or the student's."""

    name: str
    heading: str


@dataclass(frozen=True)
class ProseExercise:
    """A prose answer. Its spec module gives the id, file and length; ``sections`` and
    ``concepts`` come from its answer key (``grader.judge.exercises.answer_key``) and are
    empty where there is none (the student copy): the answer then waits for the instructor."""

    id: str
    student_file: str
    concepts: tuple[Concept, ...] = ()
    sections: tuple[Section, ...] = ()
    #: Fewer non-blank characters than this (after removing the template) is "too short".
    min_chars: int = 60
    kind: Literal["prose"] = "prose"
    #: The exercise's points where the rubric is withheld (the student copy has no
    #: concepts): so students still learn what the answer is worth.
    points: float | None = None

    @property
    def title(self) -> Message:
        return Message(f"exercise.{self.id}.title")

    @property
    def max_score(self) -> float:
        if self.points is not None and not self.concepts:
            return self.points
        return sum(concept.points for concept in self.concepts)


Exercise = CodeExercise | ProseExercise


Scalar = str | int | float | bool | None
#: Longest string kept from a record; longer ones are cut (records are untrusted claims).
MAX_TEXT = 200
MAX_ITEMS = 8


def scalar(value: object) -> Scalar | tuple[Scalar, ...]:
    """A record value as something safe to hash, compare and show.

    Exact JSON scalars stay (strings cut to ``MAX_TEXT``); a short list of scalars becomes
    a tuple; anything else (a dict, a long or nested list, NaN, a huge number) becomes a
    short ``repr`` string. Never raises.
    """
    if value is None or value is True or value is False:
        return value
    if isinstance(value, int) and type(value) is int:
        return value if -(2**63) < value < 2**63 else _short(value)
    if isinstance(value, float) and type(value) is float:
        return value if math.isfinite(value) else _short(value)
    if isinstance(value, str) and type(value) is str:
        return value[:MAX_TEXT]
    if isinstance(value, list | tuple) and type(value) in (list, tuple) and len(value) <= MAX_ITEMS:
        items = [scalar(item) for item in value]
        return tuple(_short(item) if isinstance(item, tuple) else item for item in items)
    return _short(value)


def _short(value: object) -> str:
    import reprlib

    shorter = reprlib.Repr()
    shorter.maxlevel, shorter.maxstring, shorter.maxother = 2, 40, 40
    try:
        return shorter.repr(value)[:80]
    except Exception:
        return "<unprintable>"


def clean_record(record: object) -> dict[str, Scalar | tuple[Scalar, ...]]:
    """Only string keys, every value through ``scalar``; a non-dict record is empty."""
    if not isinstance(record, Mapping):
        return {}
    return {key[:MAX_TEXT]: scalar(value) for key, value in record.items() if type(key) is str}


def calls_of(records: Records, function: str) -> list[dict[str, Scalar | tuple[Scalar, ...]]]:
    """The proxy's ``call`` records for ``function``, in order, cleaned (see ``scalar``)."""
    cleaned = (clean_record(record) for record in records)
    return [r for r in cleaned if r.get("kind") == "call" and r.get("function") == function]


def is_int(value: object, expected: int | None = None) -> bool:
    """An exact ``int`` (not a bool, not a subclass), equal to ``expected`` if given."""
    return type(value) is int and (expected is None or value == expected)
