"""Which shared libraries an extension module needs (``DT_NEEDED``, transitively), read from
the ELF file itself: the run's file-system view (``grader.runner.view``) shows the system
libraries the interpreter can load and no other file of ``/usr``.

Running ``ldd`` over the interpreter's extension modules takes seconds; reading the dynamic
section of each file takes milliseconds. Only 64-bit little-endian ELF is read (x86-64,
aarch64); elsewhere ``needed`` finds nothing and the view shows what is mapped already.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterable, Sequence

_PT_LOAD, _PT_DYNAMIC, _PT_INTERP = 1, 2, 3
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 15, 29
#: Where the dynamic loader looks when a library names no path of its own (Debian's
#: multiarch directories first; the others where a distribution uses them).
SYSTEM_DIRS = (
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
)


def _dynamic(path: str) -> tuple[list[str], list[str]]:
    """(DT_NEEDED names, DT_RUNPATH/DT_RPATH directories) of one ELF file, or empty lists.
    Reads the headers, the dynamic section and the strings it names, never the whole file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return [], []
    try:
        return _read_dynamic(fd, os.path.dirname(path))
    except (OSError, struct.error):
        return [], []
    finally:
        os.close(fd)


def _read_dynamic(fd: int, origin: str) -> tuple[list[str], list[str]]:
    header = os.pread(fd, 64, 0)
    if len(header) < 64 or header[:6] != b"\x7fELF\x02\x01":  # ELF, 64-bit, little-endian
        return [], []
    (phoff,) = struct.unpack_from("<Q", header, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", header, 0x36)
    table = os.pread(fd, phentsize * phnum, phoff)
    loads, dynamic = [], None
    for index in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", table, index * phentsize
        )
        if p_type == _PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == _PT_DYNAMIC:
            dynamic = os.pread(fd, min(p_filesz, 1 << 16), p_offset)
    if dynamic is None:
        return [], []
    tags: list[tuple[int, int]] = []
    for at in range(0, len(dynamic) - 15, 16):
        tag, value = struct.unpack_from("<qQ", dynamic, at)
        if tag == _DT_NULL:
            break
        tags.append((tag, value))
    strtab = next((value for tag, value in tags if tag == _DT_STRTAB), None)
    if strtab is None:
        return [], []
    # the string table's address, as an offset in the file (through the segment holding it)
    base = next((strtab - a + o for a, o, size in loads if a <= strtab < a + size), None)
    if base is None:
        return [], []

    def text(offset: int) -> str:
        raw = os.pread(fd, 4096, base + offset)
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")

    needed = [text(v) for t, v in tags if t == _DT_NEEDED]
    paths = [p for t, v in tags if t in (_DT_RUNPATH, _DT_RPATH) for p in text(v).split(":")]
    return needed, [p.replace("$ORIGIN", origin).replace("${ORIGIN}", origin) for p in paths if p]


def interpreter(path: str) -> str | None:
    """The program interpreter (``PT_INTERP``: the dynamic loader, by the path the kernel
    opens when the program is executed), or None."""
    try:
        with open(path, "rb") as f:
            header = f.read(64)
            if len(header) < 64 or header[:6] != b"\x7fELF\x02\x01":
                return None
            (phoff,) = struct.unpack_from("<Q", header, 0x20)
            phentsize, phnum = struct.unpack_from("<HH", header, 0x36)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
            for index in range(phnum):
                p_type, _, p_offset, _, _, p_filesz = struct.unpack_from(
                    "<IIQQQQ", table, index * phentsize
                )
                if p_type == _PT_INTERP:
                    f.seek(p_offset)
                    return f.read(p_filesz).split(b"\0", 1)[0].decode()
    except (OSError, struct.error, UnicodeDecodeError):
        return None
    return None


def found(names: Iterable[str], search: Sequence[str] = SYSTEM_DIRS) -> set[str]:
    """The libraries called ``names``, where the loader would find them, with theirs."""
    paths = set()
    for name in names:
        candidates = (os.path.join(folder, name) for folder in search)
        path = next((c for c in candidates if os.path.isfile(c)), None)
        if path is not None:
            paths.add(path)
    return paths | needed(paths, search)


def needed(files: Iterable[str], search: Sequence[str] = SYSTEM_DIRS) -> set[str]:
    """Every library ``files`` load, transitively, as found on disk (unresolved names are
    left out: the loader would not find them either)."""
    found: set[str] = set()
    todo = list(files)
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        names, own_dirs = _dynamic(path)
        for name in names:
            for folder in (*own_dirs, *search):
                candidate = os.path.join(folder, name)
                if os.path.isfile(candidate):
                    found.add(candidate)
                    todo.append(candidate)
                    break
    return found
