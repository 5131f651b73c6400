"""Open a handed-in file without following a symbolic link that came with the submission.

A submission (an unpacked archive, a student's folder) may carry symbolic links: to the
reference solution, to another student's file, to a FIFO. ``open_no_links`` walks the path
one component at a time with ``openat``: folders from ``/`` down to the current directory
(the grader user's own location, also as ``$PWD`` spells it) are trusted as they are, and
so are root-owned links directly under ``/`` (``/tmp -> /private/tmp`` on macOS); every
folder below that, and the file itself, must not be a link. Each step opens relative to the
previous descriptor, so no component can be swapped for a link between a check and the open.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

_DIR_FLAGS = getattr(os, "O_PATH", 0) | os.O_DIRECTORY | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class LinkOnPath(OSError):
    """A folder on the path (``link``) is a symbolic link the grader will not follow."""

    def __init__(self, link: str) -> None:
        super().__init__(errno.ELOOP, "a folder on the path is a symbolic link", link)
        self.link = link


def open_no_links(path: Path) -> int:
    """A descriptor for ``path`` (``FILE_FLAGS``); ``LinkOnPath`` or ``OSError`` otherwise."""
    absolute = Path(os.path.abspath(path))
    trusted, rest = _split_trusted(absolute)
    fd = os.open(trusted, _DIR_FLAGS)
    try:
        here = trusted
        for part in rest[:-1]:
            here = here / part
            follow = _system_link(here)
            flags = _DIR_FLAGS if follow else _DIR_FLAGS | os.O_NOFOLLOW
            try:
                step = os.open(part, flags, dir_fd=fd)
            except OSError as error:
                if error.errno in (errno.ENOTDIR, errno.ELOOP) and here.is_symlink():
                    raise LinkOnPath(str(here)) from None
                raise
            os.close(fd)
            fd = step
        return os.open(rest[-1], FILE_FLAGS, dir_fd=fd)
    finally:
        os.close(fd)


def _split_trusted(absolute: Path) -> tuple[Path, list[str]]:
    """The deepest ancestor of ``absolute`` that is the cwd or above it, and the parts below."""
    mine = {folder for cwd in _working_directories() for folder in (cwd, *cwd.parents)}
    trusted = next(folder for folder in absolute.parents if folder in mine)
    return trusted, list(absolute.relative_to(trusted).parts)


def _working_directories() -> list[Path]:
    """The cwd, and the shell's spelling of it ($PWD, which may go through a link) if it is
    the same directory."""
    try:
        cwd = os.getcwd()
    except OSError:
        return [Path("/")]
    found = [Path(cwd)]
    logical = os.environ.get("PWD", "")
    if logical.startswith("/") and logical != cwd:
        try:
            if os.path.samefile(logical, cwd):
                found.append(Path(os.path.normpath(logical)))
        except OSError:
            pass
    return found


def _system_link(folder: Path) -> bool:
    """A root-owned link directly under / (a system layout, not something handed in)."""
    if folder.parent != Path("/"):
        return False
    try:
        info = folder.lstat()
    except OSError:
        return False
    return folder.is_symlink() and info.st_uid == 0
