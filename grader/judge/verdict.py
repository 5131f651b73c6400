"""Pure judgement: (exercise, observations) -> checks. No processes, no files, no clock.

A probe passes only because of behaviour: it must pass (exit 0, the required stdout lines,
the required calls observed) on the real implementation AND on every twin (the same
behaviour, written differently), and fail on every mutant. The exit statuses come from the
host and are truthful; records are claims made from inside the student's process: they can
make a failure message precise and can be *required*, but a pass never rests on them.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from grader.judge.advice import source_hint
from grader.judge.exercises.spec import CodeExercise, calls_of
from grader.judge.results import CheckResult, Message, failed_check, msg, passed_check
from grader.judge.whereabouts import (
    Locate,
    relocate_traceback,
    stopped_message,
    uncaught_message,
    where,
)

if TYPE_CHECKING:
    from grader.runner import Observations

EVIDENCE_LINES = 30
EVIDENCE_CHARS = 4000


@dataclass(frozen=True)
class Observed:
    """Every run of one check (``None``: not run, e.g. after the real run failed)."""

    real: Observations
    twins: Mapping[str, Observations | None] = field(default_factory=dict)
    mutants: Mapping[str, Observations | None] = field(default_factory=dict)
    #: The sandbox that ran them ("namespaces" or "rlimits").
    isolation: str | None = None


def judge_code(
    exercise: CodeExercise,
    observed: Observed,
    *,
    student_file: str,
    locate: Locate | None = None,
    source: str = "",
) -> tuple[CheckResult, ...]:
    """``locate``: for a notebook, maps a line of the run's module to (cell, line in it);
    ``source``: the probe's text, read only to word the hint of a wrong implementation it
    let through (``advice``), never to decide a check."""
    real = observed.real
    advice = source_hint(source, locate) if source else None
    checks = [run_check(exercise, real, student_file, locate)]
    stopped = None if real.ok else not_judged(real, locate)
    if exercise.expected_lines:
        checks.append(output_check(exercise, real, stopped))
    checks.append(calls_check(exercise, real, stopped))
    equivalents = twins_check(exercise, observed, stopped, locate, student_file)
    checks.append(equivalents)
    for name in exercise.mutants:
        run = observed.mutants.get(name)
        checks.append(
            mutant_check(
                exercise,
                name,
                real,
                run,
                credible=equivalents.passed,
                stopped=stopped,
                advice=advice,
            )
        )
    return tuple(checks)


def not_judged(real: Observations, locate: Locate | None = None) -> Message:
    """What every later check says once the real run failed: where it stopped, never that
    something is "missing" or "bypassed" (the probe may simply not have got there)."""
    uncaught = real.uncaught
    line = _line(uncaught.get("line")) if uncaught else None
    if uncaught and line is not None:
        return stopped_message(str(uncaught.get("type", "Exception"))[:100], line, locate)
    return msg("followon.ended", outcome=outcome(real, locate))


def run_check(
    exercise: CodeExercise,
    real: Observations,
    student_file: str,
    locate: Locate | None = None,
) -> CheckResult:
    name, points = "runs_cleanly", exercise.points_run
    if real.ok:
        return passed_check(name, points, msg("run.ok"))
    if real.timed_out or real.limit_hit == "cpu":
        # a busy endless loop meets the CPU and the wall limit at about the same time; which
        # one fires first is a race, so the student reads the same advice for both
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
        text = first_line(str(uncaught.get("message", "")))
        message = uncaught_message("run", kind, text, _line(uncaught.get("line")), locate)
        traceback = str(uncaught.get("traceback") or "") or real.stderr
        evidence = tail(relocate_traceback(traceback, student_file, locate))
        hint = crash_hint(kind, student_file, where(_line(uncaught.get("line")), locate))
        missing = _missing_ticketflow_module(kind, str(uncaught.get("message", "")))
        if missing and not _installed_module(missing):  # a typo: name it, not the sandbox
            hint = msg("hint.no_such_module", module=missing)
        elif missing:
            modules = ", ".join(exercise.importable_ticketflow)
            hint = msg("hint.sandbox_module", module=missing, modules=modules)
        return failed_check(name, points, message, hint, evidence)
    return failed_check(
        name,
        points,
        msg("run.exit_code", code=real.exit_code),
        msg("hint.exit_code"),
        tail(real.stderr),
    )


def _missing_ticketflow_module(exception_type: str, message: str) -> str | None:
    """``No module named 'ticketflow.db'`` -> ``ticketflow.db`` (the sandbox hides the rest)."""
    if exception_type != "ModuleNotFoundError":
        return None
    match = re.search(r"No module named '(ticketflow(?:_lab)?(?:\.[\w.]+)?)'", message)
    return match.group(1) if match else None


def _installed_module(name: str) -> bool:
    """Whether the installed ticketflow has module ``name`` (found on disk, nothing
    imported): if not, the import is a typo, whatever the sandbox shows."""
    top, _, rest = name.partition(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.submodule_search_locations:
        return False
    parts = rest.split(".") if rest else []
    for folder in spec.submodule_search_locations:
        base = Path(folder).joinpath(*parts)
        if not parts or base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


def crash_hint(
    exception_type: str, student_file: str, cell: tuple[int, int] | None = None
) -> Message:
    """``cell``: (cell, line in it) where a notebook stopped; a notebook is never "run with
    python": the hint says which cell to run again, from the top."""
    if exception_type == "AssertionError":
        return msg("hint.assertion_on_real")
    if exception_type == "NotImplementedError":
        return msg("hint.not_implemented")
    if exception_type in ("ImportError", "ModuleNotFoundError", "NameError", "AttributeError"):
        return msg("hint.import_error")
    if cell is not None:
        return msg("hint.crash_cell", file=student_file, cell=cell[0], line=cell[1])
    return msg("hint.crash", file=student_file)


def output_check(
    exercise: CodeExercise, real: Observations, stopped: Message | None = None
) -> CheckResult:
    """The required lines must appear in stdout, in order (whitespace-normalised).

    ``stopped``: the real run failed; lines printed before that still count, a missing one
    is "not judged" (the probe may not have got there)."""
    name, points = "output", exercise.points_output
    printed = [" ".join(line.split()) for line in real.stdout.splitlines()]
    position = 0
    for index, expected in enumerate(exercise.expected_lines, start=1):
        wanted = " ".join(expected.split())
        try:
            position = printed.index(wanted, position) + 1
        except ValueError:
            if stopped is not None:
                return failed_check(name, points, stopped, None, head(real.stdout) or None)
            message = msg("output.missing", index=index, expected=expected)
            return failed_check(name, points, message, msg("hint.output"), head(real.stdout))
    return passed_check(name, points, msg("output.ok", count=len(exercise.expected_lines)))


def calls_check(
    exercise: CodeExercise, real: Observations, stopped: Message | None = None
) -> CheckResult:
    name, points = "calls", exercise.points_calls
    try:
        problem = exercise.check_calls(real.records)
    except Exception:  # records are untrusted claims: whatever they hold, never a crash
        problem = msg("calls.unreadable")
    if problem is None:
        return passed_check(name, points, msg("calls.ok"))
    return failed_check(name, points, stopped or problem)


def twins_check(
    exercise: CodeExercise,
    observed: Observed,
    stopped: Message | None = None,
    locate: Locate | None = None,
    student_file: str = "",
) -> CheckResult:
    """Worth no points, but without it no mutant check counts: a probe that also fails on a
    correct implementation written differently judges code, not behaviour."""
    name = "equivalents"
    if not observed.real.ok:
        return failed_check(name, 0.0, stopped or msg("twin.skipped"))
    for twin in exercise.twins:
        run = observed.twins.get(twin)
        if run is None:
            return failed_check(name, 0.0, msg("twin.skipped"))
        if not run.ok:
            described = Message(f"twin.{twin}")
            message = msg("twin.failed", twin=described, outcome=outcome(run, locate))
            shown = tail(relocate_traceback(run.stderr, student_file, locate))
            evidence = shown or tail(run.stdout) or None
            return failed_check(name, 0.0, message, msg("hint.twin"), evidence)
    return passed_check(name, 0.0, msg("twin.ok", count=len(exercise.twins)))


def mutant_check(
    exercise: CodeExercise,
    mutant: str,
    real: Observations,
    run: Observations | None,
    *,
    credible: bool = True,
    stopped: Message | None = None,
    advice: Message | None = None,
) -> CheckResult:
    """``advice``: a hint read from the probe's text, shown instead of the mutant's own
    when the probe let it through."""
    name, points = f"mutant:{mutant}", exercise.points_per_mutant
    described = Message(f"mutant.{mutant}")
    label = msg("check.mutant", arg=described)
    if not real.ok and stopped is not None:
        return failed_check(name, points, stopped, label=label)
    if not real.ok or run is None:
        return failed_check(name, points, msg("mutant.skipped"), label=label)
    if not credible:
        return failed_check(name, points, msg("mutant.not_credible"), label=label)
    if not run.ok:  # the probe failed: it told the wrong implementation apart
        return passed_check(name, points, msg("mutant.killed", mutant=described), label=label)
    evidence = head(run.stdout) or None
    difference = first_difference(exercise, real, run)
    if difference is not None:
        call, question, right, wrong = difference
        message = msg(
            "mutant.survived_unnoticed",
            mutant=described,
            call=call,
            question=question,
            real=right,
            wrong=wrong,
        )
        hint = advice or Message(f"mutant.{mutant}.hint")
        return failed_check(name, points, message, hint, evidence, label=label)
    message = msg("mutant.survived", mutant=described)
    hint = advice or Message(f"mutant.{mutant}.hint")
    return failed_check(name, points, message, hint, evidence, label=label)


def outcome(run: Observations, locate: Locate | None = None) -> Message:
    """How a run ended, in a few words (for a run other than the real one)."""
    if run.timed_out:
        return msg("outcome.timeout", seconds=round(run.wall_seconds))
    if run.limit_hit:
        return msg("outcome.limit", limit=run.limit_hit)
    if run.signal is not None:
        return msg("outcome.signal", signal=run.signal)
    if run.uncaught:
        return uncaught_message(
            "outcome",
            str(run.uncaught.get("type", "Exception"))[:100],
            first_line(str(run.uncaught.get("message", ""))),
            _line(run.uncaught.get("line")),
            locate,
        )
    return msg("outcome.exit_code", code=run.exit_code)


def first_difference(
    exercise: CodeExercise, real: Observations, run: Observations
) -> tuple[int, str, Message, Message] | None:
    """The first call both runs recorded with the same question and different answers:
    (call number, question, real answer, this run's answer). Records are claims: this only
    explains a failure, it never grants anything. Never raises."""
    try:
        keys = exercise.question_keys
        mine = calls_of(real.records, exercise.recorded_function)
        theirs = calls_of(run.records, exercise.recorded_function)
        for number, (a, b) in enumerate(zip(mine, theirs, strict=False), start=1):
            question = tuple(a.get(key) for key in keys)
            if question != tuple(b.get(key) for key in keys):
                return None  # the runs asked different things: nothing to compare
            if _answer(a) != _answer(b):
                shown = ", ".join(f"{k}={_show(v)}" for k, v in zip(keys, question, strict=True))
                return number, shown, _answer_message(a), _answer_message(b)
    except Exception:
        return None
    return None


def _answer(call: Mapping[str, object]) -> str:
    if "raised" in call:
        return f"raised {_show(call.get('raised'))}"
    return _show(call.get("result"))


def _answer_message(call: Mapping[str, object]) -> Message:
    """The answer in words of the report's language ("returned 5" / "抛出 IntegrityError")."""
    if "raised" in call:
        return msg("answer.raised", error=_show(call.get("raised")))
    return msg("answer.returned", value=_show(call.get("result")))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(item) for item in value) + ")"
    return str(value)[:80]


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
