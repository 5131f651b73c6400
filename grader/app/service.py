"""The grading core: every front end grades through ``GradingService``.

    settings = GradingSettings.from_env(root=None, lang=None, isolation=None, hide=(), jobs=None)
    with GradingService(settings) as service:
        checked = service.check("EX-12-01", path=None)     # grader check, notebook check()
        entries = list_exercises(service)                  # grader list (app/listing.py)
        with service.student() as session:                 # batch grading, a worker
            report = session.judge(exercise, submission)

The rules live here and nowhere else:

* **Course root.** ``settings.root`` if given (it must hold ``exercises/``), else searched
  upward from the current directory. It is required when no submission path is given (the
  answer is found under it) and for ``list``; with an explicit path and no ``--root`` a
  missing course root just means no cache.
* **Cache.** Verdicts of code exercises are stored under the course root's ``.grader/``
  keyed by the verdict fingerprint (``grader.app.cache``); never for notebooks (their text is
  extracted cells, not the file).
* **Isolation.** One fork server per student session, never shared between students: a run
  is a fork of its server and can read what the server held before, so two students in one
  server could read each other's work. One oracle process per judged submission (the
  implementations under test answer its runs from there; ``grader.proxy.oracle.remote``).
  ``require_official`` refuses "rlimits" verdicts. A student's own check (``self_check``)
  runs in the "portable" mode (``grader.runner.portable``: a fresh interpreter per run, no
  fork server, no oracle process) when asked to (``GRADER_ISOLATION=portable``, e.g. in a
  container that forbids what the fork servers need), or under "auto" where the forking
  runner cannot work (not Linux); never for anything else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from grader.app import cache
from grader.app.course import find_course_root, hidden_paths, submission_path
from grader.app.settings import OFFICIAL_ISOLATION, PORTABLE, GradingSettings
from grader.errors import CourseRootNotFound, RunnerFailure, UsageError
from grader.judge.exercises import exercise_ids, get_exercise
from grader.judge.exercises.spec import CodeExercise, Exercise
from grader.judge.results import CheckReport
from grader.judge.submission import Submission, load_submission

if TYPE_CHECKING:
    from grader.proxy.oracle.remote import OracleProcess
    from grader.proxy.oracle.session import LocalOracles
    from grader.runner import ForkServer, Master
    from grader.runner.portable import PortableServer
    from grader.runner.turns import Waiting
    from grader.variants.targets import Target

T = TypeVar("T")

__all__ = ["Checked", "GradingService", "GradingSettings", "StudentSession", "merged_preload"]


@dataclass(frozen=True)
class Checked:
    """A report and the exact submission it judged (hash THIS text; never re-read the file)."""

    report: CheckReport
    submission: Submission


class GradingService:
    """Grades submissions with one ``GradingSettings``; close it (or use ``with``) when done."""

    def __init__(self, settings: GradingSettings, *, on_turn_wait: Waiting | None = None) -> None:
        self.settings = settings
        #: Told who holds the user's turn when a run waits for it (``grader.runner.turns``):
        #: the front end says so to the person waiting.
        self.on_turn_wait = on_turn_wait
        self._root: Path | None = None
        self._root_error: CourseRootNotFound | None = None
        self._root_searched = False
        self._masters: dict[tuple[str, ...], Master] = {}
        self._portable: bool | None = None

    # -- the course root -------------------------------------------------------------------

    def course_root(self, *, required: bool = True) -> Path | None:
        """The course root (see the module docstring), searched once per service.

        ``CourseRootNotFound`` (exit 2) if there is none and it is ``required`` or was given.
        """
        if not self._root_searched:
            try:
                self._root = find_course_root(self.settings.root)
            except CourseRootNotFound as error:
                self._root_error = error
            self._root_searched = True
        if self._root is None and (required or self.settings.root is not None):
            assert self._root_error is not None
            raise self._root_error
        return self._root

    # -- front-end operations ----------------------------------------------------------------

    def check(
        self, exercise_id: str, path: Path | None = None, *, lang: str | None = None
    ) -> Checked:
        """Grade one exercise: ``path``, else the student's file under the course root.

        ``lang`` overrides the settings' feedback language for this call (a notebook kernel
        switching language keeps its warm master)."""
        exercise = get_exercise(exercise_id)
        root = self.course_root(required=path is None)
        if path is None:
            assert root is not None
            path = submission_path(root, exercise)
        submission = load_submission(exercise, path)
        caching = root is not None and self.settings.use_cache and path.suffix != ".ipynb"
        # The key hashes the grader's files: done before the runs, it overlaps the start-up of
        # a master greeted early (``prestart``) instead of following the last run.
        key = cache.cache_key(exercise, submission.text) if caching else None
        with self.student(exercises=(exercise,)) as session:
            report = session.judge(exercise, submission, lang=lang)
        if root is not None and key is not None:
            cache.store(root, exercise, report, submission.text, key=key)  # the text graded
        return Checked(report, submission)

    def prestart(self, exercise_id: str) -> bool:
        """For a one-shot check: send the spare master process (``runner.launch_spare``) the
        hello this service's master for ``exercise_id`` will send, so the heavy imports start
        while the front end is still loading. Best effort and silent: False if anything is in
        the way; ``check`` then reports it, and a master that differs starts afresh."""
        from grader.runner.master import greet_spare

        if self.portable():
            return False
        try:
            exercise = get_exercise(exercise_id)
            preload = merged_preload([exercise])
            if not preload:
                return False
            hide = self.hidden()
        except Exception:
            return False
        return greet_spare(preload=preload, hide=hide, isolation=self.settings.isolation)

    @contextlib.contextmanager
    def student(self, exercises: Sequence[Exercise] | None = None) -> Iterator[StudentSession]:
        """A session for ONE student's submissions, with a fork server of its own (started on
        the first code run). ``exercises``: what it may grade (default: every exercise), so
        the server preloads only what they need."""
        chosen = exercises if exercises is not None else [get_exercise(i) for i in exercise_ids()]
        session = StudentSession(self, merged_preload(chosen))
        try:
            yield session
        finally:
            session.close()

    @staticmethod
    def require_official(report: CheckReport) -> None:
        """For official (batch) grading: a code verdict counts only from the isolating sandbox.

        In "rlimits" mode a probe can read the solutions, so such a report is refused (exit 2).
        """
        if report.kind == "code" and report.isolation not in (None, OFFICIAL_ISOLATION):
            raise UsageError("error.weak_isolation", isolation=report.isolation)

    def portable(self) -> bool:
        """Whether this service's runs are portable ones (see the module docstring)."""
        if self._portable is None:
            from grader.runner.portable_mode import forking_unavailable

            wanted = self.settings.isolation == PORTABLE
            if wanted and not self.settings.self_check:
                raise UsageError("error.portable_not_official")
            auto = self.settings.isolation == "auto" and self.settings.self_check
            self._portable = wanted or (auto and forking_unavailable() is not None)
        return self._portable

    def hidden(self) -> tuple[Path, ...]:
        """What no run may see: the secrets of the installed and the course tree, plus
        ``settings.hide``."""
        root = self.course_root(required=False)
        return (*hidden_paths(root), *self.settings.hide)

    def master(self, preload: tuple[str, ...]) -> Master:
        """The process that starts this service's fork servers for ``preload`` (one each,
        kept for the service's lifetime; it never holds a submission)."""
        master = self._masters.get(preload)
        if master is None:
            settings = self.settings
            from grader.runner import Master

            master = Master(preload=preload, hide=self.hidden(), isolation=settings.isolation)
            self._masters[preload] = master
        return master

    def close(self) -> None:
        """Stop the masters (a student's server is stopped when their session ends)."""
        masters, self._masters = list(self._masters.values()), {}
        for master in masters:
            master.close()

    def __enter__(self) -> GradingService:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class StudentSession:
    """One student's grading: ``judge`` any number of their submissions, one server."""

    def __init__(self, service: GradingService, preload: tuple[str, ...]) -> None:
        self._service = service
        self._preload = preload
        self._server: ForkServer | PortableServer | None = None

    def judge(
        self, exercise: Exercise, submission: Submission, *, lang: str | None = None
    ) -> CheckReport:
        """The report for ``submission`` (already loaded), in ``lang`` (default: the
        settings'); errors raise ``GraderError``."""
        from grader.judge.grading import judge_submission

        settings = self._service.settings
        if isinstance(exercise, CodeExercise):
            missing = [m for m in exercise.all_preload if m not in self._preload]
            if missing:
                raise ValueError(f"this session does not preload {missing} for {exercise.id}")
        return judge_submission(
            exercise,
            submission,
            lang=lang or settings.lang,
            server=self.server,
            oracles=self.oracles,
            jobs=settings.jobs,
            limits=settings.limits,
        )

    def server(self) -> ForkServer | PortableServer:
        """This student's fork server, started on first use; never given to anyone else
        (portable mode: a runner that starts a fresh interpreter per run)."""
        if self._server is None and self._service.portable():
            from grader.runner.portable import PortableServer

            self._server = PortableServer(preload=self._preload)
        if self._server is None:
            server = _from_master(self._service, lambda master: master.server(), self._preload)
            server.turn_waiting = self._service.on_turn_wait
            self._server = server
        return self._server

    def oracles(self, warm: Target) -> OracleProcess | LocalOracles:
        """A fresh oracle process (``grader.proxy.oracle.remote``) for one submission's runs,
        importing what ``warm``'s oracle needs; the caller closes it after them, so nothing
        one submission sends it can stay for the next. Portable mode: threads of this
        process (``LocalOracles``)."""
        from grader.proxy.oracle.remote import OracleProcess
        from grader.proxy.oracle.session import LocalOracles

        if self._service.portable():
            return LocalOracles()
        return _from_master(
            self._service, lambda master: OracleProcess.start(master, warm), self._preload
        )

    @property
    def isolation(self) -> str | None:
        """The sandbox mode of this session's server (None: nothing ran yet)."""
        return None if self._server is None else self._server.isolation

    def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None


def merged_preload(exercises: Sequence[Exercise]) -> tuple[str, ...]:
    """Every module the code exercises' probes need, each once; warm-ups (``"m:f"``) last."""
    modules = [m for e in exercises if isinstance(e, CodeExercise) for m in e.all_preload]
    plain = [m for m in modules if ":" not in m]
    warm_ups = [m for m in modules if ":" in m]
    return (*dict.fromkeys(plain), *dict.fromkeys(warm_ups))


def _from_master(
    service: GradingService, make: Callable[[Master], T], preload: tuple[str, ...]
) -> T:
    """``make(master)`` with the service's master for ``preload`` (a fresh fork server or
    oracle process for one student); the master's failures become the grader's errors."""
    from grader.runner import RunnerError

    mode = service.settings.isolation
    try:
        return make(service.master(preload))
    except RunnerError as error:
        detail = str(error).strip().splitlines()[-1][:500] if str(error).strip() else "?"
        if mode == "namespaces":
            raise UsageError("error.isolation_unavailable", reason=detail) from error
        raise RunnerFailure(detail=detail) from error
