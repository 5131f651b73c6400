"""The one place batch grading touches the grading core (``grader.app.service``).

A process that grades (a pool worker, a Celery worker's pool process) keeps ONE
``GradingService`` per set of hidden paths for its lifetime: its master preloads once and
never holds a submission. Each student then gets ``service.student()``: a fresh fork server
of their own, forked from that master, closed when the student is done. So no run can find
another student's submission in memory, and a student costs a fork, not a start.

Every run hides the course's secrets plus the extra paths given (the submissions folder,
the folder zips are unpacked into, the gradebook's files).
"""

from __future__ import annotations

import atexit
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

from grader.app.fingerprint import verdict_fingerprint as _verdict_fingerprint
from grader.app.service import GradingService, GradingSettings
from grader.frontends.commands.common import turn_notices
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import Exercise
from grader.judge.results import CheckReport
from grader.judge.submission import Submission
from grader.render.catalog import resolve_lang


class Session(Protocol):
    def judge(self, exercise: Exercise, submission: Submission) -> CheckReport: ...


#: This process's services, by hidden paths (a forked child starts with none of its own).
_services: dict[tuple[Path, ...], GradingService] = {}
_owner: list[int] = []


def verdict_fingerprint(exercise: Exercise) -> str:
    """Changes whenever anything that can change ``exercise``'s verdict changes."""
    return str(_verdict_fingerprint(exercise))


def _exercises() -> list[Exercise]:
    return [get_exercise(exercise_id) for exercise_id in exercise_ids()]


def _service(hide: tuple[Path, ...]) -> GradingService:
    import os

    if _owner != [os.getpid()]:  # inherited through fork: not ours to use or close
        _services.clear()
        _owner[:] = [os.getpid()]
        atexit.register(close_services)
    service = _services.get(hide)
    if service is None:
        settings = GradingSettings.from_env(hide=hide, lang="en", use_cache=False)
        # a run waiting for the user's turn (grading as a user) says who holds it, under
        # the progress bar, in the instructor's language
        tell = turn_notices(resolve_lang(), below_bar=True)
        service = _services[hide] = GradingService(settings, on_turn_wait=tell)
    return service


def close_services() -> None:
    """Stop this process's masters (idempotent; also run at exit)."""
    services = list(_services.values())
    _services.clear()
    for service in services:
        with contextlib.suppress(Exception):
            service.close()


@contextlib.contextmanager
def student_session(hide: Sequence[Path]) -> Iterator[Session]:
    """``with student_session(hide) as session: session.judge(exercise, submission)``:
    one student's session, with a fork server of its own."""
    with _service(tuple(hide)).student(_exercises()) as session:
        yield session


def isolation_available() -> str:
    """The sandbox mode runs get here ("namespaces" or "rlimits"; ``$GRADER_ISOLATION``
    honoured), from a throwaway server that preloads nothing."""
    settings = GradingSettings.from_env(lang="en", use_cache=False)
    with GradingService(settings) as service, service.student(()) as session:
        return str(session.server().isolation)
