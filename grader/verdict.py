"""Pure judgement: (exercise, observations) -> checks. No processes, no files, no clock.

A probe passes only when the real run passes (exit 0, the required stdout lines, the
required calls observed) AND every mutant run fails. Records are claims made from inside
the student's process: they can make a failure message precise and can be *required*,
but a pass never rests on them alone — the mutant runs' exit status, observed by the
host, is what proves the probe checks something.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from grader.exercises.spec import CodeExercise
from grader.results import CheckResult, Message, failed_check, msg, passed_check

if TYPE_CHECKING:
    from grader.runner import Observations

EVIDENCE_LINES = 30
EVIDENCE_CHARS = 4000


def judge_code(
    exercise: CodeExercise,
    real: Observations,
    mutants: Mapping[str, Observations | None],
    *,
    student_file: str,
) -> tuple[CheckResult, ...]:
    checks = [run_check(exercise, real, student_file)]
    if exercise.expected_lines:
        checks.append(output_check(exercise, real))
    checks.append(calls_check(exercise, real))
    for name in exercise.mutants:
        checks.append(mutant_check(exercise, name, real, mutants.get(name)))
    return tuple(checks)


def run_check(exercise: CodeExercise, real: Observations, student_file: str) -> CheckResult:
    name, points = "runs_cleanly", exercise.points_run
    if real.ok:
        return passed_check(name, points, msg("run.ok"))
    if real.timed_out:
        seconds = round(real.wall_seconds)
        return failed_check(
            name, points, msg("run.timeout", seconds=seconds), None, tail(real.stdout)
        )
    if real.limit_hit:
        return failed_check(
            name, points, msg("run.limit", limit=real.limit_hit), None, tail(real.stderr)
        )
    if real.signal is not None:
        return failed_check(
            name, points, msg("run.signal", signal=real.signal), None, tail(real.stderr)
        )
    uncaught = real.uncaught
    if uncaught:
        kind = str(uncaught.get("type", "Exception"))
        message = msg(
            "run.uncaught",
            type=kind,
            message=first_line(str(uncaught.get("message", ""))),
            line=_line(uncaught.get("line")),
        )
        evidence = tail(str(uncaught.get("traceback") or "")) or tail(real.stderr)
        return failed_check(name, points, message, crash_hint(kind, student_file), evidence)
    return failed_check(
        name,
        points,
        msg("run.exit_code", code=real.exit_code),
        msg("hint.exit_code"),
        tail(real.stderr),
    )


def crash_hint(exception_type: str, student_file: str) -> Message:
    if exception_type == "AssertionError":
        return msg("hint.assertion_on_real")
    if exception_type == "NotImplementedError":
        return msg("hint.not_implemented")
    if exception_type in ("ImportError", "ModuleNotFoundError", "NameError", "AttributeError"):
        return msg("hint.import_error")
    return msg("hint.crash", file=student_file)


def output_check(exercise: CodeExercise, real: Observations) -> CheckResult:
    """The required lines must appear in stdout, in order (whitespace-normalised)."""
    name, points = "output", exercise.points_output
    printed = [" ".join(line.split()) for line in real.stdout.splitlines()]
    position = 0
    for index, expected in enumerate(exercise.expected_lines, start=1):
        wanted = " ".join(expected.split())
        try:
            position = printed.index(wanted, position) + 1
        except ValueError:
            message = msg("output.missing", index=index, expected=expected)
            return failed_check(name, points, message, msg("hint.output"), head(real.stdout))
    return passed_check(name, points, msg("output.ok", count=len(exercise.expected_lines)))


def calls_check(exercise: CodeExercise, real: Observations) -> CheckResult:
    name, points = "calls", exercise.points_calls
    try:
        problem = exercise.check_calls(real.records)
    except Exception:  # records are untrusted claims: whatever they hold, never a crash
        problem = msg("calls.unreadable")
    if problem is None:
        return passed_check(name, points, msg("calls.ok"))
    return failed_check(name, points, problem)


def mutant_check(
    exercise: CodeExercise, mutant: str, real: Observations, run: Observations | None
) -> CheckResult:
    name, points = f"mutant:{mutant}", exercise.points_per_mutant
    described = Message(f"mutant.{mutant}")
    label = msg("check.mutant", arg=described)
    if not real.ok or run is None:
        return failed_check(name, points, msg("mutant.skipped"), label=label)
    if not run.ok:  # the probe failed: it told the wrong implementation apart
        return passed_check(name, points, msg("mutant.killed", mutant=described), label=label)
    return failed_check(
        name,
        points,
        msg("mutant.survived", mutant=described),
        Message(f"mutant.{mutant}.hint"),
        head(run.stdout) or None,
        label=label,
    )


def first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def head(text: str, lines: int = EVIDENCE_LINES) -> str:
    """The first ``lines`` lines (each cut at 200 characters), at most EVIDENCE_CHARS."""
    kept = [_cut(line) for line in text[: EVIDENCE_CHARS * 4].splitlines()]
    more = len(kept) - lines
    shown = "\n".join(kept[:lines] + ([f"[… {more} more lines]"] if more > 0 else []))
    return shown[:EVIDENCE_CHARS]


def tail(text: str, lines: int = EVIDENCE_LINES) -> str:
    """The last ``lines`` lines (each cut at 200 characters), at most EVIDENCE_CHARS."""
    kept = [_cut(line) for line in text[-EVIDENCE_CHARS * 4 :].splitlines()]
    more = len(kept) - lines
    shown = "\n".join(([f"[… {more} earlier lines]"] if more > 0 else []) + kept[-lines:])
    return shown[-EVIDENCE_CHARS:]


def _cut(line: str, limit: int = 200) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _line(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
