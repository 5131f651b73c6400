"""Unpacking a student's zip safely, into a private temporary folder only.

Every bad-archive case becomes an ``ArchiveProblem`` (a catalogue id naming the problem)
*before* anything is written: entries with ``..`` or absolute paths, symbolic links,
duplicate names, a name that is both a file and a folder (``EX-11-01`` then
``EX-11-01/x``), a path part over ``MAX_PART_BYTES`` or a path over ``MAX_PATH_BYTES``
(UTF-8 bytes, what the file system counts), more than ``MAX_ENTRIES`` entries or more
than ``MAX_UNPACKED`` bytes (checked against the declared sizes, and again against the
bytes actually inflated), a corrupt zip, and a ``manifest.json`` whose hashes do not
match the files.

The zip itself is opened like any handed-in file (``open_no_links``: no link, a regular file).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

from grader.judge.safe_open import LinkOnPath, open_no_links

MAX_ENTRIES = 200
MAX_UNPACKED = 20 << 20
#: The zip file itself (compressed) may be at most this big.
MAX_ARCHIVE = 40 << 20
#: NAME_MAX and a conservative PATH_MAX share for the part of the path inside the zip.
MAX_PART_BYTES = 255
MAX_PATH_BYTES = 1024
MANIFEST = "manifest.json"
_CHUNK = 1 << 16


class ArchiveProblem(Exception):
    """The archive cannot be graded as handed in; ``message_id``/``params`` say why."""

    def __init__(self, message_id: str, **params: str | int) -> None:
        super().__init__(message_id, params)
        self.message_id = message_id
        self.params = params


def read_archive(path: Path) -> bytes:
    """The zip's bytes, read once from a descriptor opened without following links."""
    try:
        fd = open_no_links(path)
    except (LinkOnPath, OSError) as error:
        raise ArchiveProblem(
            "batch.archive_corrupt", archive=path.name, detail=str(error)[:200]
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ArchiveProblem("batch.archive_corrupt", archive=path.name, detail="not a file")
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_ARCHIVE + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_ARCHIVE:
        raise ArchiveProblem("batch.archive_too_big", archive=path.name, limit=MAX_ARCHIVE >> 20)
    return data


def extract(data: bytes, name: str, destination: Path) -> str | None:
    """Unpack the zip ``data`` (named ``name`` in messages) into the empty ``destination``;
    the student its manifest names (None without a manifest)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as error:
        raise ArchiveProblem(
            "batch.archive_corrupt", archive=name, detail=str(error)[:200]
        ) from None
    with archive:
        files = _validated(entries, name)
        hashes = {}
        budget = MAX_UNPACKED
        for info, parts in files:
            target = destination.joinpath(*parts)
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:  # checked above; the file system may still refuse
                raise ArchiveProblem(
                    "batch.archive_corrupt", archive=name, detail=_os_detail(error)
                ) from None
            hashes["/".join(parts)], written = _inflate(archive, info, target, budget, name)
            budget -= written
        return _check_manifest(destination, hashes, name)


def _validated(
    entries: list[zipfile.ZipInfo], name: str
) -> list[tuple[zipfile.ZipInfo, tuple[str, ...]]]:
    if len(entries) > MAX_ENTRIES:
        raise ArchiveProblem(
            "batch.archive_too_many", archive=name, count=len(entries), limit=MAX_ENTRIES
        )
    if sum(info.file_size for info in entries) > MAX_UNPACKED:
        raise ArchiveProblem("batch.archive_too_big", archive=name, limit=MAX_UNPACKED >> 20)
    seen: set[str] = set()
    files = []
    for info in entries:
        shown = info.filename[:200]
        parts = _safe_parts(info.filename)
        if parts is None:
            raise ArchiveProblem("batch.archive_unsafe_path", archive=name, entry=shown)
        _check_lengths(parts, name, shown)
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0: no Unix type recorded
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):  # a link, a FIFO, a device
            raise ArchiveProblem("batch.archive_link", archive=name, entry=shown)
        key = "/".join(parts).casefold()
        if key in seen:
            raise ArchiveProblem("batch.archive_duplicate", archive=name, entry=shown)
        seen.add(key)
        if not info.is_dir():
            files.append((info, parts))
    _check_prefixes(files, name)
    return files


def _check_lengths(parts: tuple[str, ...], name: str, shown: str) -> None:
    longest = max(len(part.encode("utf-8", "surrogatepass")) for part in parts)
    if longest > MAX_PART_BYTES:
        raise ArchiveProblem(
            "batch.archive_name_too_long", archive=name, entry=shown, limit=MAX_PART_BYTES
        )
    if len("/".join(parts).encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise ArchiveProblem(
            "batch.archive_path_too_long", archive=name, entry=shown, limit=MAX_PATH_BYTES
        )


def _check_prefixes(files: list[tuple[zipfile.ZipInfo, tuple[str, ...]]], name: str) -> None:
    """No file may also be a folder of another entry (``a`` and ``a/b``)."""
    folders = {
        "/".join(parts[:end]).casefold(): "/".join(parts[:end])
        for _, parts in files
        for end in range(1, len(parts))
    }
    for info, parts in files:
        if "/".join(parts).casefold() in folders:
            raise ArchiveProblem(
                "batch.archive_prefix_clash", archive=name, entry=info.filename[:200]
            )


def _os_detail(error: OSError) -> str:
    return (error.strerror or type(error).__name__)[:200]


def _safe_parts(filename: str) -> tuple[str, ...] | None:
    """The path's parts, or None for an absolute path, ``..``, a drive or a NUL."""
    if "\0" in filename or "\\" in filename or filename.startswith("/") or ":" in filename:
        return None
    parts = tuple(part for part in PurePosixPath(filename).parts if part not in ("", "."))
    if not parts or any(part == ".." for part in parts):
        return None
    return parts


def _inflate(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: int, name: str
) -> tuple[str, int]:
    """Write one entry (never over an existing path, never through a link); its sha256."""
    digest, written = hashlib.sha256(), 0
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(target, flags, 0o600)
    except OSError:
        raise ArchiveProblem(
            "batch.archive_duplicate", archive=name, entry=info.filename[:200]
        ) from None
    try:
        with archive.open(info) as source, os.fdopen(fd, "wb") as sink:
            while chunk := source.read(_CHUNK):
                written += len(chunk)
                if written > budget:  # the declared size lied
                    raise ArchiveProblem(
                        "batch.archive_too_big", archive=name, limit=MAX_UNPACKED >> 20
                    )
                digest.update(chunk)
                sink.write(chunk)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as error:
        raise ArchiveProblem(
            "batch.archive_corrupt", archive=name, detail=str(error)[:200]
        ) from None
    return digest.hexdigest(), written


def _check_manifest(destination: Path, hashes: dict[str, str], name: str) -> str | None:
    """When the zip has a manifest (``grader submit`` writes one), every file it lists must
    be there with that sha256, and every other file must be listed."""
    if MANIFEST not in hashes:
        return None
    try:
        manifest = json.loads((destination / MANIFEST).read_text(encoding="utf-8"))
        listed = manifest["files"]
        if not isinstance(listed, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in listed.items()
        ):
            raise ValueError("'files' must map paths to sha256 strings")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise ArchiveProblem(
            "batch.manifest_invalid", archive=name, detail=str(error)[:200]
        ) from None
    actual = {path: digest for path, digest in hashes.items() if path != MANIFEST}
    for path in sorted(set(actual) | set(listed)):
        if actual.get(path) != listed.get(path):
            raise ArchiveProblem("batch.manifest_mismatch", archive=name, entry=path[:200])
    student = manifest.get("student")
    return str(student)[:64] if student is not None else None
