"""``grader.runner.turns``: one run at a time across a user's hosts, on a lock no one else
can hold. The turns themselves, across two real hosts of a user, are attacked in
``tests/e2e/test_as_a_user.py`` (a run holding locks on ``/dev/null`` beside another)."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

import pytest

from grader.runner.model import RunnerError
from grader.runner.turns import Turns, lock_path


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
