"""Grade one file through the grading service inside the test process, as ``grader check
--json`` would, and keep everything it said.

``grader check`` is a thin front end over ``grader.app.service.GradingService``: it builds
the settings, calls ``service.check`` (a fresh student session, so a fork server of its
own, per call) and prints ``report_to_dict`` (or ``cli.report_error`` for a
``GraderError``). ``Corpus`` does the same with one long-lived service, so the corpus pays
the interpreter start-up, the grader's imports and the masters' preload once instead of
once per case. What the command adds on top, and how this module keeps it:

* **Exit code:** ``exit_code_for(report.status)``, or the error's own through
  ``cli.report_error``; an exception that is not a ``GraderError`` is an internal error
  (exit 3) as in ``cli._main``, its traceback kept in ``stderr`` so the verdict names it.
* **Output:** the same renderer, ``given`` as ``commands.check.run`` computes it. A
  ``GraderError`` is language-free until rendered, so an input error is graded once and
  rendered in both languages (``Outcome.render``).
* **Its stderr:** Python-level writes during the check, and everything the masters and
  every process they fork write to fd 2: the masters are started with fd 2 on a tap file
  (``Tap``), and each case reads what was added while it ran.
* **A hang:** the check runs in a thread; after ``timeout`` s the case is reported as
  "the grader hung" (exit None, as when the CLI is killed) and the service is replaced.
* **Processes:** the masters are children of this process, alive on purpose: they are
  registered with ``residue.allow_children``. What they fork for one student (a host, an
  oracle) must be gone when the check returns (``Corpus.leftovers``), and a master must not
  die or change while the corpus runs: a case that could end a shared master would be a
  finding in batch grading too.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.hostile.grading import Graded
from tests.hostile.residue import allow_children, children_of

if TYPE_CHECKING:
    from grader.errors import GraderError
    from grader.judge.results import CheckReport
    from grader.runner import Limits

#: What a master forked for one check may take to go once the check returned (it is
#: signalled when the session closes; on a busy machine the exit can lag a little).
CHILD_GRACE = 5.0


class Tap:
    """A file on fd 2 while the masters start and while a case runs: their stderr (and
    that of everything they fork) lands here, and ``read_new`` hands out what was added."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self._offset = 0

    @contextlib.contextmanager
    def on_fd2(self) -> Iterator[None]:
        saved = os.dup(2)
        try:
            os.dup2(self._file.fileno(), 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)

    def read_new(self) -> str:
        self._file.seek(self._offset)
        data = self._file.read()
        self._offset += len(data)
        return data.decode("utf-8", "replace")

    def close(self) -> None:
        self._file.close()


@dataclass(frozen=True)
class Outcome:
    """One in-process check: a report, or the error the CLI would have reported."""

    exercise: str
    path: Path
    report: CheckReport | None
    error: GraderError | None  # anything unexpected is an internal error, as in the CLI
    lang: str  # the language the report was made in (an error renders in any)
    stderr: str
    seconds: float
    hung: bool = False

    def render(self, lang: str | None = None) -> Graded:
        """What ``grader check --json --lang <lang>`` prints and exits with."""
        from grader.errors import exit_code_for
        from grader.frontends.cli import report_error
        from grader.render.json_out import report_to_dict

        lang = lang or self.lang
        argv = ("<in-process>", "check", self.exercise, "--path", str(self.path), "--json")
        if self.hung:
            return Graded(argv, None, "", self.stderr, self.seconds)
        if self.report is not None:
            if lang != self.lang:
                raise ValueError(f"a report is made in one language ({self.lang}), not {lang}")
            report = self.report
            given = self.exercise if self.exercise.strip() != report.exercise else None
            payload = report_to_dict(report, lang, given=given)
            text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
            return Graded(argv, exit_code_for(report.status), text, self.stderr, self.seconds)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            assert self.error is not None
            code = report_error(self.error, lang, True, self.exercise)
        return Graded(argv, code, out.getvalue(), self.stderr + err.getvalue(), self.seconds)


class Corpus:
    """One ``GradingService`` (course root ``root``, sandbox ``isolation``, run ``limits``,
    default the grader's) for many cases."""

    def __init__(self, root: Path, isolation: str, tap: Tap, limits: Limits | None = None) -> None:
        self.root = root
        self.isolation = isolation
        self.tap = tap
        self.limits = limits
        self._service: Any = None
        self._masters: dict[tuple[str, ...], int] = {}
        self._start()

    def _start(self) -> None:
        from grader.app.service import GradingService, GradingSettings, merged_preload
        from grader.judge.exercises import exercise_ids, get_exercise
        from grader.judge.texts import registered_texts

        registered_texts()
        settings = GradingSettings.from_env(
            root=self.root, lang="en", isolation=self.isolation, self_check=True, limits=self.limits
        )
        self._service = GradingService(settings)
        preloads = {merged_preload([get_exercise(i)]) for i in exercise_ids()}
        with self.tap.on_fd2():
            self._masters = {p: self._service.master(p).pid for p in sorted(preloads) if p}
        allow_children(self._masters.values())

    def grade(self, exercise: str, path: Path, *, timeout: float, lang: str = "en") -> Outcome:
        done: dict[str, Any] = {}

        def check() -> None:
            from grader.errors import GraderError, InternalError

            try:
                done["report"] = self._service.check(exercise, path, lang=lang).report
            except GraderError as error:
                done["error"] = error
            except BaseException as error:  # as cli._main: never a traceback, an exit 3
                detail = f"{type(error).__name__}: {error}"[:300]
                done["error"] = InternalError(detail=detail)
                done["traceback"] = traceback.format_exc()

        err = io.StringIO()
        started = time.monotonic()
        with self.tap.on_fd2(), contextlib.redirect_stderr(err):
            worker = threading.Thread(target=check, name="in-process-check", daemon=True)
            worker.start()
            worker.join(timeout)
        seconds = time.monotonic() - started
        hung = worker.is_alive()
        stderr = err.getvalue() + self.tap.read_new() + done.get("traceback", "")
        if hung:
            self._replace()
        return Outcome(
            exercise, path, done.get("report"), done.get("error"), lang, stderr, seconds, hung
        )

    def leftovers(self) -> list[str]:
        """The masters alive and unchanged, and nothing they forked for the check left."""
        from grader.runner.master import Master

        found = []
        for preload, pid in self._masters.items():
            master: Master = self._service.master(preload)
            if master.pid != pid or not master.alive:
                found.append(f"master {pid} ({preload[0]}, ...) died during the case")
        deadline = time.monotonic() + CHILD_GRACE
        while True:
            forked = [(m, c) for m in self._masters.values() for c in children_of(m)]
            if not forked or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        found += [f"{c}: forked by master {m}, still alive after the check" for m, c in forked]
        if found:
            self._replace()
        return found

    def _replace(self) -> None:
        """A fresh service (with fresh masters) after a hang or a master in a bad state."""
        with contextlib.suppress(Exception):
            self._service.close()
        self._start()

    def close(self) -> None:
        self._service.close()


@contextlib.contextmanager
def opened_corpus(root: Path, isolation: str, limits: Limits | None = None) -> Iterator[Corpus]:
    """A ``Corpus`` with a ``Tap`` of its own, both closed at the end."""
    tap = Tap()
    corpus = Corpus(root, isolation, tap, limits)
    try:
        yield corpus
    finally:
        corpus.close()
        tap.close()
