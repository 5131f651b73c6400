"""The oracle process of one submission: the implementations under test, out of the grader.

``OracleProcess.start(master, target)`` asks the student's ``Master`` to fork a helper
(``serve``, below). It is not sandboxed and never runs student code: it only answers the
conversations of one submission's runs, one thread each, exactly as ``session.Oracle``
does on a thread of the grader. Why a process of its own:

* it starts from the master's memory, where the effects exercises' SQLAlchemy and
  ticketflow are already imported, so the grader's process never imports them (~0.26 s of
  CPU per ``grader check EX-12-01`` that competed with the master's own start-up);
* the master never loads the stand-ins (it is what every run is forked from); the helper
  loads them after the fork, so no run's memory can hold them;
* one per judged submission, killed after its runs: nothing a conversation leaves in it
  (the real code caches per dialect name) reaches another submission or student; what one
  submission can leave is bounded by ``link.MAX_RECEIVED`` per run;
* it dies with the master (``PR_SET_PDEATHSIG``), so a grader that is killed leaves none.

Control socket (``SOCK_SEQPACKET``, one JSON object per packet), grader -> helper:
``{"op": "converse", "id", "target", "name"}`` with the helper's end of the run's
conversation socket; helper -> grader: ``{"op": "outcome", "id", "calls", "broken", "bug"}``
when that conversation has ended. The grader keeps its own copy of the helper's end to shut
the conversation down after the run, like ``session.Oracle.close``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import socket
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.proxy.oracle.implementations import answer_for, encoders_for, warm_up
from grader.proxy.oracle.session import (
    JOIN_SECONDS,
    SILENCE_SECONDS,
    OracleHandle,
    Outcome,
    converse,
    hang_up,
)
from grader.runner import RunnerError
from grader.variants.targets import Target, get_target

if TYPE_CHECKING:
    from grader.runner.forked import ForkedHost
    from grader.runner.master import Master

ENTRY = "grader.proxy.oracle.remote:serve"
MAX_PACKET = 1 << 16


def target_json(target: Target | str) -> dict[str, str]:
    declared = target if isinstance(target, Target) else get_target(target)
    return {
        "name": declared.name,
        "module": declared.module,
        "function": declared.function,
        "stand_ins": str(declared.stand_ins),
    }


def _target(shown: Any) -> Target:
    name, module, function = (str(shown[key]) for key in ("name", "module", "function"))
    return Target(name, module, function, stand_ins=Path(str(shown["stand_ins"])))


class OracleProcess:
    """The grader's side of one student's oracle process (an ``OracleSource``)."""

    def __init__(self, control: socket.socket, process: ForkedHost) -> None:
        self._control, self._process = control, process
        self._lock = threading.Lock()
        self._next_id = 0
        self._outcomes: dict[int, Outcome] = {}
        self._ended: str | None = None
        self._deadline: float | None = None  # for the reports awaited now (see ``outcome``)
        self._awaited: set[int] = set()

    @classmethod
    def start(cls, master: Master, warm: Target | str | None = None) -> OracleProcess:
        """Fork it from ``master``; it imports what ``warm``'s oracle needs straight away."""
        args = {"warm": None if warm is None else target_json(warm)}
        control, process = master.helper(ENTRY, args)
        return cls(control, process)

    def oracle(self, target: Target | str, name: str) -> OracleHandle:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            self._awaited.add(rid)
            message = {"op": "converse", "id": rid, "target": target_json(target), "name": name}
            try:
                socket.send_fds(self._control, [json.dumps(message).encode()], [ours.fileno()])
            except OSError as exc:
                ours.close()
                theirs.close()
                raise RunnerError(f"the oracle process is gone: {exc}") from exc
        return _RemoteOracle(self, rid, ours, theirs)

    def outcome(self, rid: int, timeout: float) -> Outcome:
        """How conversation ``rid`` went (waits for the helper's report). The reports of one
        batch share one ``timeout``, counted from the first wait: a helper that does not
        report by then is killed, and every report still awaited is a grader bug."""
        with self._lock:
            if self._deadline is None:
                self._deadline = time.monotonic() + timeout
            while rid not in self._outcomes:
                if self._ended:
                    return Outcome(bug=self._ended)
                try:
                    self._control.settimeout(max(0.001, self._deadline - time.monotonic()))
                    data = self._control.recv(MAX_PACKET)
                except (OSError, TimeoutError) as exc:
                    self._ended = f"the oracle process did not report in time: {exc}"
                    self._process.kill()
                    continue
                if not data:
                    self._ended = "the oracle process ended unexpectedly"
                    continue
                try:
                    report = json.loads(data)
                    found = (
                        int(report["id"]),
                        Outcome(int(report["calls"]), report["broken"], report["bug"]),
                    )
                except (ValueError, KeyError, TypeError) as exc:
                    self._ended = f"the oracle process sent a bad report: {exc!r}"[:300]
                    continue
                self._outcomes[found[0]] = found[1]
            self._awaited.discard(rid)
            if not self._awaited:  # the batch is over: the next one gets its own deadline
                self._deadline = None
            return self._outcomes.pop(rid)

    def close(self) -> None:
        """End it: it exits when its control socket closes; the kill makes sure."""
        with contextlib.suppress(OSError):
            self._control.shutdown(socket.SHUT_RDWR)
        self._control.close()
        self._process.kill()


class _RemoteOracle:
    def __init__(
        self, process: OracleProcess, rid: int, ours: socket.socket, theirs: socket.socket
    ) -> None:
        self._process, self._rid, self._ours, self._theirs = process, rid, ours, theirs

    @property
    def student_fd(self) -> int:
        return self._theirs.fileno()

    def close(self) -> Outcome:
        hang_up(self._ours, self._theirs)  # the helper holds a copy of our end
        self._ours.close()
        return self._process.outcome(self._rid, JOIN_SECONDS)


# -- the helper process ------------------------------------------------------------------


def serve(fd: int, args: Any) -> None:
    """The oracle process's loop (forked by the master; ``fd``: its control socket)."""
    control = socket.socket(fileno=fd)
    if isinstance(args, dict) and args.get("warm"):
        with contextlib.suppress(Exception):
            warm_up(_target(args["warm"]))
    lock = threading.Lock()
    while True:
        data, fds, _, _ = socket.recv_fds(control, MAX_PACKET, 1)
        if not data:
            return
        message = json.loads(data)
        if len(fds) != 1 or message.get("op") != "converse":
            return
        conversation = socket.socket(fileno=fds[0])
        threading.Thread(
            target=_converse,
            args=(control, lock, message, conversation),
            name="grader-oracle",
            daemon=True,
        ).start()


def _converse(
    control: socket.socket, lock: threading.Lock, message: dict[str, Any], sock: socket.socket
) -> None:
    sock.settimeout(SILENCE_SECONDS)
    try:
        target = _target(message["target"])
        answer, encoders = answer_for(target, str(message["name"])), encoders_for(target)
    except Exception as exc:  # an import that fails: the grader's fault, never a verdict
        outcome = Outcome(bug=f"the oracle could not start: {exc!r}"[:500])
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)  # the run sees the end at once, whoever holds a copy
    else:
        outcome = converse(sock, answer, encoders)
    finally:
        sock.close()
    report = {"op": "outcome", "id": message["id"], **dataclasses.asdict(outcome)}
    with lock, contextlib.suppress(OSError):
        control.send(json.dumps(report).encode())
