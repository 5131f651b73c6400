"""Judging one loaded submission: ``judge_submission(exercise, submission, ...)``.

Code exercises: the real run and one run per twin and per mutant, in a uniformly random
order (the real run included), in parallel (cancelled if the real run fails), each answered by
its own oracle (``grader.proxy.oracle``: the implementation runs in the oracle process of this
submission, the probe holds a proxy); then ``verdict`` judges the observations. Prose
exercises are judged in process by the rubric. Nothing here prints, finds files or starts
servers: ``grader.app.service`` does that, for every front end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from grader.errors import RunnerFailure
from grader.judge.exercises.spec import CodeExercise, Exercise, ProseExercise
from grader.judge.results import CheckReport, CheckResult, Message, build_report, failed_check, msg
from grader.judge.starters import is_untouched_starter, starter_template
from grader.judge.statements import statement_text
from grader.judge.submission import Submission
from grader.judge.verdict import Observed
from grader.judge.whereabouts import Locate

if TYPE_CHECKING:
    from grader.proxy.oracle.session import OracleSource
    from grader.runner import ForkServer, Limits, Observations, RunRequest
    from grader.runner.portable import PortableServer
    from grader.variants.targets import Target

#: Gives the fork server of the student being graded (started on first use).
ServerFor = Callable[[], "ForkServer | PortableServer"]
#: Starts an oracle process for one submission's runs (warming up for the target); the
#: caller closes it after those runs.
OraclesFor = Callable[["Target"], "OracleSource"]

PRELUDE = "grader.proxy.child.prelude:install"
TWIN, MUTANT = "twin", "mutant"


def judge_submission(
    exercise: Exercise,
    submission: Submission,
    *,
    lang: str,
    server: ServerFor,
    oracles: OraclesFor,
    jobs: int = 2,
    limits: Limits | None = None,
) -> CheckReport:
    """The report for ``submission``; ``server()`` and ``oracles()`` are called only if
    something must run (the oracle process lives for this submission's runs only)."""
    if is_untouched_starter(exercise.id, submission.text):
        return not_started_report(exercise, lang)
    if isinstance(exercise, ProseExercise):
        return with_notebook_note(prose_report(exercise, submission.text, lang), submission)
    source = oracles(exercise.function_under_test)  # first: it warms up while the server starts
    try:
        observed = observe(exercise, submission, server(), source, jobs=jobs, limits=limits)
    finally:
        source.close()
    locate = submission.locate if submission.cell_starts else None
    report = code_report(
        exercise, observed, submission.display_name, lang, locate=locate, source=submission.text
    )
    return with_notebook_note(report, submission)


def not_started_report(exercise: Exercise, lang: str) -> CheckReport:
    key = "code.not_started" if exercise.kind == "code" else "prose.not_started"
    check = failed_check("started", exercise.max_score, msg(key, file=exercise.student_file))
    return build_report(
        exercise.id,
        exercise.kind,
        (check,),
        title=exercise.title,
        summary=msg("summary.not_started"),
        lang=lang,
    )


def prose_report(exercise: ProseExercise, text: str, lang: str) -> CheckReport:
    from grader.judge.rubric import answer_text, judge_prose

    template = starter_template(exercise.id)
    checks = judge_prose(
        exercise, answer_text(text, template), statement=statement_text(exercise.id)
    )
    too_short = any(check.name == "length" for check in checks)
    report = build_report(
        exercise.id,
        "prose",
        checks,
        status="failed" if too_short else "needs_review",
        title=exercise.title,
        summary=_summary(checks) if too_short else msg("summary.needs_review"),
        lang=lang,
    )
    if not exercise.concepts:  # rubric withheld (student copy): still say what it is worth
        return replace(report, max_score=exercise.max_score)
    return report


def code_report(
    exercise: CodeExercise,
    observed: Observed,
    student_file: str,
    lang: str,
    *,
    locate: Locate | None = None,
    source: str = "",
) -> CheckReport:
    from grader.judge.verdict import judge_code

    checks = judge_code(exercise, observed, student_file=student_file, locate=locate, source=source)
    return build_report(
        exercise.id,
        "code",
        checks,
        title=exercise.title,
        summary=_summary(checks),
        lang=lang,
        isolation=observed.isolation,
    )


def _summary(checks: Sequence[CheckResult]) -> Message:
    failed = sum(1 for check in checks if not check.passed)
    return msg("summary.passed") if not failed else msg("summary.failed", failed=failed)


def observe(
    exercise: CodeExercise,
    submission: Submission,
    server: ForkServer | PortableServer,
    source: OracleSource | None = None,
    *,
    jobs: int = 2,
    limits: Limits | None = None,
) -> Observed:
    """One batch: every run, the real one included, at a uniformly random place
    (``batch_order``), at most ``jobs`` at once. If the real run fails, the runs in flight
    are cancelled and the rest never start: nothing else is worth running. Once any run hits
    its wall limit, the real run starts next if it has not started: a probe that hangs on the
    real code then costs about two wall limits, not one per wave of the batch. No run can
    tell its place from either: a run that starts sees what every run sees. Every run gets
    the same request and the same proxy; which implementation answers it is decided by its oracle
    (``grader.proxy.oracle``; ``source``, default: threads of this process), and the map
    from position to implementation stays here."""
    from grader.proxy.oracle.session import run_with_oracles
    from grader.runner import RunnerError

    plan, real_at = batch_order(exercise)

    def real_failed(index: int, run: Observations) -> bool:
        return index == real_at and not run.ok

    def real_next(index: int, run: Observations) -> int | None:
        return real_at if run.timed_out else None

    request = _request(exercise, submission, limits=limits)
    names = [name for _, name in plan]
    target = exercise.function_under_test
    try:
        results = run_with_oracles(
            server,
            request,
            target,
            names,
            max_parallel=jobs,
            source=source,
            stop=real_failed,
            promote=real_next,
        )
    except RunnerError as error:
        raise RunnerFailure(detail=str(error).strip().splitlines()[-1][:500]) from error
    real = results[real_at]
    assert real is not None  # the real run is never cancelled
    if not real.ok:
        return Observed(real, isolation=real.isolation)
    twins, mutants = {}, {}
    for (kind, name), run in zip(plan, results, strict=True):
        assert run is not None  # nothing is cancelled unless the real run failed
        if kind == TWIN:
            twins[name] = run
        elif kind == MUTANT:
            mutants[name] = run
    return Observed(real, twins, mutants, isolation=real.isolation)


def batch_order(
    exercise: CodeExercise, rng: random.Random | None = None
) -> tuple[list[tuple[str, str]], int]:
    """The batch's runs as ``(kind, name)`` in a uniformly random order (``SystemRandom``
    unless ``rng``), and the real run's place. Uniform, not "somewhere in the first wave":
    a place a run could guess would tell it what it is (the page-cache vote of issue 32
    called every later lone answer a mutant)."""
    from grader.proxy.oracle.implementations import REAL

    plan = [(REAL, REAL)]
    plan += [(TWIN, name) for name in exercise.twins]
    plan += [(MUTANT, name) for name in exercise.mutants]
    (rng or random.SystemRandom()).shuffle(plan)
    return plan, plan.index((REAL, REAL))


def _request(
    exercise: CodeExercise, submission: Submission, *, limits: Limits | None
) -> RunRequest:
    """The same request for every run: source, file name, limits, prelude and its args."""
    from grader.runner import Limits, RunRequest

    return RunRequest(
        source=submission.text,
        filename=submission.display_name,
        prelude=PRELUDE,
        prelude_args={"target": exercise.function_under_test.to_json()},
        limits=limits or Limits(),
    )


def with_notebook_note(report: CheckReport, submission: Submission) -> CheckReport:
    """A notebook of which only the cells tagged ``answer`` ran: the summary says which."""
    if not submission.answer_cells_only or report.summary is None:
        return report
    cells = ", ".join(str(number) for number in submission.cell_numbers)
    summary = msg("summary.answer_cells_only", summary=report.summary, cells=cells)
    return replace(report, summary=summary)
