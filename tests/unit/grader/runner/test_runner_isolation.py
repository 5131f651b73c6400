"""Confinement in "namespaces" mode: filesystem, hidden paths, network, identity, processes."""

from __future__ import annotations

import json
import os
import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.runner import ForkServer, RunRequest

from .helpers import PRELUDES, marker, require_namespaces, run

REPO = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def hidden() -> Iterator[Path]:
    """Files to hide. Not under /tmp: each run gets a fresh /tmp, so hiding there proves nothing
    (and a prelude could not read them either)."""
    root = Path(__file__).parent / f".hidden-fixture-{os.getpid()}"
    (root / "solutions").mkdir(parents=True)
    (root / "solutions" / "answer.py").write_text("SECRET = 'the answer'\n")
    (root / "other_student.py").write_text("print('not yours')\n")
    try:
        yield root
    finally:
        shutil.rmtree(root)


@pytest.fixture(scope="module")
def server(hidden: Path) -> Iterator[ForkServer]:
    require_namespaces()
    hide = [hidden / "solutions", hidden / "other_student.py", hidden / "does-not-exist"]
    with ForkServer(isolation="namespaces", hide=hide, preload=[PRELUDES]) as server:
        assert server.isolation == "namespaces"
        yield server


def _attempt(expr: str) -> str:
    """Source that prints 'ok' or the errno name of what ``expr`` raised."""
    return (
        "import errno, os\n"
        "try:\n"
        f"    {expr}\n"
        "    print('ok')\n"
        "except OSError as e:\n"
        "    print(errno.errorcode.get(e.errno, e.errno))\n"
    )


def test_runs_as_nobody_without_capabilities(server: ForkServer) -> None:
    source = (
        "import os, json\n"
        "status = dict(l.split(':', 1) for l in open('/proc/self/status') if ':' in l)\n"
        "print(json.dumps([os.getuid(), os.geteuid(), os.getgid(), os.getgroups(),\n"
        "  status['CapEff'].strip(), status['NoNewPrivs'].strip(), os.getpid()]))\n"
    )
    uid, euid, gid, groups, cap_eff, nnp, pid = json.loads(run(server, source).stdout)
    assert (uid, euid, gid, groups) == (65534, 65534, 65534, [])
    assert int(cap_eff, 16) == 0
    assert nnp == "1"
    assert pid == 2  # PID 1 is the run's init (root's cat) in the run's own pid namespace


def test_prelude_runs_as_root_before_privileges_drop(server: ForkServer) -> None:
    obs = run(server, "import os; print(os.getuid())", prelude=f"{PRELUDES}:whoami")
    assert obs.stdout == "65534\n"
    assert obs.records == ({"kind": "whoami", "uid": 0, "pid": 2},)


def test_stdlib_and_site_packages_import_as_nobody(server: ForkServer) -> None:
    source = "import decimal, sqlite3, email.mime.text, asyncio, sqlalchemy\nprint('imported')\n"
    obs = run(server, source)
    assert obs.stdout == "imported\n", obs.stderr


def test_tmp_writes_land_in_a_throwaway_tmpfs(server: ForkServer) -> None:
    name = f"/tmp/grader-runner-test-{marker()}"
    obs = run(server, _attempt(f"open({name!r}, 'w').write('x')") + "print(os.listdir('/tmp'))")
    assert obs.stdout.splitlines()[0] == "ok"
    assert not os.path.exists(name)
    again = run(server, f"import os\nprint(os.path.exists({name!r}))")
    assert again.stdout == "False\n"  # not even the next run sees it


@pytest.mark.parametrize(
    "target",
    [
        str(REPO / "grader-runner-test-{tag}"),
        str(Path(sysconfig.get_paths()["purelib"]) / "grader_runner_test_{tag}.py"),
        "/etc/grader-runner-test-{tag}",
        "/var/lib/grader-runner-test-{tag}",
    ],
    ids=["repo", "site-packages", "etc", "var-lib"],
)
def test_writes_outside_tmp_fail_and_persist_nothing(server: ForkServer, target: str) -> None:
    path = target.format(tag=marker())
    obs = run(server, _attempt(f"open({path!r}, 'w').write('pwned')"))
    assert obs.stdout.strip() in ("EROFS", "EACCES", "ENOENT")  # ENOENT: not in the view
    assert not os.path.exists(path)


def test_workdir_file_size_bomb_persists_nothing(server: ForkServer) -> None:
    obs = run(server, "import os\nprint(os.getcwd())\nopen('big', 'wb').write(b'x' * (9 << 20))\n")
    assert obs.limit_hit == "file_size"
    workdir = obs.stdout.strip()
    assert workdir.startswith("/tmp/")
    assert not os.path.exists(os.path.join(workdir, "big"))


def test_hidden_paths_are_empty_but_the_prelude_could_read_them(
    server: ForkServer, hidden: Path
) -> None:
    secret = hidden / "solutions" / "answer.py"
    source = (
        "import os\n"
        f"print(os.listdir({str(hidden / 'solutions')!r}))\n"
        f"print(repr(open({str(hidden / 'other_student.py')!r}).read()))\n"
        + _attempt(f"open({str(secret)!r}).read()")
    )
    obs = run(server, source, prelude=f"{PRELUDES}:read_file", prelude_args={"path": str(secret)})
    assert obs.stdout.splitlines() == ["[]", "''", "ENOENT"], obs.stderr
    assert obs.records[0]["text"] == "SECRET = 'the answer'\n"
    assert secret.read_text() == "SECRET = 'the answer'\n"


def test_no_network(server: ForkServer) -> None:
    tcp = "__import__('socket').create_connection(('127.0.0.1', 5432), timeout=2)"
    assert run(server, _attempt(tcp)).stdout.strip() == "ENETUNREACH"
    unix = (
        "s = __import__('socket').socket(__import__('socket').AF_UNIX); "
        "s.connect('/run/postgresql/.s.PGSQL.5432')"
    )
    assert run(server, _attempt(unix)).stdout.strip() == "ENOENT"


def test_only_the_runs_own_processes_are_visible(server: ForkServer) -> None:
    source = (
        "import os, signal\n"
        "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n"
        "try:\n    os.kill(1, signal.SIGKILL)\nexcept OSError as e:\n    print(type(e).__name__)\n"
        f"try:\n    os.kill({os.getpid()}, 0)\nexcept OSError as e:\n    print(type(e).__name__)\n"
    )
    obs = run(server, source)
    assert obs.stdout.splitlines() == ["[1, 2]", "PermissionError", "ProcessLookupError"]
    assert obs.exit_code == 0


def test_runs_in_flight_together_never_share_a_pid_namespace(server: ForkServer) -> None:
    """Each run's PID 1 and student are born in a fresh pid namespace, and the host goes
    back to its own before the next: two runs alive at the same time, and every
    later one, see only their own two processes."""
    source = (
        "import os, time\n"
        "time.sleep(0.3)  # the other run is alive meanwhile\n"
        "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()), os.getpid())\n"
    )
    requests = [RunRequest(source, "probe.py") for _ in range(6)]
    results = server.run_many(requests, max_parallel=2)
    assert [r.stdout for r in results] == ["[1, 2] 2\n"] * 6, [r.stderr for r in results]


@pytest.mark.parametrize("mode", ["namespaces", "rlimits"])
def test_caller_environment_does_not_leak(monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    if mode == "namespaces":
        require_namespaces()
    monkeypatch.setenv("GRADER_TEST_SECRET", "s3cr3t-token")
    with ForkServer(isolation=mode) as server:
        source = (
            "import os\n"
            "try:\n"
            "    print('s3cr3t' in open('/proc/self/environ', 'rb').read().decode())\n"
            "except PermissionError:\n"
            "    print('unreadable')  # namespaces: the process is not dumpable after setuid\n"
            "print('GRADER_TEST_SECRET' in os.environ)\n"
        )
        first, second = run(server, source).stdout.splitlines()
        assert first in ("False", "unreadable")
        assert second == "False"


def test_user_namespace_cannot_unmount_a_hide_mount(server: ForkServer, hidden: Path) -> None:
    """Unprivileged user namespaces stay allowed, but inherited mounts are locked there."""
    target = str(hidden / "solutions")
    source = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "if libc.unshare(0x10000000 | 0x00020000) != 0:  # CLONE_NEWUSER | CLONE_NEWNS\n"
        "    print('no userns', ctypes.get_errno())\n"
        "else:\n"
        f"    rc = libc.umount2({target.encode()!r}, 2)  # MNT_DETACH\n"
        "    print(rc, os.strerror(ctypes.get_errno()) if rc else '')\n"
        f"print(os.listdir({target!r}))\n"
    )
    lines = run(server, source).stdout.splitlines()
    assert lines[-1] == "[]"
    assert lines[0].startswith(("-1 ", "no userns"))


KEYRING_PROBE = """
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
KEYCTL = {"x86_64": 250, "aarch64": 219}[os.uname().machine]
ADD_KEY = {"x86_64": 248, "aarch64": 217}[os.uname().machine]
USER_KEYRING = -4
def names():
    buf = ctypes.create_string_buffer(4096)
    n = libc.syscall(KEYCTL, 11, USER_KEYRING, buf, 4096)  # KEYCTL_READ: key ids
    out = []
    for i in range(0, max(n, 0), 4):
        desc = ctypes.create_string_buffer(256)
        m = libc.syscall(KEYCTL, 6, int.from_bytes(buf.raw[i:i + 4], "little"), desc, 256)
        out.append(desc.raw[:max(m - 1, 0)].split(b";")[-1].decode())
    return sorted(n for n in out if n.startswith("runner-test-"))
mine = "runner-test-TAG"
added = libc.syscall(ADD_KEY, b"user", mine.encode(), b"1", 1, USER_KEYRING)
print(added, ctypes.get_errno() if added < 0 else 0)
time.sleep(PAUSE)
print(names())
"""


def _keyring_probe(tag: str, pause: float) -> str:
    return KEYRING_PROBE.replace("TAG", tag).replace("PAUSE", str(pause))


def test_runs_do_not_share_kernel_keyrings(server: ForkServer) -> None:
    """Keyrings are off the seccomp allow-list (``allowlist``): ``add_key`` is refused with
    EPERM, and no run sees a key of another."""
    if os.uname().machine not in ("x86_64", "aarch64"):
        pytest.skip(f"requires the keyctl syscall number, not available for {os.uname().machine}")
    requests = [RunRequest(_keyring_probe(tag, 0.3), "probe.py") for tag in "ab"]
    parallel = server.run_many(requests, max_parallel=2)
    assert [o.stdout for o in parallel] == ["-1 1\n[]\n", "-1 1\n[]\n"]
    later = run(server, _keyring_probe("c", 0))
    assert later.stdout == "-1 1\n[]\n"  # nothing left over from earlier runs


def test_ptys_are_private_to_the_run(server: ForkServer) -> None:
    source = (
        "import os, time\n"
        "leader, follower = os.openpty()\n"
        "time.sleep(0.3)\n"
        "print(sorted(n for n in os.listdir('/dev/pts') if n.isdigit()))\n"
    )
    results = server.run_many([RunRequest(source, "probe.py")] * 2, max_parallel=2)
    assert [o.stdout for o in results] == ["['0']\n", "['0']\n"]
