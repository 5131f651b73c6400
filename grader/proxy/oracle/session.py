"""One oracle per run: a thread serving the grader's end of a socketpair.

``run_with_oracles(server, request, target, names, source=...)`` runs ``request`` once per
implementation name, each run with its own oracle (the student's end is passed to the run
as its ``pass_fd``; made as that run starts, so a run that never starts has none), and
returns the observations in order. The oracles live in the
student's oracle process (``grader.proxy.oracle.remote``, what the service uses) or on threads
of this process (``LocalOracles``). A run whose conversation broke
(the student's side sent something that is not part of it, or went silent) counts as a
failed run; an ``OracleBug`` (a grader bug) raises ``RunnerError``: an internal error,
never a verdict.
"""

from __future__ import annotations

import contextlib
import dataclasses
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from grader.proxy.oracle.implementations import answer_for, encoders_for
from grader.proxy.oracle.link import Answer, ConversationBroken, Encoder, Ended, Link, OracleBug
from grader.runner import ForkServer, Observations, RunnerError, RunRequest
from grader.runner.portable import PortableServer
from grader.variants.targets import Target

#: The oracle gives up on a student's side that stays silent this long in the middle of a
#: frame or an operation (the run's own wall limit normally ends it much sooner).
SILENCE_SECONDS = 120.0
JOIN_SECONDS = 5.0


@dataclass(frozen=True)
class Outcome:
    calls: int = 0
    broken: str | None = None
    bug: str | None = None


class OracleHandle(Protocol):
    """One run's oracle: the student's end to pass to the run, and how it went."""

    @property
    def student_fd(self) -> int: ...

    def close(self) -> Outcome:
        """After the run: end the conversation and say how it went."""
        ...


class OracleSource(Protocol):
    """Where the oracles of one submission's runs live (this process, or an oracle process)."""

    def oracle(self, target: Target | str, name: str) -> OracleHandle: ...

    def close(self) -> None:
        """After the submission's runs: nothing of them stays."""
        ...


def hang_up(ours: socket.socket, theirs: socket.socket) -> None:
    """After the run: drop the student's end and shut ours down, which ends the conversation
    for whoever holds a copy of our end (the thread serving it, in this process or not)."""
    theirs.close()
    with contextlib.suppress(OSError):
        ours.shutdown(socket.SHUT_RDWR)


def converse(sock: socket.socket, answer: Answer, encoders: Sequence[Encoder] = ()) -> Outcome:
    """Serve one conversation on ``sock`` until it ends; how it went (never raises)."""
    link = Link(sock, answer, encoders)
    try:
        try:
            link.serve()
        except Ended:
            pass
        except ConversationBroken as exc:
            return Outcome(link.calls, broken=str(exc)[:300])
        except OracleBug as exc:
            return Outcome(link.calls, bug=str(exc)[:500])
        except BaseException as exc:  # never let a thread die silently: it is a grader bug
            return Outcome(link.calls, bug=f"{type(exc).__name__}: {exc}"[:500])
        return Outcome(link.calls)
    finally:  # the student's side sees the end at once (a proxy waiting gets EOF)
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)


class Oracle:
    """An oracle on a thread of this process (``LocalOracles``; tests drive it directly)."""

    def __init__(self, target: Target | str, name: str) -> None:
        answer, encoders = answer_for(target, name), encoders_for(target)
        self._ours, self._theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._ours.settimeout(SILENCE_SECONDS)
        self._outcome = Outcome()
        self._thread = threading.Thread(
            target=self._serve, args=(answer, encoders), name="grader-oracle", daemon=True
        )
        self._thread.start()

    @property
    def student_fd(self) -> int:
        return self._theirs.fileno()

    def close(self) -> Outcome:
        hang_up(self._ours, self._theirs)
        self._thread.join(JOIN_SECONDS)
        self._ours.close()
        return self._outcome

    def _serve(self, answer: Answer, encoders: Sequence[Encoder]) -> None:
        self._outcome = converse(self._ours, answer, encoders)


class LocalOracles:
    """Oracles on threads of the grader's process (a server not made by a ``Master``)."""

    def oracle(self, target: Target | str, name: str) -> OracleHandle:
        return Oracle(target, name)

    def close(self) -> None:
        """Each oracle thread ends with its run: nothing to do."""


def run_with_oracles(
    server: ForkServer | PortableServer,
    request: RunRequest,
    target: Target | str,
    names: Sequence[str],
    *,
    max_parallel: int,
    source: OracleSource | None = None,
    stop: Callable[[int, Observations], bool] | None = None,
    promote: Callable[[int, Observations], int | None] | None = None,
) -> list[Observations | None]:
    """``source``: where the oracles live (default: threads of this process). ``stop`` and
    ``promote``: as for ``ForkServer.run_until`` (the runs it cancels or never starts are
    None); without ``stop`` every run's observations are there."""
    if isinstance(server, PortableServer):
        return _portable_runs(
            server, request, target, names, max_parallel=max_parallel, stop=stop, promote=promote
        )
    source = source or LocalOracles()
    started: dict[int, OracleHandle] = {}

    def pass_fd_for(index: int) -> int:
        """Each run's oracle is made as the run starts, so that its socket and the run's
        pipes are made together (``grader.runner.passfd``): their numbers say nothing of
        the run's place in the batch."""
        started[index] = _started(source, target, names[index])
        return started[index].student_fd

    try:
        results = server.run_until(
            [request] * len(names),
            max_parallel=max_parallel,
            stop=stop,
            pass_fd_for=pass_fd_for,
            promote=promote,
        )
    finally:
        outcomes = {index: handle.close() for index, handle in started.items()}
    bugs = [outcome.bug for outcome in outcomes.values() if outcome.bug]
    if bugs:
        raise RunnerError(f"the grader's oracle failed: {bugs[0]}")
    return [
        None if run is None else _judged(run, outcomes[index]) for index, run in enumerate(results)
    ]


def _portable_runs(
    server: PortableServer,
    request: RunRequest,
    target: Target | str,
    names: Sequence[str],
    *,
    max_parallel: int,
    stop: Callable[[int, Observations], bool] | None,
    promote: Callable[[int, Observations], int | None] | None,
) -> list[Observations | None]:
    """The portable runner (``grader.runner.portable``) hands each run's authenticated
    loopback socket over instead of taking a descriptor; its oracles are threads of this
    process, serving that socket as ``Oracle`` serves its end of a socketpair."""
    outcomes: dict[int, Outcome] = {}

    def serve(index: int, sock: socket.socket) -> None:
        sock.settimeout(SILENCE_SECONDS)
        try:
            answer, encoders = answer_for(target, names[index]), encoders_for(target)
        except Exception as exc:  # an import that fails: the grader's fault, never a verdict
            outcomes[index] = Outcome(bug=f"the oracle could not start: {exc!r}"[:500])
            return
        outcomes[index] = converse(sock, answer, encoders)

    results = server.run_until(
        [request] * len(names),
        max_parallel=max_parallel,
        stop=stop,
        serve_channel=serve,
        promote=promote,
    )
    bugs = [outcome.bug for outcome in outcomes.values() if outcome.bug]
    if bugs:
        raise RunnerError(f"the grader's oracle failed: {bugs[0]}")
    return [
        None if run is None else _judged(run, outcomes.get(index, Outcome()))
        for index, run in enumerate(results)
    ]


def _started(source: OracleSource, target: Target | str, name: str) -> OracleHandle:
    try:
        return source.oracle(target, name)
    except Exception as exc:  # an import or a thread that cannot start: the grader's fault
        raise RunnerError(f"the grader's oracle could not start: {exc!r}") from exc


def _judged(run: Observations, outcome: Outcome) -> Observations:
    """A broken conversation is a failed run, whatever the probe did afterwards."""
    if outcome.broken is None or not run.ok:
        return run
    uncaught = {
        "type": "GraderConnectionLost",
        "message": f"the conversation with the code under test broke: {outcome.broken}",
        "line": None,
        "traceback": "",
    }
    return dataclasses.replace(run, exit_code=1, uncaught=uncaught)
