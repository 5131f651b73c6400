"""``grader.runner.turns``: one run at a time across a user's hosts, on a lock no one else
can hold. The turns themselves, across two real hosts of a user, are attacked in
``tests/e2e/test_as_a_user.py`` (a run holding locks on ``/dev/null`` beside another)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import importlib.machinery
import os
import signal
import subprocess
import sys
import threading
import time
import types
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


@pytest.fixture(autouse=True)
def _nothing_told_yet() -> Iterator[None]:
    """What this process last told (``turns._told_last``) starts empty in every test."""
    turns._told_last.clear()
    yield
    turns._told_last.clear()


def _has(told: list[Holder | None], count: int) -> bool:
    return len(told) == count


def _watchers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "grader-turn-watcher"]


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
        reader = Turns(path)
        assert reader.holder() == Holder(holder.pid, f"turn_holder.py {path}", stopped=False)
        reader.close()
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
    assert _watchers() == []
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
            if expected:
                _until(functools.partial(_has, told, expected))
            else:
                time.sleep(turns.PATIENCE + 2 * turns.LOOK_AGAIN)  # long enough to have told
            assert len(told) == expected and taking.is_alive()
        taking.join(timeout=20)
        assert not taking.is_alive()
        waiter.close()


def test_no_one_is_told_when_the_turn_is_free_and_no_thread_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[Holder | None] = []
    started: list[str] = []
    monkeypatch.setattr(
        "grader.runner.turns.threading.Thread", lambda *a, **k: started.append("a thread")
    )
    turns_ = Turns(tmp_path / "turns" / "devices.lock")
    turns_.take(told.append)
    assert (told, started) == ([], [])
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
    told: list[Holder | None] = []

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    def tell_then_press_ctrl_c(holder: Holder | None) -> None:
        told.append(holder)
        main = threading.main_thread().ident
        assert main is not None
        signal.pthread_kill(main, signal.SIGALRM)

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        with _holding(path, stop=True):
            with pytest.raises(KeyboardInterrupt):
                waiter.take(tell_then_press_ctrl_c)
            assert len(told) == 1 and told[0] is not None and told[0].stopped
            assert _watchers() == []
    finally:
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


def test_a_file_naming_a_process_that_does_not_hold_the_turn_names_no_holder(
    tmp_path: Path,
) -> None:
    """A pid left behind (a grader that never writes the file, a pid reused since) is not
    believed: the kernel's list of locks decides."""
    path = tmp_path / "turns" / "devices.lock"
    reader = Turns(path)
    path.write_text(f"{os.getpid()}\nan old holder\n")
    assert reader.holder() is None  # no one holds the turn
    with _holding(path, stop=False):
        path.write_text(f"{os.getpid()}\nnot the holder\n")  # a holder that never wrote
        assert reader.holder() is None
    reader.close()


def test_giving_the_turn_empties_the_file(tmp_path: Path) -> None:
    path = tmp_path / "turns" / "devices.lock"
    mine = Turns(path)
    mine.take()
    assert path.read_text().startswith(f"{os.getpid()}\n")
    mine.give()
    assert path.read_text() == ""
    mine.close()


def test_a_file_that_cannot_be_written_costs_only_the_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk or a quota: the turn is still taken, the run still goes."""

    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("grader.runner.turns.os.pwrite", full)
    monkeypatch.setattr("grader.runner.turns.os.ftruncate", full)
    mine = Turns(tmp_path / "turns" / "devices.lock")
    mine.take()
    assert not _free(tmp_path / "turns" / "devices.lock")
    mine.give()
    assert _free(tmp_path / "turns" / "devices.lock")
    mine.close()


def test_a_password_in_the_command_is_masked_and_python_m_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ["/v/bin/grader", "grade", "s", "--db", "postgresql://ta:s3cret@db/grades"]
    monkeypatch.setattr(sys, "argv", argv)
    assert turns._command() == "grader grade s --db postgresql://ta:***@db/grades"
    main = types.ModuleType("__main__")
    main.__spec__ = importlib.machinery.ModuleSpec("grader.__main__", None)
    monkeypatch.setitem(sys.modules, "__main__", main)
    monkeypatch.setattr(sys, "argv", ["/r/grader/__main__.py", "check", "EX-12-01"])
    assert turns._command() == "python -m grader check EX-12-01"


def test_a_grader_closing_while_another_holds_the_turn_leaves_its_name(tmp_path: Path) -> None:
    """The attack: ``grader check`` discards a spare host (its ``Turns`` closed) while a
    stopped check holds the turn; had that emptied the file, the waiter could not say who."""
    path = tmp_path / "turns" / "devices.lock"
    with _holding(path, stop=True) as holder:
        other = Turns(path)
        other.give()
        other.close()
        reader = Turns(path)
        assert reader.holder() == Holder(holder.pid, f"turn_holder.py {path} --stop", True)
        reader.close()


def test_a_process_names_the_same_holder_once_a_minute_and_a_new_one_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(turns.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(turns, "_told_last", [])
    stopped = Holder(4242, "grader check EX-12-01", stopped=True)
    resumed = Holder(4242, "grader check EX-12-01", stopped=False)
    assert not turns._told_lately(stopped)  # told
    clock[0] += turns.REPEAT_AFTER - 1
    assert turns._told_lately(stopped)  # the next run's wait, behind the same holder
    assert not turns._told_lately(resumed)  # it changed: told at once
    assert not turns._told_lately(None)
    clock[0] += turns.REPEAT_AFTER
    assert not turns._told_lately(None)  # a minute on: told again
