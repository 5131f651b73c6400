"""``ForkServer.run_until``: once ``stop`` says so, the runs in flight are killed and the
rest never start; the server goes on serving."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.runner import ForkServer, Limits, Observations, RunnerError, RunRequest
from tests.unit.grader.runner.helpers import FILENAME, run, server_for


@pytest.fixture(params=["namespaces", "rlimits"])
def server(request: pytest.FixtureRequest) -> Iterator[ForkServer]:
    yield from server_for(request.param)


def _first_failed(index: int, observed: Observations) -> bool:
    return index == 0 and not observed.ok


def test_a_stop_cancels_the_runs_in_flight_and_starts_no_more(
    server: ForkServer, tmp_path: Path
) -> None:
    marker = tmp_path / "started"
    slow = (
        f"try:\n    open({str(marker)!r}, 'a').write('x')\nexcept OSError:\n    pass\n"
        "import time\ntime.sleep(20)\n"
    )
    limits = Limits(wall_seconds=25)
    requests = [
        RunRequest("import time; time.sleep(0.5); raise SystemExit(3)", FILENAME, limits=limits),
        RunRequest(slow, FILENAME, limits=limits),
        RunRequest(slow, FILENAME, limits=limits),
        RunRequest(slow, FILENAME, limits=limits),
    ]
    start = time.monotonic()
    results = server.run_until(requests, max_parallel=2, stop=_first_failed)
    assert time.monotonic() - start < 10, "the run in flight was not cancelled"
    assert results[0] is not None and results[0].exit_code == 3
    assert results[1:] == [None, None, None]
    if server.isolation == "rlimits":  # the runs share the host's file system there
        assert marker.read_text() == "x", "only the run in flight may have started"
    assert run(server, "print('still serving')").stdout == "still serving\n"


def test_without_a_stop_every_run_reports(server: ForkServer) -> None:
    requests = [RunRequest("raise SystemExit(3)", FILENAME)] + [RunRequest("pass", FILENAME)] * 3
    results = server.run_until(requests, max_parallel=2, stop=None)
    assert [r.exit_code if r else None for r in results] == [3, 0, 0, 0]
    never = server.run_until(requests, max_parallel=2, stop=lambda index, observed: False)
    assert all(r is not None for r in never)


def test_a_passed_descriptor_that_cannot_be_made_stops_the_batch(server: ForkServer) -> None:
    """``pass_fd_for`` makes each run's descriptor as the run starts; when it fails, the runs
    in flight are cancelled, nothing more starts, its error is raised, and the server goes
    on serving."""
    made: list[socket.socket] = []

    def pass_fd_for(index: int) -> int:
        if index == 1:
            raise RunnerError("no oracle for this one")
        made.extend(socket.socketpair())
        return made[-1].fileno()

    requests = [RunRequest("import time; time.sleep(20)", FILENAME, limits=Limits(25))] * 4
    start = time.monotonic()
    try:
        with pytest.raises(RunnerError, match="no oracle for this one"):
            server.run_until(requests, max_parallel=2, pass_fd_for=pass_fd_for)
    finally:
        for sock in made:
            sock.close()
    assert time.monotonic() - start < 10, "the runs in flight were not cancelled"
    assert len(made) == 2, "run 0 got its socket, run 1 failed to, no later run started"
    assert run(server, "print('still serving')").stdout == "still serving\n"


def test_any_error_of_pass_fd_for_is_a_runner_error(server: ForkServer) -> None:
    def pass_fd_for(index: int) -> int:
        raise OSError(24, "Too many open files")

    with pytest.raises(RunnerError, match="Too many open files"):
        server.run_until([RunRequest("pass", FILENAME)] * 3, pass_fd_for=pass_fd_for)
    assert run(server, "print('still serving')").stdout == "still serving\n"
