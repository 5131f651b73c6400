"""The one place batch grading touches the grading core.

It speaks the core's contract (``GradingService.student()``: a FRESH fork server per
student, never shared; ``verdict_fingerprint``). When ``grader.service`` is importable it is
used as is; until the core lands on main, the same shape is built here over
``grader.grading`` (a ``ForkServer`` per student, started on the first code run). At merge
only this module changes: the fallback half is deleted.

Every run hides the course's secrets plus the extra paths given (the submissions folder,
the folder zips are unpacked into, the gradebook's files).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from grader.exercises import exercise_ids, get_exercise
from grader.exercises.spec import CodeExercise, Exercise
from grader.results import CheckReport
from grader.submission import Submission


class Session(Protocol):
    def judge(self, exercise: Exercise, submission: Submission) -> CheckReport: ...


def _core() -> Any | None:
    """``grader.service`` when the grading core is installed, else None."""
    try:
        return importlib.import_module("grader.service")
    except ImportError:
        return None


def verdict_fingerprint(exercise: Exercise) -> str:
    """Changes whenever anything that can change ``exercise``'s verdict changes."""
    try:
        fingerprint = importlib.import_module("grader.fingerprint")
    except ImportError:
        from grader.cache import code_fingerprint

        return code_fingerprint()
    return str(fingerprint.verdict_fingerprint(exercise))


def _exercises() -> list[Exercise]:
    return [get_exercise(exercise_id) for exercise_id in exercise_ids()]


@contextlib.contextmanager
def student_session(hide: Sequence[Path]) -> Iterator[Session]:
    """``with student_session(hide) as session: session.judge(exercise, submission)``:
    one student's session, with a fork server of its own."""
    core = _core()
    if core is None:
        session = _FallbackSession(tuple(hide))
        try:
            yield session
        finally:
            session.close()
        return
    settings = core.GradingSettings.from_env(hide=tuple(hide), lang="en", use_cache=False)
    with core.GradingService(settings) as service, service.student(_exercises()) as session:
        yield session


def isolation_available() -> str:
    """The sandbox mode runs get here ("namespaces" or "rlimits"; ``$GRADER_ISOLATION``
    honoured), from a throwaway server that preloads nothing."""
    core = _core()
    if core is None:
        server = _fallback_server(())
        try:
            return str(server.isolation)
        finally:
            server.close()
    settings = core.GradingSettings.from_env(lang="en", use_cache=False)
    with core.GradingService(settings) as service, service.student(()) as session:
        return str(session.server().isolation)


# -- until grader.service is on main (delete at merge) -------------------------------------


def _fallback_server(preload: Sequence[str], hide: Sequence[Path] = ()) -> Any:
    from grader.course import hidden_paths
    from grader.errors import RunnerFailure, UsageError
    from grader.runner import ForkServer, RunnerError

    grading: Any = importlib.import_module("grader.grading")
    mode = grading.isolation_mode()
    try:
        return ForkServer(preload=preload, hide=(*hidden_paths(None), *hide), isolation=mode)
    except RunnerError as error:
        detail = (str(error).strip().splitlines() or ["?"])[-1][:500]
        if mode == "namespaces":
            raise UsageError("error.isolation_unavailable", reason=detail) from error
        raise RunnerFailure(detail=detail) from error


class _FallbackSession:
    """One student's session over today's ``grader.grading``: its own fork server."""

    def __init__(self, hide: tuple[Path, ...]) -> None:
        self._hide = hide
        self._server: Any = None

    def judge(self, exercise: Exercise, submission: Submission) -> CheckReport:
        grading: Any = importlib.import_module("grader.grading")
        server = self._server_alive() if isinstance(exercise, CodeExercise) else None
        report: CheckReport = grading.judge_submission(
            exercise, submission, lang="en", root=None, server=server
        )
        return report

    def _server_alive(self) -> Any:
        if self._server is None or not self._server.alive:
            self.close()  # a server broken by the last run is replaced, for this student only
            preload = [
                m for e in _exercises() if isinstance(e, CodeExercise) for m in e.all_preload
            ]
            self._server = _fallback_server(tuple(dict.fromkeys(preload)), self._hide)
        return self._server

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            with contextlib.suppress(Exception):
                server.close()
