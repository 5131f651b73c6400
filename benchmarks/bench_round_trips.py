"""The oracle's round trips per run: frames and CPU time, each exercise's reference probe.

    python benchmarks/bench_round_trips.py [--runs 40]
    /work/wt/base/.venv/bin/python benchmarks/bench_round_trips.py   # another tree's grader

For each code exercise: one master, one fork server and one oracle process, as the batch
has them; the reference probe is run ``--runs`` times against the real implementation,
one at a time. Per run: the frames the oracle sent (its operations and its answers), the
CPU time of the fork server's tree (server, zygote, the run: the run's side of the
conversation included) and of the oracle process (its side), from ``/proc/<pid>/stat``, so
the figures hold on a shared machine. Last, one bare round trip: the wire alone between two
processes (``bare_frame``), the least an out-of-process oracle pays per frame. Imports
nothing of its own tree (``grader`` is the running Python's), so two trees can be taken in
turn.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any

TICK = float(os.sysconf("SC_CLK_TCK"))


def _cpu(pid: int) -> float:
    """Own and reaped CPU seconds of ``pid`` and its children."""
    total = 0.0
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    for each in (pid, *(int(k) for k in kids)):
        try:
            stat = Path(f"/proc/{each}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        total += sum(int(x) for x in fields[11:15]) / TICK
    return total


def _reference(exercise_id: str) -> tuple[Any, Any, list[str]]:
    """The exercise's target, a run request for its reference solution, and the preload."""
    from grader.app.service import merged_preload
    from grader.judge.exercises import get_exercise
    from grader.judge.grading import PRELUDE
    from grader.proxy.oracle import link
    from grader.runner import RunRequest

    exercise = get_exercise(exercise_id)
    root = Path(link.__file__).resolve().parents[3]
    source = (root / "solutions" / exercise_id / exercise.student_file).read_text("utf-8")
    target = exercise.function_under_test
    request = RunRequest(
        source=source,
        filename=exercise.student_file,
        prelude=PRELUDE,
        prelude_args={"target": target.to_json()},
    )
    return target, request, list(merged_preload([exercise]))


def measure(exercise_id: str, runs: int) -> dict[str, float]:
    from grader.proxy.oracle.remote import OracleProcess
    from grader.proxy.oracle.session import run_with_oracles
    from grader.runner import Master

    target, request, preload = _reference(exercise_id)
    with Master(preload=preload, isolation="auto") as master, master.server() as server:
        oracles = OracleProcess.start(master, target)
        try:
            run_with_oracles(server, request, target, ["real"], max_parallel=1, source=oracles)
            host, helper = server._proc.pid, oracles._process.pid
            run_side, oracle_side = _cpu(host), _cpu(helper)
            found = run_with_oracles(
                server, request, target, ["real"] * runs, max_parallel=1, source=oracles
            )
            run_side, oracle_side = _cpu(host) - run_side, _cpu(helper) - oracle_side
        finally:
            oracles.close()
        assert all(run is not None and run.ok for run in found), found
    return {
        "run_side_ms": round(1000 * run_side / runs, 2),
        "oracle_side_ms": round(1000 * oracle_side / runs, 2),
    }


#: A typical operation frame of a reference run, as the run sends it (one attribute + call).
SAMPLE_FRAME = {"op": "callattr", "h": 3, "name": "execute", "args": [{"$stmt": "receipt_insert"}]}


def bare_frame(count: int = 2000) -> dict[str, float]:
    """One round trip with nothing in it but the wire: a forked echo process answers each
    frame (``wire.frame``/``parse``, over a socketpair as the oracle's), one at a time. Its
    CPU per round trip, both sides, is the least any out-of-process oracle pays per frame
    (the echo has no children: ``_cpu`` is its own)."""
    from grader.proxy import wire

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    pid = os.fork()
    if pid == 0:  # the echo: read a frame, answer one
        ours.close()
        try:
            while header := theirs.recv(wire.HEADER.size, socket.MSG_WAITALL):
                body = theirs.recv(wire.frame_size(header), socket.MSG_WAITALL)
                theirs.sendall(wire.frame({"ok": wire.parse(body)["h"]}))
        finally:
            os._exit(0)
    theirs.close()
    before, started = time.process_time(), _cpu(pid)
    for _ in range(count):
        ours.sendall(wire.frame(SAMPLE_FRAME))
        header = ours.recv(wire.HEADER.size, socket.MSG_WAITALL)
        wire.parse(ours.recv(wire.frame_size(header), socket.MSG_WAITALL))
    mine, echo = time.process_time() - before, _cpu(pid) - started
    ours.close()
    os.waitpid(pid, 0)
    return {
        "caller_us": round(1e6 * mine / count, 1),
        "answerer_us": round(1e6 * echo / count, 1),
    }


def frames(exercise_id: str) -> int:
    """Frames the oracle sends in one reference run (an oracle on a thread, counted)."""
    from grader.proxy.oracle import link
    from grader.proxy.oracle.session import run_with_oracles
    from grader.runner import Master

    target, request, preload = _reference(exercise_id)
    sent, lock, send = [0], threading.Lock(), link.Link._send

    def counted(self: link.Link, message: object) -> None:
        with lock:
            sent[0] += 1
        send(self, message)

    link.Link._send = counted  # type: ignore[method-assign]
    try:
        with Master(preload=preload, isolation="auto") as master, master.server() as server:
            run_with_oracles(server, request, target, ["real"], max_parallel=1)
    finally:
        link.Link._send = send  # type: ignore[method-assign]
    return sent[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    from grader.proxy.oracle import link

    found = {"tree": str(Path(link.__file__).resolve().parents[3]), "load": os.getloadavg()}
    for exercise_id in ("EX-11-01", "EX-12-01", "EX-13-01"):
        found[exercise_id] = {"frames": frames(exercise_id), **measure(exercise_id, args.runs)}
        print(exercise_id, json.dumps(found[exercise_id]), flush=True)
    found["bare_frame"] = bare_frame()
    print("one bare round trip (the wire alone), CPU per frame", json.dumps(found["bare_frame"]))
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
