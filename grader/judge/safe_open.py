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


def open_flag(name: str) -> int:
    """``os.O_<name>``, or 0 where the platform has none (Windows: O_DIRECTORY, O_NOFOLLOW,
    O_NONBLOCK, O_CLOEXEC; it has O_BINARY and O_NOINHERIT instead)."""
    return int(getattr(os, f"O_{name}", 0))


_DIR_FLAGS = open_flag("PATH") | open_flag("DIRECTORY") | open_flag("CLOEXEC")
FILE_FLAGS = (
    os.O_RDONLY
    | open_flag("NOFOLLOW")
    | open_flag("NONBLOCK")
    | open_flag("CLOEXEC")
    | open_flag("BINARY")
)


class LinkOnPath(OSError):
    """A folder on the path (``link``) is a symbolic link the grader will not follow."""

    def __init__(self, link: str) -> None:
        super().__init__(errno.ELOOP, "a folder on the path is a symbolic link", link)
        self.link = link


def open_no_links(path: Path) -> int:
    """A descriptor for ``path`` (``FILE_FLAGS``); ``LinkOnPath`` or ``OSError`` otherwise."""
    absolute = Path(os.path.abspath(path))
    if os.open not in os.supports_dir_fd:  # Windows: no openat; check each part, then open
        return _open_checked(absolute)
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


def _open_checked(absolute: Path) -> int:
    """Where there is no ``openat`` (Windows, where a student's own check is portable and
    unofficial): no folder below the cwd, and not the file, may be a link (a check, then
    the open: nothing official rests on it)."""
    cwd = Path(os.getcwd())
    for here in (absolute, *absolute.parents):
        if here == cwd or here in cwd.parents:
            break
        if here.is_symlink():
            raise LinkOnPath(str(here))
    return os.open(absolute, FILE_FLAGS)


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
