"""Judging one graded case: its outcome, its time, and what it left behind.

Set HOSTILE_REPORT=/some/file.jsonl to get one line per graded case (for reports).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.hostile.corpus import Case, materialize
from tests.hostile.grading import GRADER_TRACEBACK, Graded, grade
from tests.hostile.residue import (
    Snapshot,
    clobbered_bytecode,
    dropped_files,
    leftover_processes,
    remove_drops,
)
from tests.support.waiting import lasting

if TYPE_CHECKING:
    from grader.runner import Limits

#: Seconds the grader may need on top of the sandbox's own wall limits (start-up, judging).
SLACK = 15.0


def budget(exercise: str, per_run: float | None = None) -> float:
    """An upper bound: the real run, then twins and mutants in parallel waves (the grader
    runs them all in one batch, so it needs at most this), one wall limit (or ``per_run``)
    per wave, plus slack."""
    from grader.errors import GraderError
    from grader.judge.exercises import get_exercise
    from grader.runner import Limits

    try:
        spec = get_exercise(exercise)
    except GraderError:
        return SLACK
    others = len(getattr(spec, "twins", ())) + len(getattr(spec, "mutants", ()))
    wave = Limits().wall_seconds if per_run is None else per_run
    return (1 + math.ceil(others / _parallelism())) * wave + SLACK


def time_limit(case: Case, limits: Limits | None = None) -> float:
    """A probe that hits the wall limit on the real code ends the check once the real run
    ends; but the real run is at a uniformly random place (issue 32), so every run before
    it may hit the limit too: the whole batch, one wall ceiling per wave (on a busy machine
    a CPU-bound run may take up to the ceiling: time waiting for a CPU is not charged).
    ``limits``: those the case was graded with (default: the grader's)."""
    from grader.runner import Limits

    limits = limits or Limits()
    return budget(
        case.exercise, per_run=limits.wall_ceiling if case.timeout else limits.wall_seconds
    )


def namespaces_available() -> bool:
    from grader.runner import sandbox

    return sandbox.namespaces_unavailable() is None


def _parallelism() -> int:
    from grader.app.settings import default_jobs

    return default_jobs()


def problems_with(
    case: Case, graded: Graded, limit: float, isolation: str | None = None
) -> list[str]:
    problems = []
    if graded.exit_code is None:
        return [f"the grader hung: killed after {graded.seconds:.1f} s"]
    payload = graded.payload
    if payload is None:
        problems.append(f"stdout is not one JSON document: {graded.stdout[:300]!r}")
    awaits_review_at_zero = (
        "needs_review" in case.expect
        and graded.status == "needs_review"
        and (payload or {}).get("score") == 0
    )
    if (graded.status == "passed" or graded.exit_code == 0) and not awaits_review_at_zero:
        score = (payload or {}).get("score")
        problems.append(f"PASSED (exit {graded.exit_code}, score {score}): the trick worked")
    elif graded.exit_code not in case.exit_codes:
        problems.append(f"exit {graded.exit_code}, expected {sorted(case.exit_codes)}")
    if graded.exit_code == 1 and graded.status != "failed":
        problems.append(f"exit 1 but status {graded.status!r}")
    if graded.exit_code == 2 and graded.status != "error":
        problems.append(f"exit 2 but status {graded.status!r}")
    if len(graded.message().strip()) < 10:
        problems.append("no clear message from the grader")
    if graded.controls():
        problems.append(f"terminal control characters in the report: {graded.controls()}")
    if GRADER_TRACEBACK in graded.grader_text():
        problems.append(f"a grader traceback: {graded.stderr[-600:]!r}")
    if isolation and graded.isolation not in (None, isolation):
        problems.append(f"graded in {graded.isolation!r} mode, not {isolation!r}")
    if graded.seconds > limit:
        problems.append(f"took {graded.seconds:.1f} s, over the {limit:.0f} s budget")
    return problems


def report_line(mode: str, case: Case, graded: Graded, extra: list[str]) -> None:
    target = os.environ.get("HOSTILE_REPORT")
    if not target:
        return
    line = {
        "mode": mode,
        "case": case.name,
        "exit": graded.exit_code,
        "status": graded.status,
        "seconds": round(graded.seconds, 2),
        "message": graded.message()[:240],
        "residue": extra,
    }
    with open(target, "a", encoding="utf-8") as f:
        f.write(json.dumps(line, ensure_ascii=False) + "\n")


def kill_after(case: Case, limits: Limits | None = None) -> float:
    """The check's own upper bound (its waves at their wall limits, ``time_limit``) plus
    30 s: a grader slower than that has hung, whatever the load. A flat 30 s for the cases
    that should not hit the wall limit called ``memory_bomb.py`` hung at 30.0 s with two
    suites running (2026-12-03, 23:00), within what its limits allow."""
    return time_limit(case, limits) + 30


def grade_quietly(
    case: Case, where: Path, course_root: Path, isolation: str | None, lang: str = "en"
) -> Graded:
    path = materialize(case, where)
    return grade(
        case.exercise, path, course_root, timeout=kill_after(case), isolation=isolation, lang=lang
    )


def sweep(before: Snapshot, course_root: Path, shared: tuple[str, ...] = ()) -> list[str]:
    """Find (then clean up) whatever the graded runs left behind.

    ``shared``: folders the mode shares with the grader (the rlimits fallback's /tmp and
    /dev/shm, documented): drops there are removed at once and not reported.
    """
    residue = [f"left running: {p}" for p in leftover_processes()]
    changed = before.changed(course_root)
    residue += [f"changed: {p}" for p in before.suspicious(changed)]
    allowed = [p for p in dropped_files() if p.startswith(shared)]
    remove_drops(allowed)
    # a drop must last 30 s: a second suite's rlimits cases drop marker files in the shared
    # /tmp and /dev/shm and sweep them after their own grading (seen: cross_run_state.py's)
    drops = sorted(lasting(lambda: set(dropped_files()) - set(allowed), within=30.0))
    residue += [f"dropped: {p}" for p in drops] + [f"clobbered: {p}" for p in clobbered_bytecode()]
    before.restore(changed)
    remove_drops(drops)
    return residue


def verdict(
    case: Case,
    graded: Graded,
    residue: list[str],
    isolation: str | None,
    limits: Limits | None = None,
) -> None:
    """Residue always fails the test; a known hole that still works is an expected failure.
    ``limits``: those the case was graded with (default: the grader's)."""
    report_line(isolation or "auto", case, graded, residue)
    title = f"{case.name} ({case.trick})"
    assert not residue, f"{title} left residue:\n  " + "\n  ".join(residue)
    expected_mode = isolation or ("namespaces" if namespaces_available() else None)
    problems = problems_with(case, graded, time_limit(case, limits), expected_mode)
    hole = case.hole_in(isolation)
    if hole and problems:
        pytest.xfail(f"known hole {hole} (tests/hostile/FINDINGS.md): {problems[0]}")
    if hole and hole.endswith("flaky"):
        return  # a trick that works only sometimes: failing this time proves nothing
    assert not hole, (
        f"{title}: known hole {hole} is fixed: delete its '# known-hole' line in "
        f"tests/hostile/files/{case.name}"
    )
    assert not problems, f"{title}:\n  " + "\n  ".join(problems)
