"""``grader.runner.turns``: one run at a time across a user's hosts, on a lock no one else
can hold. The turns themselves, across two real hosts of a user, are attacked in
``tests/e2e/test_as_a_user.py`` (a run holding locks on ``/dev/null`` beside another)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from grader.runner import turns
from grader.runner.model import RunnerError
from grader.runner.turns import Holder, Turns, lock_path


def _free(path: Path) -> bool:
    """Whether another open file description could take the lock now."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        assert exc.errno == errno.EWOULDBLOCK
        return False
    finally:
        os.close(fd)
    return True


def test_a_turn_excludes_every_other_until_given_or_closed(tmp_path: Path) -> None:
    path = tmp_path / "turns" / "devices.lock"
    first, second = Turns(path), Turns(path)  # two hosts' clients, here in one process
    first.take()
    assert not _free(path)
    first.take()  # taking a turn held is a no-op, giving it once ends it
    first.give()
    assert _free(path)
    second.take()
    assert not _free(path)
    second.close()  # a client that closes ends its turn with it
    assert _free(path)
    first.close()
    assert oct(os.stat(path.parent).st_mode & 0o777) == "0o700"


def test_closing_ends_the_turn_even_if_a_forked_child_holds_the_descriptor(
    tmp_path: Path,
) -> None:
    """A pool worker forked while a turn is held shares the lock's open file description:
    closing our descriptor alone would leave the turn held as long as that child lives."""
    path = tmp_path / "turns" / "devices.lock"
    turns = Turns(path)
    turns.take()
    copy = os.dup(turns._fd)  # what a forked child holds
    try:
        turns.close()
        assert _free(path)
    finally:
        os.close(copy)


def test_the_lock_lives_in_a_folder_of_this_user_under_tmpdir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)  # read TMPDIR again
    assert lock_path() == tmp_path / f"grader-{os.geteuid()}" / "devices.lock"


@pytest.mark.parametrize("made", ["writable by others", "a link", "a file"])
def test_a_folder_someone_else_could_have_made_is_refused(tmp_path: Path, made: str) -> None:
    """The attack: another user makes the folder first (world-writable, or a link to a
    folder of theirs) and then holds the lock for ever, or swaps the file."""
    folder = tmp_path / "grader-x"
    if made == "writable by others":
        folder.mkdir(mode=0o700)
        folder.chmod(0o777)
    elif made == "a link":
        (tmp_path / "theirs").mkdir(mode=0o700)
        folder.symlink_to(tmp_path / "theirs")
    else:
        folder.write_text("")
    with pytest.raises(RunnerError, match="not this user's own private folder"):
        Turns(folder / "devices.lock")


def test_a_folder_of_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "grader-x"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr("grader.runner.turns.os.geteuid", lambda: os.stat(folder).st_uid + 1)
    with pytest.raises(RunnerError, match="remove it, or set TMPDIR"):
        Turns(folder / "devices.lock")


# -- who holds the turn, told to whoever waits for it ---------------------------------------

HOLDER = Path(__file__).parent / "files" / "turn_holder.py"


def _state(pid: int) -> str:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2]


def _until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


@contextlib.contextmanager
def _holding(path: Path, *, stop: bool, own_group: bool = False) -> Iterator[subprocess.Popen[str]]:
    """Another process of this user holds the turn (stopped, with ``stop``, as by Ctrl-Z)
    until the block ends: then it is resumed, told to end, and waited for. It is in a
    process group of its own (a grader started in another terminal), or, with ``own_group``,
    in ours (another worker of the same batch)."""
    argv = [sys.executable, str(HOLDER), str(path), *(["--stop"] if stop else [])]
    with subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        process_group=None if own_group else 0,
    ) as holder:
        assert holder.stdout is not None and holder.stdin is not None
        try:
            assert holder.stdout.readline() == "held\n"
            if stop:
                _until(lambda: _state(holder.pid) == "T")
            yield holder
        finally:
            holder.send_signal(signal.SIGCONT)
            holder.stdin.close()


def test_the_holder_writes_its_pid_and_command_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "turns" / "devices.lock"
    with _holding(path, stop=False) as holder:
        found = Turns(path).holder()
        assert found == Holder(holder.pid, f"turn_holder.py {path}", stopped=False)
    mine = Turns(path)
    mine.take()
    assert mine.holder() == Holder(os.getpid(), turns._command(), stopped=False)
    mine.close()


def test_a_waiter_is_told_who_holds_the_turn_that_it_is_stopped_and_when_it_resumes(
    tmp_path: Path,
) -> None:
    """The attack on a silent wait: a check stopped by Ctrl-Z in one terminal holds the
    user's turn; a check in another terminal would wait for ever without a word."""
    path = tmp_path / "turns" / "devices.lock"
    told: list[Holder | None] = []
    waiter = Turns(path)
    with _holding(path, stop=True) as holder:
        taking = threading.Thread(target=waiter.take, args=(told.append,))
        started = time.monotonic()
        taking.start()
        _until(lambda: len(told) == 1)
        assert time.monotonic() - started >= turns.PATIENCE  # not before its patience ends
        assert told == [Holder(holder.pid, f"turn_holder.py {path} --stop", stopped=True)]
        assert taking.is_alive()  # still waiting
        holder.send_signal(signal.SIGCONT)
        _until(lambda: len(told) == 2)  # told again: the holder is running now
        assert told[1] == Holder(holder.pid, f"turn_holder.py {path} --stop", stopped=False)
    taking.join(timeout=20)
    assert not taking.is_alive()  # the holder ended: the waiter has the turn
    assert waiter.holder() == Holder(os.getpid(), turns._command(), stopped=False)
    assert [t for t in threading.enumerate() if t.name == "grader-turn-watcher"] == []
    waiter.close()


def test_a_running_holder_of_our_own_group_is_not_worth_a_word_a_stopped_one_is(
    tmp_path: Path,
) -> None:
    """A batch's two workers wait for each other's runs all the time: no notice for that;
    but a worker of ours that is stopped holds everyone up, and is named."""
    path = tmp_path / "turns" / "devices.lock"
    for stop, expected in ((False, 0), (True, 1)):
        told: list[Holder | None] = []
        waiter = Turns(path)
        with _holding(path, stop=stop, own_group=True):
            taking = threading.Thread(target=waiter.take, args=(told.append,))
            taking.start()
            time.sleep(turns.PATIENCE + 2 * turns.LOOK_AGAIN)
            assert len(told) == expected and taking.is_alive()
        taking.join(timeout=20)
        assert not taking.is_alive()
        waiter.close()


def test_no_one_is_told_when_the_turn_is_free_and_no_thread_is_started(tmp_path: Path) -> None:
    told: list[Holder | None] = []
    before = threading.active_count()
    turns_ = Turns(tmp_path / "turns" / "devices.lock")
    turns_.take(told.append)
    assert (told, threading.active_count()) == ([], before)
    turns_.close()


def test_a_notice_that_fails_does_not_stop_the_wait(tmp_path: Path) -> None:
    path = tmp_path / "turns" / "devices.lock"
    calls: list[Holder | None] = []

    def broken(holder: Holder | None) -> None:
        calls.append(holder)
        raise BrokenPipeError("the terminal went away")

    waiter = Turns(path)
    with _holding(path, stop=False):
        taking = threading.Thread(target=waiter.take, args=(broken,))
        taking.start()
        _until(lambda: len(calls) == 1)
    taking.join(timeout=20)
    assert not taking.is_alive() and waiter.holder() is not None
    assert waiter.holder() == Holder(os.getpid(), turns._command(), stopped=False)
    waiter.close()


def test_ctrl_c_stops_the_wait_at_once_and_ends_the_watcher(tmp_path: Path) -> None:
    path = tmp_path / "turns" / "devices.lock"
    waiter = Turns(path)

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        with _holding(path, stop=True):
            signal.setitimer(signal.ITIMER_REAL, turns.PATIENCE + 0.5)  # after one notice
            told: list[Holder | None] = []
            started = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                waiter.take(told.append)
            assert time.monotonic() - started < turns.PATIENCE + 5
            assert len(told) == 1 and told[0] is not None and told[0].stopped
            assert [t for t in threading.enumerate() if t.name == "grader-turn-watcher"] == []
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    waiter.close()


@pytest.mark.parametrize(
    "text", [b"", b"not a pid\n", b"-1\nx\n", b"12345678901234\nx\n", b"\xff\xfe\n"]
)
def test_a_file_that_does_not_name_a_process_names_no_holder(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "turns" / "devices.lock"
    reader = Turns(path)
    path.write_bytes(text)
    assert reader.holder() is None
    reader.close()


def test_the_command_is_cut_and_made_printable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["/x/bin/grader", "check", "EX\x1b[2J-12-01", "y" * 400])
    command = turns._command()
    assert command.startswith("grader check EX?[2J-12-01 yyy")
    assert len(command) == turns.MAX_COMMAND and command.isprintable()
