"""A descriptor the caller passes with a run reaches the student as fd 4, and only that run."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits, RunRequest
from grader.runner.passfd import PASSED_FD
from tests.unit.grader.runner.helpers import server_for

TALK = f"""
import os, stat
os.write({PASSED_FD}, b"ping " + os.environ.get("X", "").encode())
print(os.read({PASSED_FD}, 100).decode())
sockets = []
for name in os.listdir("/proc/self/fd"):
    try:
        if stat.S_ISSOCK(os.fstat(int(name)).st_mode):
            sockets.append(int(name))
    except OSError:
        pass
print(sorted(sockets))
"""
NOTHING_PASSED = f"""
import os
try:
    os.fstat({PASSED_FD})
except OSError:
    print("no fd {PASSED_FD}")
"""


@pytest.fixture(params=["namespaces", "rlimits"])
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(request.param)


def _request(source: str, fd: int | None) -> RunRequest:
    return RunRequest(source, "probe.py", limits=Limits(wall_seconds=10.0), pass_fd=fd)


def test_the_student_talks_to_the_caller_over_the_passed_socket(server: ForkServer) -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.settimeout(10)
        ours.sendall(b"pong")
        result = server.run(_request(TALK, theirs.fileno()))
        assert result.ok, result.stderr
        assert result.stdout.split("\n")[:2] == ["pong", f"[{PASSED_FD}]"]
        assert ours.recv(100) == b"ping "
        theirs.close()
        assert ours.recv(100) == b"", "the run (and the host) must not keep the socket open"


def test_runs_in_parallel_each_get_their_own_socket(server: ForkServer) -> None:
    pairs = [socket.socketpair() for _ in range(3)]
    for index, (ours, _) in enumerate(pairs):
        ours.sendall(f"run-{index}".encode())
    requests = [_request(TALK, theirs.fileno()) for _, theirs in pairs]
    requests.append(_request(NOTHING_PASSED, None))
    results = server.run_many(requests, max_parallel=4)
    shown = [r.stdout.split("\n")[0] for r in results]
    assert shown == ["run-0", "run-1", "run-2", f"no fd {PASSED_FD}"]
    # each run holds its own socket and no other (not the host's descriptor channel either)
    assert all(r.stdout.split("\n")[1] == f"[{PASSED_FD}]" for r in results[:3])
    for ours, theirs in pairs:
        theirs.close()
        ours.settimeout(10)
        assert ours.recv(100) == b"ping "
        assert ours.recv(100) == b""
        ours.close()
