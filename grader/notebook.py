"""``grader.check()`` for notebooks: a warm fork server shared by every call in the kernel.

The server preloads what every exercise needs, so switching exercises does not restart it,
and errors come back as a report with status "error" (no traceback in the notebook).
"""

from __future__ import annotations

from pathlib import Path

from grader.errors import GraderError, InternalError
from grader.results import CheckReport, Message, build_report, failed_check


def all_preload() -> tuple[str, ...]:
    from grader.exercises import exercise_ids, get_exercise
    from grader.exercises.spec import CodeExercise

    modules: dict[str, None] = {}
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        if isinstance(exercise, CodeExercise):
            modules.update(dict.fromkeys(exercise.all_preload))
    return tuple(modules)


def check(
    exercise_id: str,
    submission: str | Path | None = None,
    *,
    lang: str | None = None,
    root: str | Path | None = None,
) -> CheckReport:
    from grader.render.catalog import resolve_lang

    language = resolve_lang(lang)
    try:
        return _check(exercise_id, submission, language, root)
    except GraderError as error:
        return error_report(exercise_id, error, language)
    except Exception as error:  # a notebook shows a report, never a grader traceback
        internal = InternalError(detail=f"{type(error).__name__}: {error}"[:300])
        return error_report(exercise_id, internal, language)


def _check(
    exercise_id: str, submission: str | Path | None, lang: str, root: str | Path | None
) -> CheckReport:
    from grader import cache
    from grader.course import find_course_root, hidden_paths, submission_path
    from grader.exercises import get_exercise
    from grader.grading import isolation_mode, judge_submission
    from grader.runner import shared_master
    from grader.submission import load_submission

    exercise = get_exercise(exercise_id)
    course_root = find_course_root(Path(root) if root is not None else None)
    path = Path(submission) if submission is not None else submission_path(course_root, exercise)
    loaded = load_submission(exercise, path)
    if exercise.kind == "code" and isolation_mode() == "auto":
        # one master per kernel, a fresh server per call: no run sees an earlier submission
        # (a forced $GRADER_ISOLATION gets a server of its own per call: a development knob)
        master = shared_master(all_preload(), hide=hidden_paths(course_root))
        with master.server() as server:
            report = judge_submission(exercise, loaded, lang=lang, root=course_root, server=server)
    else:
        report = judge_submission(exercise, loaded, lang=lang, root=course_root)
    if path.suffix != ".ipynb":
        cache.store(course_root, report, loaded.text)
    return report


def error_report(exercise_id: str, error: GraderError, lang: str) -> CheckReport:
    check = failed_check("input", 0.0, Message(error.message_id, dict(error.params)))
    return build_report(exercise_id, "code", (check,), status="error", lang=lang)
