"""The grading flow: one exercise id in, one ``CheckReport`` out (``check_exercise``).

Code exercises: the real run and one run per mutant go to the fork server together (in
parallel), then ``verdict`` judges the observations. Prose exercises are judged in
process by the rubric. Nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from grader.course import find_course_root, hidden_paths, submission_path
from grader.errors import RunnerFailure
from grader.exercises import get_exercise
from grader.exercises.spec import CodeExercise, Exercise, ProseExercise
from grader.results import CheckReport, CheckResult, Message, build_report, failed_check, msg
from grader.starters import is_untouched_starter, starter_template
from grader.submission import Submission, load_submission

if TYPE_CHECKING:
    from grader.runner import ForkServer, Observations, RunRequest

PRELUDE = "grader.harness.prelude:install"
REAL = "real"


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
        return prose_report(exercise, submission.text, lang)
    real, mutants = observe(exercise, submission, root=root, server=server)
    return code_report(exercise, real, mutants, submission.display_name, lang)


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
    real: Observations,
    mutants: dict[str, Observations | None],
    student_file: str,
    lang: str,
) -> CheckReport:
    from grader.verdict import judge_code

    checks = judge_code(exercise, real, mutants, student_file=student_file)
    return build_report(
        exercise.id, "code", checks, title=exercise.title, summary=_summary(checks), lang=lang
    )


def _summary(checks: Sequence[CheckResult]) -> Message:
    failed = sum(1 for check in checks if not check.passed)
    return msg("summary.passed") if not failed else msg("summary.failed", failed=failed)


def requests_for(exercise: CodeExercise, submission: Submission) -> list[RunRequest]:
    """The real run first, then one run per mutant: same source, same file name, same limits."""
    from grader.runner import RunRequest

    return [
        RunRequest(
            source=submission.text,
            filename=submission.display_name,
            prelude=PRELUDE,
            prelude_args={"target": exercise.target, "variant": variant},
        )
        for variant in (REAL, *exercise.mutants)
    ]


def observe(
    exercise: CodeExercise,
    submission: Submission,
    *,
    root: Path | None,
    server: ForkServer | None = None,
) -> tuple[Observations, dict[str, Observations | None]]:
    from grader.runner import ForkServer, RunnerError

    requests = requests_for(exercise, submission)
    try:
        if server is None:
            with ForkServer(preload=exercise.all_preload, hide=hidden_paths(root)) as own:
                results = own.run_many(requests, max_parallel=parallelism())
        else:
            results = server.run_many(requests, max_parallel=parallelism())
    except RunnerError as error:
        raise RunnerFailure(detail=str(error).strip().splitlines()[-1][:500]) from error
    real, *rest = results
    return real, dict(zip(exercise.mutants, rest, strict=True))


def parallelism() -> int:
    return max(2, min(4, os.cpu_count() or 2))
