"""EX-99-01 [code]: a throwaway exercise registered the documented way by a test."""

from __future__ import annotations

from grader.judge.exercises.spec import CodeExercise, Records, calls_of
from grader.judge.message import Message, msg


def check_calls(records: Records) -> Message | None:
    calls = calls_of(records, "clamp")
    return None if calls else msg("calls.apply.too_few", count=0, needed=1)


EXERCISE = CodeExercise(
    id="EX-99-01",
    student_file="clamp_probe.py",
    target="clamp",
    twins=("clamp_twin",),
    mutants=("clamp_no_upper",),
    check_calls=check_calls,
)
