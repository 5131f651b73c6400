"""``grader grade``: list the class, decide the plan once, grade on this machine or on
Celery workers, and sum up. Rendering is the command's job; this returns numbers."""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from grader.errors import InternalError, Interrupted, UsageError
from grader.instructor.batch.downloads import map_downloads
from grader.instructor.batch.interrupt import GRACE_SECONDS, Killed, StopRequest, stop_on_signals
from grader.instructor.batch.layout import Discovery, discover, not_a_class
from grader.instructor.batch.plan import (
    BatchPlan,
    StudentOutcome,
    key_fingerprint,
    scratch_folder,
    summarize,
)
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.runs import finish_run, start_run
from grader.instructor.term.deadlines import load_settings, settings_path
from grader.instructor.term.receiving import read_received_at, receive, refresh_lateness
from grader.instructor.term.store import roster
from grader.judge.exercises import exercise_ids, get_exercise

OFFICIAL = "namespaces"


class Bar(AbstractContextManager["Bar"], Protocol):
    """What ``grade_class`` needs of a progress bar."""

    def advance(self, count: int = 1) -> None: ...


@dataclass(frozen=True)
class GradeOptions:
    submissions: Path
    db_url: str | None = None
    jobs: int | None = None
    broker: str | None = None
    exercises: Sequence[str] = ()
    allow_weak_isolation: bool = False
    wait_timeout: float = 600.0
    #: Grade a folder even when it looks like one student's folder or a course tree.
    force: bool = False
    #: Grade only the students on the roster (others are reported and skipped).
    roster_only: bool = False
    #: ``--received-at FILE.csv``; None: the files' modification times.
    received_at: Path | None = None
    #: ``--course course.toml``; None: the one at the course root, if any.
    course: Path | None = None


@dataclass(frozen=True)
class GradeRun:
    summary: dict[str, float | int]
    discovery: Discovery
    weak: bool


def chosen_exercises(requested: Sequence[str]) -> tuple[str, ...]:
    if not requested:
        return exercise_ids()
    return tuple(dict.fromkeys(get_exercise(given).id for given in requested))


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def hidden_for(folder: Path, scratch: Path, book: Gradebook) -> tuple[str, ...]:
    """The class folder (as given and as resolved), the scratch folder, the gradebook."""
    paths = [folder.absolute(), folder.resolve(), scratch.resolve(), *map(Path, book.files)]
    return tuple(dict.fromkeys(str(path) for path in paths))


def discover_class(options: GradeOptions) -> Discovery:
    """The class in ``options.submissions``; a folder that is not a class is refused (exit
    2, saying what it looks like) unless ``options.force``."""
    folder = options.submissions.absolute()
    discovery = discover(folder)  # a missing folder: exit 2 first
    refusal = None if options.force else not_a_class(folder)
    if refusal is not None:
        raise refusal
    return discovery


@dataclass(frozen=True)
class PlannedEntry:
    #: "grade" (a folder or a zip), "refuse" (a folder and a zip of one id), "skip"
    action: str
    name: str
    kind: str


def dry_run(options: GradeOptions) -> list[PlannedEntry]:
    """What ``grade`` would grade, refuse and skip; opens no gradebook, writes nothing."""
    discovery = discover_class(options)
    chosen_exercises(options.exercises)  # an unknown --exercise is an error here too
    planned = [
        PlannedEntry("refuse" if s.kind == "clash" else "grade", s.student, s.kind)
        for s in discovery.students
    ]
    return planned + [PlannedEntry("skip", name, "") for name in discovery.skipped]


def grade_class(
    options: GradeOptions,
    *,
    note: Callable[[str, dict[str, str | int]], None],
    progress: Callable[[int], Bar],
) -> GradeRun:
    """Grade the class; ``note(message_id, params)`` for one-off notices, ``progress(total)``
    returns the bar (a context manager with ``advance(n)``)."""
    from grader.instructor.batch.sessions import isolation_available, verdict_fingerprint

    folder = options.submissions.absolute()
    discovery = discover_class(options)
    exercises = chosen_exercises(options.exercises)
    settings = load_settings(settings_path(options.course))  # refused before any write
    given = (
        {}
        if options.received_at is None
        else read_received_at(options.received_at, settings.timezone)
    )
    started = time.perf_counter()
    with Gradebook(options.db_url) as book:
        discovery = map_downloads(folder, discovery, roster(book), note)
        for name in discovery.skipped:
            note("batch.skipped_entry", {"name": name})
        discovery = _against_roster(book, discovery, options.roster_only, note)
        mode = isolation_available()
        weak = mode != OFFICIAL
        if weak and not options.allow_weak_isolation:
            raise UsageError("error.batch_weak_isolation", mode=mode)
        if weak:
            note("batch.weak_isolation_note", {})
        scratch = scratch_folder()
        token = uuid.uuid4().hex  # with run_id, what a worker checks its gradebook by
        description = {"submissions": str(folder), "exercises": list(exercises), "token": token}
        run_id = start_run(book, description)
        book.run_id = run_id
        try:
            plan = BatchPlan(
                exercises=exercises,
                fingerprints=tuple(
                    (
                        exercise_id,
                        key_fingerprint(verdict_fingerprint(get_exercise(exercise_id)), weak),
                    )
                    for exercise_id in exercises
                ),
                weak=weak,
                hide=hidden_for(folder, scratch, book),
                run_id=run_id,
                run_token=token,
                gradebook=book.url.render_as_string(hide_password=True),
            )
            db_url = book.url.render_as_string(hide_password=False)
            with stop_on_signals() as stop:
                stopping = "batch.stopping_broker" if options.broker else "batch.stopping"
                stop.announce = lambda: note(stopping, {"seconds": round(GRACE_SECONDS)})
                try:
                    outcomes = _dispatch(
                        options, discovery, plan, db_url, scratch, progress, note, book, stop
                    )
                except Killed:
                    outcomes = None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if outcomes is None or stop.requested:
            _interrupted(book, discovery, exercises, killed=outcomes is None)
        _check_complete(book, discovery, exercises)
        finish_run(book, run_id)
        claimed = {o.student: o.manifest_student for o in outcomes or () if o.manifest_student}
        if claimed:
            shown = ", ".join(f"{s} -> {c}" for s, c in sorted(claimed.items()))
            note("batch.manifest_other_student", {"count": len(claimed), "pairs": shown})
        receive(book, discovery.students, exercises, given, claimed)
        late = refresh_lateness(book, settings)
        if late:
            note("batch.late", {"count": late})
    assert outcomes is not None
    return GradeRun(summarize(outcomes, time.perf_counter() - started), discovery, weak)


def _against_roster(
    book: Gradebook,
    discovery: Discovery,
    roster_only: bool,
    note: Callable[[str, dict[str, str | int]], None],
) -> Discovery:
    """Say which submissions are not on the roster and which roster students handed in
    nothing; with ``roster_only``, keep only roster students. No roster: unchanged."""
    listed = {student.student for student in roster(book)}
    if not listed:
        if roster_only:
            raise UsageError("error.no_roster")
        return discovery
    found = {source.student for source in discovery.students}
    strangers = sorted(found - listed)
    absent = sorted(listed - found)
    if strangers:
        message = "batch.off_roster_skipped" if roster_only else "batch.off_roster"
        note(message, {"count": len(strangers), "students": _names(strangers)})
    if absent:
        note("batch.no_submission", {"count": len(absent), "students": _names(absent)})
    if not roster_only:
        return discovery
    kept = tuple(source for source in discovery.students if source.student in listed)
    return Discovery(kept, discovery.skipped)


def _names(students: Sequence[str], shown: int = 30) -> str:
    more = f" (+{len(students) - shown})" if len(students) > shown else ""
    return ", ".join(students[:shown]) + more


def _interrupted(
    book: Gradebook, discovery: Discovery, exercises: Sequence[str], *, killed: bool
) -> None:
    """Exit 130, saying how many (student, exercise) pairs now have a row and how many a
    re-run will grade."""
    have = book.current_keys()
    wanted = {(s.student, e) for s in discovery.students for e in exercises}
    recorded = len(wanted & have)
    raise Interrupted(
        "batch.killed" if killed else "batch.interrupted",
        recorded=recorded,
        total=len(wanted),
        remaining=len(wanted) - recorded,
    )


def _dispatch(
    options: GradeOptions,
    discovery: Discovery,
    plan: BatchPlan,
    db_url: str,
    scratch: Path,
    progress: Callable[[int], Bar],
    note: Callable[[str, dict[str, str | int]], None],
    book: Gradebook,
    stop: StopRequest,
) -> list[StudentOutcome]:
    total = len(discovery.students) * len(plan.exercises)
    bar = progress(total)
    with bar:

        def done(outcome: StudentOutcome) -> None:
            bar.advance(len(outcome.results))

        if options.broker:
            from grader.instructor.batch.distributed import grade_distributed

            return grade_distributed(
                discovery.students,
                plan,
                broker=options.broker,
                db_url=db_url,
                wait_timeout=options.wait_timeout,
                on_done=done,
                note=note,
                stop=stop,
            )
        from grader.instructor.batch.pool import grade_locally
        from grader.instructor.batch.student import record_failure

        return grade_locally(
            discovery.students,
            plan,
            db_url=db_url,
            scratch=scratch,
            jobs=options.jobs or default_jobs(),
            on_done=done,
            on_failed=lambda source, error: record_failure(source.student, plan, book, error),
            stop=stop,
        )


def _check_complete(book: Gradebook, discovery: Discovery, exercises: Sequence[str]) -> None:
    """Every (student, exercise) must now have a current row; else an internal error."""
    have = book.current_keys()
    gaps = [
        f"{source.student}/{exercise}"
        for source in discovery.students
        for exercise in exercises
        if (source.student, exercise) not in have
    ]
    if gaps:
        raise InternalError(detail=f"no gradebook row for {', '.join(gaps[:5])}")
