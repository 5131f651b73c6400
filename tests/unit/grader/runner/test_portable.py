"""The portable runner: a fresh interpreter per run, the forking modes' contract, a private
loopback channel that only the run's own secret opens, and no Linux-only call anywhere."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from grader.runner import Limits, PreludeError, RunRequest
from grader.runner.portable import SECRET_BYTES, PortableServer
from tests.unit.grader.runner.helpers import (
    PLUGINS_OF_PYTEST_MAIN,
    PRELUDES,
    installed_pytest_plugins,
)

FILENAME = "probe.py"


@pytest.fixture(scope="module")
def server() -> Iterator[PortableServer]:
    with PortableServer() as made:
        yield made


def request(source: str, **kwargs: object) -> RunRequest:
    return RunRequest(source, FILENAME, **kwargs)  # type: ignore[arg-type]


def test_exit_status_output_and_records_follow_the_forking_modes_contract(
    server: PortableServer,
) -> None:
    ok, exits, raises, hard = server.run_many(
        [
            request("print('héllo 你好')"),
            request("import sys; sys.exit(3)"),
            request("def f():\n    raise ValueError('no')\nf()\n"),
            request("import os; print('x', flush=True); os._exit(7)"),
        ]
    )
    assert (ok.exit_code, ok.stdout, ok.isolation, ok.ok) == (0, "héllo 你好\n", "portable", True)
    assert exits.exit_code == 3 and exits.uncaught is None
    assert raises.exit_code == 1 and raises.uncaught is not None
    assert raises.uncaught["type"] == "ValueError" and raises.uncaught["line"] == 2
    assert 'File "probe.py", line 3' in raises.stderr and "portable_child" not in raises.stderr
    assert (hard.exit_code, hard.stdout) == (7, "x\n")


def test_the_prelude_records_and_a_failing_prelude_is_the_exercises_fault(
    server: PortableServer,
) -> None:
    [seen] = server.run_many(
        [request("pass", prelude=f"{PRELUDES}:record_args", prelude_args={"n": 3})]
    )
    assert [dict(r) for r in seen.records] == [{"kind": "args", "n": 3}]
    with pytest.raises(PreludeError):
        server.run(request("pass", prelude=f"{PRELUDES}:no_such_prelude"))


def test_the_wall_limit_counts_from_the_students_first_line_and_ends_the_run(
    server: PortableServer,
) -> None:
    slow = server.run(request("import time; time.sleep(30)", limits=Limits(wall_seconds=1.0)))
    assert (slow.timed_out, slow.limit_hit, slow.exit_code) == (True, "wall", None)
    assert slow.wall_seconds < 10


def test_output_over_the_cap_ends_the_run(server: PortableServer) -> None:
    flood = server.run(request("while True: print('x' * 1000)", limits=Limits(output_bytes=10_000)))
    assert flood.stdout_truncated and flood.limit_hit == "output"
    assert len(flood.stdout) == 10_000


def test_stop_cancels_the_rest(server: PortableServer) -> None:
    results = server.run_until(
        [request("import sys; sys.exit(1)")] + [request("pass")] * 4,
        max_parallel=1,
        stop=lambda index, observed: not observed.ok,
    )
    assert results[0] is not None and results[0].exit_code == 1
    assert results[1:] == [None] * 4


def test_a_promoted_request_starts_next(server: PortableServer) -> None:
    """As ``ForkServer.run_until``: after a run hit its wall limit, the named one starts next."""
    hang = request("import time\ntime.sleep(30)\n", limits=Limits(wall_seconds=1))
    clock = request("import time\nprint(time.monotonic())\n")
    results = server.run_until(
        [hang, clock, clock, clock],
        max_parallel=1,
        promote=lambda index, observed: 3 if observed.timed_out else None,
    )
    assert results[0] is not None and results[0].timed_out
    started = [float(run.stdout) for run in results[1:] if run is not None]
    assert len(started) == 3 and started[2] < min(started[:2]), started  # 3 before 1 and 2


def test_each_run_talks_to_its_own_channel_and_no_descriptor_is_passed(
    server: PortableServer,
) -> None:
    heard: dict[int, bytes] = {}

    def serve(index: int, sock: socket.socket) -> None:
        heard[index] = sock.recv(100)
        sock.sendall(f"you are {index}".encode())

    probe = "caller_channel.sendall(b'hello')\nprint(caller_channel.recv(100).decode())\n"
    exposed = request(probe, prelude=f"{PRELUDES}:expose_channel")
    runs = server.run_until([exposed] * 3, max_parallel=3, serve_channel=serve)
    assert sorted(heard) == [0, 1, 2] and set(heard.values()) == {b"hello"}
    assert [run.stdout.strip() if run else None for run in runs] == [
        "you are 0",
        "you are 1",
        "you are 2",
    ]
    with pytest.raises(Exception, match="no descriptor"):
        server.run_until([request("pass")], pass_fd_for=lambda index: 4)


def test_a_connection_without_a_runs_secret_is_dropped(server: PortableServer) -> None:
    served: list[int] = []

    def serve(index: int, sock: socket.socket) -> None:
        served.append(index)
        sock.recv(1)

    probe = (
        "import socket\n"
        "port = caller_channel.getpeername()[1]\n"
        "guess = socket.create_connection(('127.0.0.1', port))\n"
        f"guess.sendall(b'x' * {SECRET_BYTES})\n"
        "guess.settimeout(5)\n"
        "print('dropped' if guess.recv(1) == b'' else 'served')\n"
    )
    exposed = request(probe, prelude=f"{PRELUDES}:expose_channel")
    [run] = server.run_until([exposed], serve_channel=serve)
    assert run is not None and run.stdout == "dropped\n" and served == [0]


def test_pytest_main_loads_no_plugin_installed_beside_the_grader(server: PortableServer) -> None:
    """As in the forking modes (``test_runner_behaviour``): the run's environment
    (``RUN_ENVIRONMENT``) keeps the plugins of the grader's venv out of ``pytest.main()``."""
    assert installed_pytest_plugins(), "the dev venv should hold pytest plugins to refuse"
    result = server.run(request(PLUGINS_OF_PYTEST_MAIN))
    assert "PLUGINS []" in result.stdout.splitlines(), (result.stdout, result.stderr)
