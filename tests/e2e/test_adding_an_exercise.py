"""The "Adding an exercise" steps work, and the verdict cache follows every file they touch."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.app.fingerprint import verdict_files, verdict_fingerprint
from grader.app.listing import list_exercises
from grader.app.service import GradingService, GradingSettings
from grader.judge.exercises import exercise_ids, get_exercise
from tests.e2e.throwaway import EXERCISE_ID, FILES, Throwaway, throwaway

pytestmark = pytest.mark.e2e
__all__ = ["throwaway"]  # the fixture


def _service(root: Path) -> GradingService:
    return GradingService(GradingSettings.from_env(root=root, lang="en"))


def test_a_new_exercise_is_discovered_and_grades_a_good_and_a_bad_probe(
    throwaway: Throwaway,
) -> None:
    assert EXERCISE_ID in exercise_ids()
    with _service(throwaway.root) as service:
        good = service.check(EXERCISE_ID, throwaway.hand_in("good_probe.py")).report
        bad = service.check(EXERCISE_ID, throwaway.hand_in("bad_probe.py")).report
    assert (good.status, good.score, good.max_score) == ("passed", 3.0, 3.0), good
    assert bad.status == "failed"
    failed = {c.name: c.message.id for c in bad.checks if not c.passed}
    assert failed == {"mutant:clamp_no_upper": "mutant.survived"}, bad


def test_the_fingerprint_covers_the_exercises_own_files(throwaway: Throwaway) -> None:
    exercise = get_exercise(EXERCISE_ID)
    files = verdict_files(exercise)
    assert throwaway.stand_ins in files
    assert any(p.name == "ex_99_01.py" for p in files)
    assert any(p.name == "throwaway_clamp.py" for p in files)


def test_a_stand_in_that_turns_correct_invalidates_the_cached_verdict(
    throwaway: Throwaway,
) -> None:
    """Make the mutant behave like the real code: the cached pass must not be served, and the
    reference probe now fails with "mutant survived" (no probe can kill a correct mutant)."""
    exercise = get_exercise(EXERCISE_ID)
    with _service(throwaway.root) as service:
        first = service.check(EXERCISE_ID, throwaway.hand_in("good_probe.py")).report
        assert first.status == "passed", first
        cached = {e.exercise: e.status for e in list_exercises(service, run_missing=False)}
        assert cached[EXERCISE_ID] == "passed"  # served from .grader/, nothing ran

        before = verdict_fingerprint(exercise)
        source = (FILES / "clamp_variants.py").read_text(encoding="utf-8")
        fixed = source.replace(
            "    if value < low:\n        return low\n    return value\n",
            "    if value < low:\n        return low\n    if value > high:\n"
            "        return high\n    return value\n",
        )
        assert fixed != source
        throwaway.stand_ins.write_text(fixed, encoding="utf-8")
        assert verdict_fingerprint(exercise) != before

        stale = {e.exercise: e.status for e in list_exercises(service, run_missing=False)}
        assert stale[EXERCISE_ID] == "unchecked"  # the old verdict is not served
        again = service.check(EXERCISE_ID, throwaway.probe).report
    assert again.status == "failed"
    failed = {c.name: c.message.id for c in again.checks if not c.passed}
    assert failed == {"mutant:clamp_no_upper": "mutant.survived"}, again
