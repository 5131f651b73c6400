"""A user's runs take turns on this machine: one at a time, across all of the user's hosts.

Without root, a run's ``/dev/null``, ``/dev/zero``... are the machine's own nodes, bound into
its view (``grader.runner.view``: a user cannot make device nodes), and a lock on one is seen
by every process that opens it. Two runs executing at once could pass bits through such a
lock (measured: "held by another run"), even runs of two students graded side by side
(a batch's ``--jobs 2``, or a student's check beside it). So a host that reports shared
devices runs its runs one at a time (``ForkServer.one_at_a_time``), and each run first takes
this user's turn on the machine: an exclusive ``flock`` on one file that only this user can
write, held from before the run is sent until its result is back. The zygote sends a run's
end only once the run's PID 1 is reaped, i.e. once every process of the run is gone
(``grader.runner.zygote``), so no process of it still holds a lock when the next turn begins.

The file is ``<tmp>/grader-<uid>/devices.lock``: the folder is made ``0700`` and must be the
user's own, not a link (else ``RunnerError``: another user could otherwise hold the lock
forever). Graders of one user with different temporary folders (``$TMPDIR``) do not take
turns with each other.

The holder of the turn writes its process id and command into the file. A grader that
waits for its turn longer than ``PATIENCE`` is told who holds it (``take(waiting)``, from a
watcher thread: the wait itself stays one blocking ``flock``, so a turn given is taken at
once), again whenever that changes: in particular when the holder is stopped (Ctrl-Z, a
debugger), which holds the turn until it is resumed or ended. A holder of the waiter's own
process group that is not stopped (another worker of the same batch) is not worth a word.
It waits for as long as it takes, as ``apt`` waits for its lock; Ctrl-C stops it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.runner.model import RunnerError

#: Seconds a grader waits for its turn before it is told who holds it.
PATIENCE = 1.0
#: Seconds between two looks at who holds the turn, while waiting.
LOOK_AGAIN = 1.0
#: Characters of the holder's command kept (the file is read with at most ``_READ`` bytes).
MAX_COMMAND = 160
_READ = 1024


@dataclass(frozen=True)
class Holder:
    """Who holds this user's turn, as it wrote itself into the lock file: its process id, its
    command, and whether that process is stopped now (it then holds the turn until it is
    resumed or ended)."""

    pid: int
    command: str
    stopped: bool


#: Told who holds the turn (None: the file does not say) while ``take`` waits.
Waiting = Callable[[Holder | None], None]
#: Seconds after which the same holder is named again by this process: a grader whose runs
#: wait one after another behind the same holder says so once, not once a run.
REPEAT_AFTER = 60.0
#: What this process last told, and when (``time.monotonic``).
_told_last: list[tuple[Holder | None, float]] = []
_PASSWORD = re.compile(r"(://[^/:@\s]*:)[^/@\s]*@")


def _told_lately(holder: Holder | None) -> bool:
    """Whether this process named ``holder`` less than ``REPEAT_AFTER`` ago (and if not,
    it is named now): a holder that changes (stopped, resumed, another) is told at once."""
    now = time.monotonic()
    if _told_last and _told_last[0][0] == holder and now - _told_last[0][1] < REPEAT_AFTER:
        return True
    _told_last[:] = [(holder, now)]
    return False


def lock_path() -> Path:
    return Path(tempfile.gettempdir()) / f"grader-{os.geteuid()}" / "devices.lock"


class Turns:
    """This user's turn on the machine; ``take`` waits for it, ``give`` ends it.

    Each instance has its own open file description, so two instances exclude each other
    even in one process (``flock`` belongs to the description)."""

    def __init__(self, path: Path | None = None) -> None:
        path = path or lock_path()
        _own_folder(path.parent)
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            raise RunnerError(f"cannot open the runs' turn lock {path}: {exc.strerror}") from None
        #: What ``take`` writes after the pid, worked out once: a run takes a turn each time.
        self._command = _command()

    def take(self, waiting: Waiting | None = None) -> None:
        """Wait for the turn (interruptible: Ctrl-C raises here as anywhere else); a turn
        already held is kept (``flock`` converts a lock its description holds). Once it has
        it, it writes its own process id and command into the file. ``waiting``: called
        (on a watcher thread) after ``PATIENCE`` seconds of waiting, and again whenever the
        holder changes, with who holds the turn."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._wait(waiting)
        text = f"{os.getpid()}\n{self._command}\n".encode()
        with contextlib.suppress(OSError):  # a full disk only costs the waiters' notice
            os.pwrite(self._fd, text, 0)
            os.ftruncate(self._fd, len(text))

    def holder(self) -> Holder | None:
        """Who wrote itself into the file last (the holder, while the turn is held); None if
        the file does not say."""
        try:
            pid_text, _, rest = (
                os.pread(self._fd, _READ, 0).decode("utf-8", "replace").partition("\n")
            )
        except OSError:
            return None
        if not (pid_text.isascii() and pid_text.isdigit()) or len(pid_text) > 9:
            return None
        pid = int(pid_text)
        if not self._held_by(pid):  # not written yet, or by a grader that never writes it
            return None
        return Holder(pid, rest.partition("\n")[0][:MAX_COMMAND], _stopped(pid))

    def _held_by(self, pid: int) -> bool:
        """Whether the kernel lists ``pid`` as holding the turn (``/proc/locks``: the
        ``flock`` on this file's inode, not a waiter's ``->`` line): the file's word alone
        could name a process that ended or a pid reused since."""
        found = os.fstat(self._fd)
        inode = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
        try:
            with open("/proc/locks", encoding="ascii", errors="replace") as locks:
                for line in locks:
                    fields = line.split()
                    if fields[1:2] == ["FLOCK"] and fields[3:6] == ["WRITE", str(pid), inode]:
                        return True
        except OSError:
            return False
        return False

    def _wait(self, waiting: Waiting | None) -> None:
        if waiting is None:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            return
        done = threading.Event()
        watcher = threading.Thread(
            target=self._watch, args=(done, waiting), name="grader-turn-watcher", daemon=True
        )
        watcher.start()
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        finally:
            done.set()
            watcher.join(timeout=1.0)  # a notice stuck on a full stderr pipe never holds a run

    def _watch(self, done: threading.Event, waiting: Waiting) -> None:
        pause = PATIENCE
        while not done.wait(pause):
            pause = LOOK_AGAIN
            holder = self.holder()
            if holder is not None and not holder.stopped and _in_our_group(holder.pid):
                continue  # another worker of this same grader (a batch's): nothing to tell
            if done.is_set():  # the turn came meanwhile: no word about the holder before
                return
            if _told_lately(holder):
                continue
            with contextlib.suppress(Exception):  # a notice that fails never stops a run
                waiting(holder)

    def give(self) -> None:
        """End the turn (nothing happens if it is not held). The file is emptied first, so
        it never names a holder that has gone; only by the holder: a grader that closes
        while another holds the turn (a spare host discarded) must not erase its name."""
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # ours, or free: ours now
        except BlockingIOError:
            return  # another's turn: nothing of ours to give or to empty
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
        fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd >= 0:
            self.give()  # explicitly: a forked child's copy of the descriptor would keep it
            os.close(self._fd)
            self._fd = -1


def _command() -> str:
    """This process's command as its user typed it (``grader check EX-12-01``, ``python -m
    grader check ...``), printable, with a URL's password masked (``--db``)."""
    program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if program == "__main__.py" and spec is not None:
        program = "python -m " + spec.name.removesuffix(".__main__")
    text = _PASSWORD.sub(r"\1***@", " ".join([program, *sys.argv[1:]]))[:MAX_COMMAND]
    return "".join(char if char.isprintable() else "?" for char in text)


def _in_our_group(pid: int) -> bool:
    """Whether ``pid`` is in this process's group: a batch's other pool worker, say, and not
    a grader started from another terminal or notebook (each has a group of its own)."""
    try:
        return os.getpgid(pid) == os.getpgrp()
    except OSError:
        return False


def _stopped(pid: int) -> bool:
    """Whether process ``pid`` is stopped now (state T: a stop signal; t: a debugger)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat_line = handle.read(_READ)
    except OSError:
        return False
    return stat_line[stat_line.rfind(b")") + 2 :][:1] in (b"T", b"t")


def _own_folder(folder: Path) -> None:
    """``folder`` exists, is a real directory of this user and no one else may write in it."""
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise RunnerError(f"cannot make {folder} for the runs' turn lock: {exc.strerror}") from None
    found = os.lstat(folder)
    if (
        not stat.S_ISDIR(found.st_mode)
        or found.st_uid != os.geteuid()
        or found.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        raise RunnerError(
            f"{folder} is not this user's own private folder (another user may have made it):"
            " remove it, or set TMPDIR to a folder of your own, then try again"
        )
