"""namespaces mode: a run's PID 1 is a small exec'd program (``sandbox.INIT``) beside the
student's process, which is the zygote's own child (``grader.runner.spawn``, ``zygote``).

The attacks: learn about the machine through PID 1's /proc entries; outlive the run by
killing the host; make the host's kill look like the student's own exit.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator

import pytest

from grader.runner import ForkServer, Limits, Master, Observations, RunnerError, RunRequest
from grader.runner.spawn import children_of

from .helpers import alive, marker, processes_with, require_namespaces, run


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    with ForkServer(isolation="namespaces") as server:
        yield server


LOOK_THROUGH_PID_1 = """
import json, os
found = {}
for name in ("root", "cwd", "exe", "environ", "fd", "maps", "ns/net", "ns/mnt"):
    try:
        found[name] = os.listdir(f"/proc/1/{name}") if name == "fd" else os.readlink(
            f"/proc/1/{name}") if name in ("root", "cwd", "exe") or name.startswith("ns/") else (
            open(f"/proc/1/{name}", "rb").read().decode(errors="replace"))
    except OSError as exc:
        found[name] = type(exc).__name__
for name in ("mountinfo", "net/tcp", "net/tcp6", "net/unix"):
    found[name] = open(f"/proc/1/{name}").read()
found["own_mountinfo"] = open("/proc/self/mountinfo").read()
found["pid1"] = open("/proc/1/cmdline", "rb").read().decode()
print(json.dumps(found))
"""


def test_pid_1_shows_nothing_of_the_machine(server: ForkServer) -> None:
    found = json.loads(run(server, LOOK_THROUGH_PID_1).stdout)
    assert found["pid1"] == "cat\x00"
    for name in ("root", "cwd", "exe", "environ", "fd", "maps", "ns/net", "ns/mnt"):
        assert found[name] == "PermissionError", name  # root's process: no ptrace access
    assert found["mountinfo"] == found["own_mountinfo"]  # the run's mounts, not the host's
    for table in ("net/tcp", "net/tcp6", "net/unix"):  # the run's empty network, not the host's
        assert len(found[table].splitlines()) <= 1, (table, found[table])


def test_killing_the_host_ends_the_run_and_its_pid_1() -> None:
    require_namespaces()
    tag = marker()
    server = ForkServer(isolation="namespaces")
    failed: list[BaseException] = []

    def long_run() -> None:
        sleeper = f"import time; time.sleep(60)  # {tag}"
        source = f"import os, sys\nos.execv(sys.executable, [sys.executable, '-c', {sleeper!r}])\n"
        try:
            run(server, source, limits=Limits(wall_seconds=60.0))
        except BaseException as exc:  # the host's death: a RunnerError
            failed.append(exc)

    thread = threading.Thread(target=long_run)
    thread.start()
    try:
        student = _wait_for(lambda: processes_with(tag))
        zygotes = children_of(server.pid)  # the host's one child forks every run
        inits = [pid for z in zygotes for pid in children_of(z) if _cmdline(pid) == b"cat\x00"]
        assert len(inits) == 1, inits
        host = server.pid
        os.kill(host, signal.SIGKILL)
        thread.join(10)
        assert [type(exc) for exc in failed] == [RunnerError]
        dead = _wait_for(lambda: not any(alive(pid) for pid in (*student, *zygotes)))
        assert dead, "the student's process or the zygote outlived the host"
        # Its zombie now belongs to the nearest reaper: this test process, a subreaper (see
        # tests/support/leaks.py). I ends once it is reaped, as any reaper does (a master
        # ignores SIGCHLD, so the kernel reaps for it).
        for pid in student:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        gone = _wait_for(lambda: not any(alive(pid) for pid in inits))
        assert gone, [(pid, _cmdline(pid)) for pid in inits if alive(pid)]
    finally:
        for pid in processes_with(tag):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        server.close()


def test_the_hosts_kill_is_never_taken_for_the_students_exit(server: ForkServer) -> None:
    own = run(server, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    assert (own.signal, own.timed_out, own.exit_code) == (signal.SIGKILL, False, None)
    late = run(server, "import time\ntime.sleep(30)\n", limits=Limits(wall_seconds=0.5))
    assert (late.signal, late.timed_out, late.limit_hit) == (signal.SIGKILL, True, "wall")
    spent = run(server, "while True:\n    pass\n", limits=Limits(wall_seconds=20, cpu_seconds=1))
    assert spent.limit_hit == "cpu" and spent.cpu_time is not None and spent.cpu_time > 0.5


def test_the_students_own_exit_status_and_rusage_are_the_hosts_observation(
    server: ForkServer,
) -> None:
    obs: Observations = run(server, "x = bytearray(64 << 20)\nraise SystemExit(7)\n")
    assert obs.exit_code == 7 and obs.signal is None
    assert obs.max_rss_bytes is not None and obs.max_rss_bytes >= 64 << 20
    assert obs.cpu_time is not None and obs.cpu_time > 0


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def _wait_for(found: object, seconds: float = 10.0) -> object:
    assert callable(found)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.05)
    return found()


SENDER = (
    "import os, signal, time\n"
    "signal.signal(signal.SIGUSR1, signal.SIG_IGN)\n"
    "time.sleep(0.3)  # the receiver is up by now\n"
    "os.kill(0, signal.SIGUSR1)  # everyone in my process group\n"
    "print(os.getpgid(0), os.getsid(0))\n"
)
RECEIVER = (
    "import signal, time\n"
    "got = []\n"
    "signal.signal(signal.SIGUSR1, lambda *_: got.append(1))\n"
    "time.sleep(1.0)\n"
    "print(got)\n"
)


def test_runs_in_flight_together_cannot_signal_each_other(server: ForkServer) -> None:
    """A process group spans pid namespaces: a run left in the host's group could reach
    every other run of it with kill(0, ...), a channel between the real run and a mutant."""
    receiver, sender = server.run_many(
        [RunRequest(RECEIVER, "r.py"), RunRequest(SENDER, "s.py")], max_parallel=2
    )
    assert receiver.stdout == "[]\n", receiver.stderr
    assert sender.stdout == "2 2\n", sender.stderr  # its own session and group, as PID 2


def test_one_students_run_cannot_signal_another_students_run() -> None:
    require_namespaces()
    with Master(isolation="namespaces") as master, master.server() as one, master.server() as two:
        found: list[Observations] = []
        receiving = threading.Thread(target=lambda: found.append(run(two, RECEIVER)))
        receiving.start()
        sent = run(one, SENDER)
        receiving.join(10)
    assert sent.exit_code == 0, sent.stderr
    assert [obs.stdout for obs in found] == ["[]\n"], found


def test_closing_a_server_leaves_no_zombie_for_its_reaper() -> None:
    """This test process is a subreaper (tests/support/leaks.py), as a master is: whatever a
    closed server's host leaves unreaped becomes our zombie. The host reaps its zygote."""
    require_namespaces()
    before = _zombies_of(os.getpid())
    with ForkServer(isolation="namespaces") as closing:
        assert run(closing, "print('ran')").stdout == "ran\n"
    time.sleep(0.2)
    assert _zombies_of(os.getpid()) - before == set()


def _zombies_of(parent: int) -> set[int]:
    return {pid for pid in children_of(parent) if not alive(pid)}
