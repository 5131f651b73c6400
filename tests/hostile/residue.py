"""What a grading run may leave behind: processes, changed files, dropped files.

``Snapshot`` hashes every file the student must never change (the repo's working tree
without ignored files, the venv's install metadata for ticketflow/grader, a canary in
/tmp, the course root given to the grader) and lists marker-named files in the places a
hostile run aims at. Processes are found two ways: by marker (cmdline / thread names) and,
because the test process is made a child subreaper, as orphans re-parented to it.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import shutil
import signal
import subprocess
import sysconfig
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tests.hostile.corpus import DROP_MARKERS, PROCESS_MARKER, REPO, THREAD_MARKER

PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
#: One canary per test process (files/write_outside_workdir.py aims at /tmp/hostile-canary*):
#: two corpus runs at once on a shared machine must not see each other's canary change.
CANARY = Path(f"/tmp/hostile-canary-{os.getpid()}")
#: The grader's own cache in a course root: written by every check on purpose.
GRADER_CACHE = ".grader"
#: Fake result files a hostile run tries to plant (see files/fake_result_files.py).
EXPLICIT_TARGETS = (
    Path("/tmp/hostile-canary"),
    REPO / "result.json",
    REPO / GRADER_CACHE / "EX-11-01.json",
    REPO / "exercises" / "EX-11-01" / "result.json",
    Path("/tmp/result.json"),
    Path("/tmp/.grader/EX-11-01.json"),
)


# Children this process already had when the corpus started (for example the cached fork
# server of an earlier in-process check() test): legitimately alive, not a run's leftovers.
_children_before: frozenset[int] = frozenset()


# Whether the test process was a subreaper before the corpus made it one (the end-of-run
# leak check, tests.support.leaks, makes it one for the whole session): put back at the end.
_was_subreaper = False


def allow_children(pids: Iterable[int]) -> None:
    """Children of this process that live on purpose across cases (the in-process grading
    service's masters, see inprocess.py): not a run's leftovers."""
    global _children_before
    _children_before = _children_before | frozenset(pids)


def set_child_subreaper(on: bool) -> None:
    global _children_before, _was_subreaper
    libc = ctypes.CDLL(None, use_errno=True)
    if on:
        state = ctypes.c_int(0)
        if libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(state), 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_GET_CHILD_SUBREAPER)")
        _was_subreaper = bool(state.value)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, int(on or _was_subreaper), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    if on:
        _children_before = frozenset(children_of(os.getpid()))


def children_of(parent: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == parent and fields[0] != b"Z":
            found.append(int(name))
    return found


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return 0
    return int(stat.rsplit(b")", 1)[1].split()[1])


def ours(pid: int, parent_of: Callable[[int], int] = _parent, me: int | None = None) -> bool:
    """A process this test process (``me``) started (it is an ancestor), or one that escaped
    every process tree (its parent is PID 1): never another test session's, which may run the
    same corpus, with the same markers, on the same machine at the same time."""
    me = os.getpid() if me is None else me
    parent, seen = parent_of(pid), 0
    if parent == 1:
        return True
    while parent > 1 and seen < 256:
        if parent == me:
            return True
        parent, seen = parent_of(parent), seen + 1
    return False


def marked_processes() -> list[str]:
    """``pid: how it is marked`` for every live process that a case started."""
    found = []
    me = os.getpid()
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me or not ours(int(name)):
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            comms = [
                Path(f"/proc/{name}/task/{t}/comm").read_text().strip()
                for t in os.listdir(f"/proc/{name}/task")
            ]
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state == b"Z":
            continue
        if PROCESS_MARKER.encode() in cmdline:
            found.append(f"{name}: cmdline {cmdline[:120]!r}")
        elif THREAD_MARKER in comms:
            found.append(f"{name}: thread named {THREAD_MARKER}")
    return found


def leftover_processes(grace: float = 5.0) -> list[str]:
    """Processes of the last run still alive after ``grace`` seconds (then killed and reaped)."""
    deadline = time.monotonic() + grace
    while True:
        orphans = [pid for pid in children_of(os.getpid()) if pid not in _children_before]
        marked = marked_processes()
        if not orphans and not marked:
            return []
        if time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    report = [f"{pid}: orphan re-parented to the test process" for pid in orphans] + marked
    for pid in orphans + [int(line.split(":")[0]) for line in marked]:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    for pid in orphans:
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)
    return report


def revoke_marked_keys() -> list[str]:
    """Revoke this uid's user-keyring keys named like the corpus's (files/cross_run_state.py)."""
    libc = ctypes.CDLL(None, use_errno=True)
    user_keyring, keyctl = -4, 250
    buf = ctypes.create_string_buffer(1 << 14)
    size = libc.syscall(keyctl, 11, user_keyring, buf, len(buf))  # KEYCTL_READ: key ids
    revoked = []
    for offset in range(0, max(size, 0), 4):
        key = int.from_bytes(buf.raw[offset : offset + 4], "little")
        desc = ctypes.create_string_buffer(512)
        n = libc.syscall(keyctl, 6, key, desc, len(desc))  # KEYCTL_DESCRIBE
        name = desc.raw[: max(n - 1, 0)].split(b";")[-1].decode("utf-8", "replace")
        if any(marker in name for marker in DROP_MARKERS):
            libc.syscall(keyctl, 3, key)  # KEYCTL_REVOKE
            libc.syscall(keyctl, 9, key, user_keyring)  # KEYCTL_UNLINK
            revoked.append(name)
    return revoked


def _digest(path: Path) -> str:
    try:
        if path.is_symlink():
            return "link:" + os.readlink(path)
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        return f"unreadable:{error.errno}"


def _repo_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout
    return [REPO / os.fsdecode(name) for name in listed.split(b"\0") if name]


def _install_files() -> list[Path]:
    """The venv's install records of this project (editable finder, .pth, dist-info)."""
    site = Path(sysconfig.get_paths()["purelib"])
    keys = ("ticketflow", "grader", "__editable__", ".pth")
    found = []
    for entry in sorted(site.iterdir()):
        if not any(key in entry.name for key in keys):
            continue
        if entry.is_dir():
            found += sorted(
                p for p in entry.rglob("*") if p.is_file() and "__pycache__" not in p.parts
            )
        else:
            found.append(entry)
    return found


def _course_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and GRADER_CACHE not in p.parts)


def _drop_places() -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    venv_bin = Path(sysconfig.get_paths()["scripts"])
    return [
        REPO,
        REPO / GRADER_CACHE,
        Path("/tmp"),
        Path("/tmp/.grader"),
        Path("/var/tmp"),
        Path("/dev/shm"),
        site,
        venv_bin,
        Path("/etc"),
    ]


def dropped_files() -> list[str]:
    found = []
    for place in _drop_places():
        try:
            names = os.listdir(place)
        except OSError:
            continue
        for name in names:
            if any(marker in name for marker in DROP_MARKERS) and not name.startswith(
                "hostile-canary-"
            ):
                found.append(str(Path(place, name)))
    found += [str(path) for path in EXPLICIT_TARGETS if path.exists()]
    return found


def clobbered_bytecode() -> list[str]:
    """.pyc files whose magic number was overwritten (a hostile run zeroes the header)."""
    found = []
    for base in (REPO / "src", REPO / "grader"):
        for pyc in base.rglob("*.pyc"):
            try:
                with pyc.open("rb") as f:
                    if f.read(4) == b"\0\0\0\0":
                        found.append(str(pyc))
            except OSError:
                continue
    return found


@dataclass
class Snapshot:
    digests: dict[Path, str]
    contents: dict[Path, bytes] = field(repr=False)
    #: The snapshot ``changed`` compared this one with (the state after the run).
    after: Snapshot | None = field(default=None, repr=False, compare=False)

    @classmethod
    def take(cls, course_root: Path | None = None) -> Snapshot:
        paths = [*_repo_files(), *_install_files(), CANARY]
        if course_root is not None:
            paths += _course_files(course_root)
        contents = {}
        for path in paths:
            try:
                if path.is_file() and not path.is_symlink():
                    contents[path] = path.read_bytes()
            except OSError:
                pass
        return cls({path: _digest(path) for path in paths}, contents)

    def changed(self, course_root: Path | None = None) -> list[Path]:
        now = self.after = Snapshot.take(course_root)
        keys = set(self.digests) | set(now.digests)
        return sorted(
            p for p in keys if self.digests.get(p, "missing") != now.digests.get(p, "missing")
        )

    def suspicious(self, paths: list[Path]) -> list[Path]:
        """The changes a run can be blamed for.

        Under CI (nobody else touches the checkout) that is every change. On a shared
        development checkout, engineers edit files while the corpus runs, so a changed
        repository file counts only if it carries the corpus marker; the canary, the
        install metadata and the course copy always count.
        """
        if os.environ.get("CI"):
            return paths
        blamed = []
        for path in paths:
            if path.is_relative_to(REPO / "tests" / "hostile"):
                continue  # the corpus itself names the marker; no case writes here
            if not path.is_relative_to(REPO) or path.is_relative_to(REPO / ".venv"):
                blamed.append(path)
                continue
            try:
                if PROCESS_MARKER.encode() in path.read_bytes():
                    blamed.append(path)
            except OSError:
                continue  # deleted: on a shared checkout, most likely by an engineer
        return blamed

    def restore(self, paths: list[Path]) -> None:
        """Put back files a case marked, so one broken case cannot poison the cases after it.

        Only files carrying the corpus marker are touched: an engineer editing the checkout
        while the corpus runs must never lose work to this.
        """
        for path in paths:
            try:
                if PROCESS_MARKER.encode() not in path.read_bytes():
                    continue
            except OSError:
                continue
            if path in self.contents:
                path.write_bytes(self.contents[path])
            elif self.digests.get(path) == "missing":
                path.unlink()


def remove_drops(paths: list[str]) -> None:
    for text in paths:
        path = Path(text)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                path.unlink()
