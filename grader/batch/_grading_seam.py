"""The one place batch grading touches the grading core (deleted/replaced at merge).

Until ``grader.service`` (GradingService, ``service.student()``) is on main, this adapter
offers the same shape over today's ``grader.grading`` functions: a FRESH fork server per
student (started on the first code exercise that needs a run, never shared with another
student), hiding the course's secrets plus the extra paths given (the submissions folder,
its extracted copies, the gradebook). Only this module changes when the core lands.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path

from grader.exercises import exercise_ids, get_exercise
from grader.exercises.spec import CodeExercise, Exercise
from grader.results import CheckReport
from grader.submission import Submission


def verdict_fingerprint() -> str:
    """Changes whenever anything that can change a verdict changes."""
    try:
        from grader.fingerprint import verdict_fingerprint as core_fingerprint  # type: ignore
    except ImportError:
        from grader.cache import code_fingerprint

        return code_fingerprint()
    return str(core_fingerprint())


def all_code_preload() -> tuple[str, ...]:
    """What one student's fork server preloads: every code exercise's modules."""
    modules: list[str] = []
    for exercise_id in exercise_ids():
        exercise = get_exercise(exercise_id)
        if isinstance(exercise, CodeExercise):
            modules += exercise.all_preload
    return tuple(dict.fromkeys(modules))


def isolation_available(root: Path | None) -> str:
    """The sandbox mode runs would get here ("namespaces" or "rlimits"), from a throwaway
    server that preloads nothing (``$GRADER_ISOLATION`` is honoured)."""
    from grader.grading import start_server

    with start_server((), root) as server:
        return server.isolation


class StudentSession:
    """Judges one student's submissions; its fork server is this student's alone."""

    def __init__(self, root: Path | None, hide: Sequence[Path]) -> None:
        self._root = root
        self._hide = tuple(hide)
        self._server: object | None = None

    def judge(self, exercise: Exercise, submission: Submission) -> CheckReport:
        from grader.grading import judge_submission

        server = self._server_for(exercise) if isinstance(exercise, CodeExercise) else None
        return judge_submission(
            exercise,
            submission,
            lang="en",
            root=self._root,
            server=server,  # type: ignore[arg-type]
        )

    def _server_for(self, exercise: CodeExercise) -> object:
        from grader.course import hidden_paths
        from grader.errors import RunnerFailure, UsageError
        from grader.grading import isolation_mode
        from grader.runner import ForkServer, RunnerError

        current = self._server
        if current is not None and getattr(current, "alive", False):
            return current
        self.close()  # a server broken by the last run is replaced, for this student only
        hide = (*hidden_paths(self._root), *self._hide)
        mode = isolation_mode()
        try:
            self._server = ForkServer(preload=all_code_preload(), hide=hide, isolation=mode)
        except RunnerError as error:
            detail = (str(error).strip().splitlines() or ["?"])[-1][:500]
            if mode == "namespaces":
                raise UsageError("error.isolation_unavailable", reason=detail) from error
            raise RunnerFailure(detail=detail) from error
        return self._server

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            with contextlib.suppress(Exception):
                server.close()  # type: ignore[attr-defined]


@contextlib.contextmanager
def student_session(root: Path | None, hide: Sequence[Path]) -> Iterator[StudentSession]:
    """``with student_session(root, hide) as session: session.judge(exercise, submission)``."""
    session = StudentSession(root, hide)
    try:
        yield session
    finally:
        session.close()
