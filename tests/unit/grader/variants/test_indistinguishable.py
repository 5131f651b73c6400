"""No correct implementation leaves a fingerprint (issue 19).

Every implementation of a target runs through the oracle on a battery of inputs (the
oracle fidelity stories on SQLite and PostgreSQL, the reference probes, the correct probes
of the e2e corpus). For every correct implementation C (the real function and each twin)
of an exercise, some mutant that exercise runs must look exactly like C to everything a
probe can observe that is not a result (operations on the probe's objects, SQL, engine
errors, timing class: ``observe.py``) on every input, up to the first call where its
defect shows in behaviour (an answer, or the rows after the call), and its defect must show
on some input. So a probe that tells runs apart by anything but behaviour cannot pass C
and fail that mutant.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.judge.exercises import get_exercise
from grader.judge.exercises.spec import CodeExercise
from grader.proxy.oracle.session import Oracle
from grader.variants import effects as effect_variants
from grader.variants import policy as policy_variants
from tests.support.oracle import proxied
from tests.support.services import postgres_unreachable, temporary_postgres_database
from tests.unit.grader.proxy.oracle.stories import STORIES
from tests.unit.grader.variants.observe import (
    Call,
    RecordingConversation,
    Source,
    observed,
    probe,
    same_except_at_the_defect,
    story,
)
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError

REPO = Path(__file__).resolve().parents[4]
EFFECTS_EXERCISES = ("EX-12-01", "EX-13-01")

# the battery and the observations (``_seen``) are built once per run, on one worker
pytestmark = pytest.mark.xdist_group("test_indistinguishable")


def _probe_files() -> list[Path]:
    """The reference probes and the e2e corpus's correct .py probes of both exercises (not
    the ones that start pytest inside this one: ``pytest.main`` cannot nest)."""
    found = []
    for exercise in EFFECTS_EXERCISES:
        spec = get_exercise(exercise)
        assert isinstance(spec, CodeExercise)
        found.append(REPO / "solutions" / exercise / spec.student_file)
        corpus = REPO / "tests" / "e2e" / "files" / "corpus" / exercise / "correct"
        for path in sorted(corpus.glob("*.py")):
            if "pytest.main" not in path.read_text():
                found.append(path)
    return found


def _sources(postgres: str, workdir: Path) -> dict[str, Source]:
    sources = {f"story {name} (sqlite)": story(name, "sqlite://") for name in STORIES}
    sources |= {f"story {name} (postgresql)": story(name, postgres) for name in STORIES}
    for path in _probe_files():
        sources[f"probe {path.relative_to(REPO)}"] = probe(path, workdir)
    return sources


@pytest.fixture(scope="module")
def battery(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Source]]:
    """One PostgreSQL database for the module (each story empties it first)."""
    reason = postgres_unreachable()
    if reason:
        pytest.skip(reason)  # PostgreSQL unreachable: the reason names it
    with temporary_postgres_database() as url:
        yield _sources(url, tmp_path_factory.mktemp("indistinguishable"))


@functools.cache
def _seen(name: str, source_name: str, source: Source) -> tuple[Call, ...]:
    return tuple(observed(name, source))


def _style_mates(
    correct: str, mutants: tuple[str, ...], battery: dict[str, Source]
) -> dict[str, str]:
    """For each mutant: why it is not a style-mate of ``correct`` ("" when it is)."""
    verdicts = {}
    for mutant in mutants:
        reason, shown = "", False
        for source_name, source in battery.items():
            same, differs, where = same_except_at_the_defect(
                list(_seen(correct, source_name, source)), list(_seen(mutant, source_name, source))
            )
            if not same:
                reason = f"{source_name}: {where}"
                break
            shown = shown or differs
        verdicts[mutant] = reason or ("" if shown else "its defect never shows in the battery")
    return verdicts


@pytest.mark.parametrize("exercise", EFFECTS_EXERCISES)
@pytest.mark.parametrize("correct", ["real", "savepoint_effect", "orm_effect"])
def test_every_correct_implementation_has_a_mutant_that_looks_the_same(
    exercise: str, correct: str, battery: dict[str, Source]
) -> None:
    spec = get_exercise(exercise)
    assert isinstance(spec, CodeExercise) and correct in ("real", *spec.twins)
    verdicts = _style_mates(correct, spec.mutants, battery)
    mates = [mutant for mutant, reason in verdicts.items() if not reason]
    assert mates, f"{exercise}: nothing looks like {correct}: " + "; ".join(
        f"{mutant}: {reason}" for mutant, reason in verdicts.items()
    )


def test_the_battery_tells_the_correct_implementations_apart(battery: dict[str, Source]) -> None:
    """The battery is not vacuous: the real code and the twins are told apart by it (they
    are written differently), so equal records above mean something."""
    first = next(iter(battery))
    records = {
        name: [call.record for call in _seen(name, first, battery[first])]
        for name in ("real", "savepoint_effect", "orm_effect")
    }
    assert len({repr(r) for r in records.values()}) == 3, records
    assert all(records.values())
    silent = [name for name, source in battery.items() if not _seen("real", name, source)]
    assert not silent, f"inputs that never call the function: {silent}"


@pytest.mark.parametrize("name", (*effect_variants.TWINS, *effect_variants.MUTANTS))
def test_every_stand_in_opens_with_the_real_functions_preamble(
    name: str, battery: dict[str, Source]
) -> None:
    """The rule of ``grader/variants/__init__.py``: the session's connection, then its dialect
    read, exactly as the real function starts (no stand-in's defect is that preamble)."""
    source = "story twice (sqlite)"
    real = _seen("real", source, battery[source])[0].record[0]
    end = next(i for i, op in enumerate(real) if op[0] == "getattr" and op[3] == "name")
    mine = _seen(name, source, battery[source])[0].record[0]
    assert mine[: end + 1] == real[: end + 1]


# -- EX-11-01: the policy target touches no object of the probe ---------------------------
ERRORS = (RetryableTaskError("t"), ValueError("v"))
COUNTS = (*range(-1, 5), True, 70, 2.0)


def _policy_record(name: str) -> list[tuple[object, ...]]:
    """Per call: the operations the implementation performed on the probe's objects (none
    may exist: the proxy reads the call's facts itself, the same in every run)."""
    from grader.proxy.child.policy import asking
    from ticketflow.workers.policy import RetryDecision

    ops: list[object] = []
    oracle = Oracle("policy", name)
    record = []
    try:
        decide = asking(
            RecordingConversation(oracle.student_fd, ops), RetryableTaskError, RetryDecision
        )
        for bound, error, n in itertools.product((0, 2), ERRORS, COUNTS):
            before = len(ops)
            policy = BoundedRetryPolicy(max_retries=bound, base_delay_seconds=5)
            with contextlib.suppress(Exception):  # a refused count is an answer too
                decide(policy, error, retries_so_far=n)
            record.append(tuple(ops[before:]))
    finally:
        outcome = oracle.close()
    assert outcome.broken is None and outcome.bug is None, outcome
    return record


def test_no_policy_implementation_touches_the_probes_objects() -> None:
    """EX-11-01: every implementation (real, twins, mutants) performs no operation at all on
    the probe's objects, so everything a probe sees of a run besides the answer is the
    proxy's own code, the same in every run: every mutant looks like every correct one."""
    names = ("real", *policy_variants.TWINS, *policy_variants.MUTANTS)
    records = {name: _policy_record(name) for name in names}
    assert all(not any(call) for call in records["real"]), records["real"]
    for correct in ("real", *policy_variants.TWINS):
        assert all(records[m] == records[correct] for m in policy_variants.MUTANTS), correct
    with proxied("policy", "real") as decide:  # and the proxy does answer through the oracle
        answer = decide(
            BoundedRetryPolicy(max_retries=2, base_delay_seconds=5), ERRORS[0], retries_so_far=1
        )
    assert answer.countdown_seconds == 10
