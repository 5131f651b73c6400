"""The sandbox for an ordinary user (``grader.runner.userns``): no root, same properties.

Run as root (CI), each command here runs as uid 65534 with no capability, through
``setpriv``, in a mount namespace of its own where that user can reach the interpreter (a
root-only home holding it gets a world-readable stand-in); run as a user, as that user. So
the grader meets what a student's JupyterLab on Linux meets: an unprivileged user, and a
kernel that lets users make user namespaces.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from tests.e2e.conftest import FILES, REPO
from tests.support.access_time import STDLIB_FILE, stale_access_time
from tests.support.as_user import NOBODY, user_prefix

#: One group, so one worker: every command here runs as the same user, whose runs take turns
#: across hosts (``grader.runner.turns``), so side by side on several workers these tests
#: mostly wait for each other's turns, holding those workers idle.
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("as_a_user")]

DEVICES = ["fd", "full", "null", "ptmx", "pts", "random", "shm", "stderr", "stdin", "stdout"]
DEVICES += ["urandom", "zero"]


@pytest.fixture(scope="module")
def as_user() -> Iterator[list[str]]:
    """The command prefix that runs what follows as an ordinary user: this one, or as root
    65534 with no capability, with the interpreter and the course in reach."""
    yield user_prefix([sys.base_prefix, sys.prefix, str(REPO)])


#: The uid the commands run as, outside the sandbox.
USER = NOBODY if os.geteuid() == 0 else os.geteuid()


@pytest.fixture()
def home() -> Iterator[Path]:
    """A folder the user may read and write (pytest's own are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="as-user-"))
    os.chmod(folder, 0o755)
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _run(as_user: list[str], home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    return subprocess.run(
        [*as_user, sys.executable, *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=120,
        check=False,
    )


def _answer(home: Path, source: Path) -> Path:
    target = home / source.name
    shutil.copyfile(source, target)
    os.chmod(target, 0o644)
    return target


def test_a_user_gets_the_namespaces_sandbox_and_a_correct_answer_passes(
    as_user: list[str], home: Path
) -> None:
    answer = _answer(home, REPO / "solutions" / "EX-12-01" / "notification_once_probe.py")
    done = _run(as_user, home, "-m", "grader", "check", "EX-12-01", "--path", str(answer), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert (report["isolation"], report["official"], report["status"]) == (
        "namespaces",
        True,
        "passed",
    )


def test_a_users_run_reads_no_solution_nor_the_grader(as_user: list[str], home: Path) -> None:
    """The attack: a correct probe that first tries to read the course's secrets."""
    probe = home / "retry_policy_probe.py"
    shutil.copyfile(FILES / "probes" / "sees_no_secrets.py", probe)
    os.chmod(probe, 0o644)
    assert (REPO / "solutions" / "EX-11-01").is_dir()  # they are on the machine
    done = _run(as_user, home, "-m", "grader", "check", "EX-11-01", "--path", str(probe), "--json")
    report = json.loads(done.stdout)
    failed = [c for c in report["checks"] if not c["passed"]]
    assert (report["isolation"], report["status"]) == ("namespaces", "passed"), failed


#: Hostile cases that pass only if runs can talk: through the view, locks, the page cache,
#: kernel counters. Each says what it must get (``# expect:``) and for which exercise.
VOTES = (
    "vote_through_the_view",
    "vote_on_behaviour_through_flock",
    "vote_on_behaviour_through_page_cache",
    "leave_a_note_in_socket_cookies",
)
HOSTILE = REPO / "tests" / "hostile" / "files"


def _header(source: str, key: str) -> str:
    return next(
        line.split(":", 1)[1].strip()
        for line in source.splitlines()
        if line.startswith(f"# {key}:")
    )


@pytest.mark.parametrize("case", VOTES)
def test_a_users_runs_cannot_vote(as_user: list[str], home: Path, case: str) -> None:
    source = (HOSTILE / f"{case}.py").read_text(encoding="utf-8")
    exercise = _header(source, "exercise")
    starter = next((REPO / "exercises" / exercise).glob("*.py"))
    probe = home / starter.name
    probe.write_text(source, encoding="utf-8")
    os.chmod(probe, 0o644)
    done = _run(as_user, home, "-m", "grader", "check", exercise, "--path", str(probe), "--json")
    report = json.loads(done.stdout)
    assert (report["isolation"], report["status"]) == ("namespaces", _header(source, "expect"))


def test_a_users_runs_share_no_lock_reach_no_pid_1_and_lock_sqlite_as_outside(
    as_user: list[str], home: Path
) -> None:
    """The attacks of ``test_runner_view`` for a user: the device nodes are the machine's
    there (a user cannot make one), so two runs at once would see each other's locks on
    them; a user's runs go one by one instead (``ForkServer.one_at_a_time``), on one host
    and across hosts (``grader.runner.turns``)."""
    devices = {name: os.stat(f"/dev/{name}").st_mtime_ns for name in ("null", "zero", "full")}
    with stale_access_time() as old:  # runner_properties.py reads it
        done = _run(as_user, home, str(FILES / "as_user" / "runner_properties.py"))
        assert os.stat(STDLIB_FILE).st_atime == pytest.approx(old, abs=1)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert (found["uid"], found["isolation"], found["hold"]) == (USER, "namespaces", "holding\n")
    assert found["look"] == f"{['free'] * 5} 5\n"  # /proc/locks: the run's own flocks
    assert found["two_hosts"] == f"holding\n{['free'] * 5} 5\n"  # two hosts: turns
    assert found["heavy_holder"] == ["left a heavy holder\nfree\n"] * 3  # a turn's end
    around = found["around"]
    assert around["uid"] == NOBODY and around["null"] == 1
    assert around["turns"] == []  # the user's turn lock, held by this grader: out of reach
    assert around["dev"] == sorted(DEVICES)
    assert around["etc"] == sorted(
        ["group", "hosts", "ld.so.cache", "localtime", "nsswitch.conf", "passwd"]
    )
    assert not {"home", "run", "sys", "opt", "srv", "boot"} & set(around["root"])
    assert int(found["read"]) > 0
    assert found["touch"] == f"{['Read-only file system'] * 5}\n"
    assert {name: os.stat(f"/dev/{name}").st_mtime_ns for name in devices} == devices
    denied = dict.fromkeys(
        ("mem", "maps", "environ", "root", "cwd", "exe", "fd/0"), "PermissionError"
    )
    assert found["pid_1"] == {**denied, "fd": ["0", "1", "2"]}  # its own folder: names only
    assert found["sqlite"] == "database is locked\n"


def _in_namespaces(flags: list[str]) -> dict[str, object]:
    """``which_mode.py`` as root of a user namespace that ``unshare`` makes with ``flags``."""
    assert shutil.which("unshare"), "install util-linux: unshare missing"
    script = str(FILES / "as_user" / "which_mode.py")
    done = subprocess.run(
        ["unshare", *flags, sys.executable, script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_root_of_a_rootless_container_gets_the_sandbox_with_the_machines_devices() -> None:
    """Root of a user namespace mapping only itself, with its own PID, network and mount
    namespaces (a rootless container): the machine's mounts are locked there and no device
    node can be made, as for a user."""
    found = _in_namespaces(["-Urpfnm", "--mount-proc"])
    assert (found["uid"], found["reason"], found["isolation"]) == (0, None, "namespaces")
    assert found["one_at_a_time"] is True
    assert found["run"] == [NOBODY, sorted(DEVICES)]


def test_a_user_namespace_without_its_own_pid_namespace_falls_back_to_rlimits() -> None:
    """Root of a user namespace whose PID and network namespaces are the machine's: the zygote
    could not return to them after a run, so the probe says so and "auto" takes rlimits."""
    found = _in_namespaces(["-Ur"])
    assert "cannot return to its own namespaces" in str(found["reason"])
    assert (found["isolation"], found["one_at_a_time"]) == ("rlimits", False)
    assert isinstance(found["run"], list) and found["run"][0] == 0


TURN_HOLDER = REPO / "tests" / "unit" / "grader" / "runner" / "files" / "turn_holder.py"


def _start(as_user: list[str], home: Path, *argv: str) -> subprocess.Popen[str]:
    """``argv`` started as the user, every standard stream a pipe."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8"}
    return subprocess.Popen(
        [*as_user, sys.executable, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=home,
    )


def _lines_until(stream: IO[str], wanted: str, seconds: float = 90.0) -> Reading:
    """Reads ``stream`` to its end on a thread; returns once a line holds ``wanted``."""
    reading = Reading([], threading.Event(), threading.Thread())

    def read() -> None:
        for line in stream:
            reading.lines.append(line)
            if wanted in line:
                reading.found.set()

    reading.thread = threading.Thread(target=read, daemon=True)
    reading.thread.start()
    assert reading.found.wait(seconds), f"no {wanted!r} in {reading.lines}"
    return reading


@dataclass
class Reading:
    lines: list[str]
    found: threading.Event
    thread: threading.Thread

    def to_end(self) -> str:
        self.thread.join(timeout=30)
        return "".join(self.lines)


def test_a_users_check_says_who_holds_its_turn_and_ctrl_c_ends_the_wait(
    as_user: list[str], home: Path
) -> None:
    """The attack on a silent wait: the user's check in one terminal is stopped (Ctrl-Z)
    while it holds the user's turn; a check in another terminal says which process holds it
    and how to resume or end it, and stops at Ctrl-C (130, no traceback); once the holder
    goes on and ends, a check that waited passes."""
    answer = _answer(home, REPO / "solutions" / "EX-12-01" / "notification_once_probe.py")
    lock = Path("/tmp") / f"grader-{USER}" / "devices.lock"  # the user's, without TMPDIR
    check = ("-m", "grader", "check", "EX-12-01", "--path", str(answer), "--lang", "en")
    with contextlib.ExitStack() as ending:  # on a failure: every process ends, none waits
        holder = ending.enter_context(_start(as_user, home, str(TURN_HOLDER), str(lock), "--stop"))
        ending.callback(_resume_and_end, holder)
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        told = f"process {holder.pid} (turn_holder.py {lock} --stop): it was stopped"

        interrupted = ending.enter_context(_start(as_user, home, *check))
        ending.callback(_kill, interrupted)
        assert interrupted.stderr is not None
        reading = _lines_until(interrupted.stderr, told)
        started = time.monotonic()
        interrupted.send_signal(signal.SIGINT)
        assert interrupted.wait(timeout=30) == 130
        assert time.monotonic() - started < 10
        shown = reading.to_end()
        assert shown.endswith("Interrupted.\n") and "Traceback" not in shown, shown

        waiting = ending.enter_context(_start(as_user, home, *check, "--json"))
        ending.callback(_kill, waiting)
        assert waiting.stderr is not None and waiting.stdout is not None
        reading = _lines_until(waiting.stderr, told)
        _resume_and_end(holder)
        assert waiting.wait(timeout=120) == 0, reading.to_end()
        report = json.loads(waiting.stdout.read())
        assert (report["status"], report["isolation"]) == ("passed", "namespaces")
        assert "Traceback" not in reading.to_end()


def _resume_and_end(holder: subprocess.Popen[str]) -> None:
    holder.send_signal(signal.SIGCONT)
    if holder.stdin is not None and not holder.stdin.closed:
        holder.stdin.close()


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
