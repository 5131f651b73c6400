"""The grading flow: one exercise id in, one ``CheckReport`` out (``check_exercise``).

Code exercises: the real run first; if it passed, one run per twin and per mutant, in a
random order and in parallel, each answered by its own oracle (``grader.oracle``: the
implementation runs in this process, the probe holds a proxy); then ``verdict`` judges the
observations. Prose exercises are judged in process by the rubric.
Nothing here prints.

``$GRADER_ISOLATION`` (auto | namespaces | rlimits) forces the sandbox mode of the fork
servers this module starts (``grader check``, ``grader list``); the report says which one ran.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from grader.course import find_course_root, hidden_paths, submission_path
from grader.errors import RunnerFailure, UsageError
from grader.exercises import get_exercise
from grader.exercises.spec import CodeExercise, Exercise, ProseExercise
from grader.results import CheckReport, CheckResult, Message, build_report, failed_check, msg
from grader.starters import is_untouched_starter, starter_template
from grader.submission import Submission, load_submission
from grader.verdict import Observed
from grader.whereabouts import Locate

if TYPE_CHECKING:
    from grader.runner import ForkServer, RunRequest

PRELUDE = "grader.harness.prelude:install"
TWIN, MUTANT = "twin", "mutant"
ISOLATION_ENV = "GRADER_ISOLATION"
ISOLATION_CHOICES = ("auto", "namespaces", "rlimits")
#: The only mode in which a verdict may count officially (see require_official_isolation).
OFFICIAL_ISOLATION = "namespaces"


@dataclass(frozen=True)
class Checked:
    """A report and the exact submission it judged (hash THIS text; never re-read the file)."""

    report: CheckReport
    submission: Submission


def check_exercise(
    exercise_id: str,
    submission: Path | None = None,
    *,
    lang: str = "zh",
    root: Path | None = None,
    server: ForkServer | None = None,
) -> CheckReport:
    """Check the student's answer to ``exercise_id``.

    ``submission`` defaults to ``exercises/<id>/<file>`` under the course root (``root``,
    else searched upward from the current directory). ``server``: a fork server to reuse
    (it must preload what the exercise needs); by default one is started for this call.
    """
    return grade_exercise(exercise_id, submission, lang=lang, root=root, server=server).report


def grade_exercise(
    exercise_id: str,
    submission: Path | None = None,
    *,
    lang: str = "zh",
    root: Path | None = None,
    server: ForkServer | None = None,
) -> Checked:
    """``check_exercise``, also returning the submission as it was read (once) and judged."""
    exercise = get_exercise(exercise_id)
    course_root = find_course_root(root) if submission is None or root is not None else None
    if submission is None:
        assert course_root is not None
        submission = submission_path(course_root, exercise)
    loaded = load_submission(exercise, submission)
    report = judge_submission(exercise, loaded, lang=lang, root=course_root, server=server)
    return Checked(report, loaded)


def judge_submission(
    exercise: Exercise,
    submission: Submission,
    *,
    lang: str,
    root: Path | None,
    server: ForkServer | None = None,
) -> CheckReport:
    if is_untouched_starter(exercise.id, submission.text):
        return not_started_report(exercise, lang)
    if isinstance(exercise, ProseExercise):
        return with_notebook_note(prose_report(exercise, submission.text, lang), submission)
    observed = observe(exercise, submission, root=root, server=server)
    locate = submission.locate if submission.cell_starts else None
    report = code_report(exercise, observed, submission.display_name, lang, locate=locate)
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
    from grader.rubric import answer_text, judge_prose

    checks = judge_prose(exercise, answer_text(text, starter_template(exercise.id)))
    too_short = any(check.name == "length" for check in checks)
    return build_report(
        exercise.id,
        "prose",
        checks,
        status="failed" if too_short else "needs_review",
        title=exercise.title,
        summary=_summary(checks) if too_short else msg("summary.needs_review"),
        lang=lang,
    )


def code_report(
    exercise: CodeExercise,
    observed: Observed,
    student_file: str,
    lang: str,
    *,
    locate: Locate | None = None,
) -> CheckReport:
    from grader.verdict import judge_code

    checks = judge_code(exercise, observed, student_file=student_file, locate=locate)
    return build_report(
        exercise.id,
        "code",
        checks,
        title=exercise.title,
        summary=_summary(checks),
        lang=lang,
        isolation=observed.isolation,
    )


def with_notebook_note(report: CheckReport, submission: Submission) -> CheckReport:
    """A notebook of which only the cells tagged ``answer`` ran: the summary says which."""
    if not submission.answer_cells_only or report.summary is None:
        return report
    cells = ", ".join(str(number) for number in submission.cell_numbers)
    summary = msg("summary.answer_cells_only", summary=report.summary, cells=cells)
    return replace(report, summary=summary)


def _summary(checks: Sequence[CheckResult]) -> Message:
    failed = sum(1 for check in checks if not check.passed)
    return msg("summary.passed") if not failed else msg("summary.failed", failed=failed)


def observe(
    exercise: CodeExercise,
    submission: Submission,
    *,
    root: Path | None,
    server: ForkServer | None = None,
) -> Observed:
    """Run the probe on the real code, then (only if that passed) on every twin and mutant."""
    from grader.oracle.implementations import warm_up
    from grader.runner import RunnerError

    warming = threading.Thread(target=warm_up, args=(exercise.target,), daemon=True)
    warming.start()  # the oracle's imports overlap the fork server's start-up
    try:
        if server is None:
            with start_server(exercise.all_preload, root) as own:
                return _observe(exercise, submission, own)
        return _observe(exercise, submission, server)
    except RunnerError as error:
        raise RunnerFailure(detail=str(error).strip().splitlines()[-1][:500]) from error


def _observe(exercise: CodeExercise, submission: Submission, server: ForkServer) -> Observed:
    """The real run alone first: if it fails, nothing else is worth running (a probe that hits
    the wall limit costs one limit, not one per batch). Then twins and mutants, shuffled
    (``SystemRandom``). Every run gets the same request and the same proxy; which
    implementation answers it is decided by its oracle, in this process (``grader.oracle``),
    and the map from position to implementation stays here."""
    from grader.oracle.implementations import REAL
    from grader.oracle.session import run_with_oracles

    request = _request(exercise, submission)
    real = run_with_oracles(server, request, exercise.target, [REAL], max_parallel=1)[0]
    if not real.ok:
        return Observed(real, isolation=real.isolation)
    plan = [(TWIN, name) for name in exercise.twins]
    plan += [(MUTANT, name) for name in exercise.mutants]
    random.SystemRandom().shuffle(plan)
    names = [name for _, name in plan]
    results = run_with_oracles(server, request, exercise.target, names, max_parallel=parallelism())
    twins = {name: run for (kind, name), run in zip(plan, results, strict=True) if kind == TWIN}
    mutants = {name: run for (kind, name), run in zip(plan, results, strict=True) if kind == MUTANT}
    return Observed(real, twins, mutants, isolation=real.isolation)


def _request(exercise: CodeExercise, submission: Submission) -> RunRequest:
    """The same request for every run: source, file name, limits, prelude and its args."""
    from grader.runner import RunRequest

    return RunRequest(
        source=submission.text,
        filename=submission.display_name,
        prelude=PRELUDE,
        prelude_args={"target": exercise.target},
    )


def start_server(preload: Sequence[str], root: Path | None) -> ForkServer:
    """A fork server in the mode ``$GRADER_ISOLATION`` asks for (default: the strongest)."""
    from grader.runner import ForkServer, RunnerError

    mode = isolation_mode()
    try:
        return ForkServer(preload=preload, hide=hidden_paths(root), isolation=mode)
    except RunnerError as error:
        detail = str(error).strip().splitlines()[-1][:500] if str(error).strip() else "?"
        if mode == "namespaces":
            raise UsageError("error.isolation_unavailable", reason=detail) from error
        raise RunnerFailure(detail=detail) from error


def isolation_mode() -> str:
    """``$GRADER_ISOLATION``: auto (default), namespaces or rlimits; anything else exit 2."""
    from grader.render.sanitize import visible

    value = os.environ.get(ISOLATION_ENV, "").strip().lower() or "auto"
    if value not in ISOLATION_CHOICES:
        raise UsageError("error.isolation_unknown", given=visible(value[:40]))
    return value


def require_official_isolation(report: CheckReport) -> None:
    """For official (batch) grading: a code verdict counts only from the isolating sandbox.

    In "rlimits" mode a probe can read the solutions, so such a report must be refused.
    """
    if report.kind == "code" and report.isolation not in (None, OFFICIAL_ISOLATION):
        raise UsageError("error.weak_isolation", isolation=report.isolation)


def parallelism() -> int:
    return max(2, min(4, os.cpu_count() or 2))
