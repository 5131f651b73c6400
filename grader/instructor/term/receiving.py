"""When work arrived, from the instructor's side only, and the lateness it makes.

- the inbox's receipt (``grader inbox``): a zip the inbox stored is known by its sha256,
  and each of its files was received when the inbox FIRST received that file's content
  (the server's clock), so re-handing in unchanged work never makes it late;
- ``--received-at FILE.csv`` (columns ``student``, ``exercise``, ``time``; exercise ``all``
  or empty for every exercise), as an LMS or a collection script exports it;
- else the file's modification time in SUBMISSIONS: the collection time, when the files
  were copied in (``cp -p``/``rsync -t`` keep the LMS's times; a plain copy makes it the
  copy's time). The zip's own time for a zip; the handed-in file's for a folder.

The student's manifest (``created_at``) is their own clock and never used. A received
time is recorded once per content (``receipts``); a re-run never changes it. The master
only ``lstat``s names here, as it does when listing the class.
"""

from __future__ import annotations

import csv
import hashlib
import os
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, tzinfo
from pathlib import Path

from grader.errors import UsageError
from grader.instructor.batch.layout import StudentSource
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.deadlines import ALL, CourseSettings, parse_time
from grader.instructor.term.inbox_store import HandinView, first_received, handins
from grader.instructor.term.roster import normalised
from grader.instructor.term.store import (
    current_contents,
    extensions,
    receipts,
    record_receipts,
    set_lateness,
)
from grader.judge.safe_open import open_no_links

MISSING = "missing"


def read_received_at(path: Path, zone: tzinfo) -> dict[tuple[str, str], datetime]:
    """(student, exercise or "*") -> received time."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        detail = str(error)[:200]
        raise UsageError("error.received_at", path=str(path), line=0, detail=detail) from None
    rows = list(csv.reader(text.splitlines()))
    header = [normalised(cell) for cell in rows[0]] if rows else []
    if "student" not in header or "time" not in header:
        raise UsageError(
            "error.received_at", path=str(path), line=1, detail="student,exercise,time"
        )
    at = {name: header.index(name) for name in ("student", "exercise", "time") if name in header}
    found: dict[tuple[str, str], datetime] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = {name: row[i].strip() if i < len(row) else "" for name, i in at.items()}
        exercise = cells.get("exercise", "")
        key = (cells["student"], ALL if exercise.lower() in ("", "all", ALL) else exercise)
        try:
            found[key] = parse_time(cells["time"], zone, "time")
        except UsageError:
            raise UsageError(
                "error.received_at", path=str(path), line=line, detail=cells["time"][:80]
            ) from None
    return found


def _mtime(source: StudentSource, exercise: str, file_name: str | None) -> datetime | None:
    candidates = [source.path]
    if source.kind == "folder":
        folder = source.path / exercise
        candidates = [folder / file_name, folder] if file_name else [folder]
    for path in candidates:
        try:
            return datetime.fromtimestamp(os.lstat(path).st_mtime, UTC)
        except OSError:
            continue
    return None


def receive(
    book: Gradebook,
    sources: Sequence[StudentSource],
    exercises: Sequence[str],
    given: Mapping[tuple[str, str], datetime],
    claimed: dict[str, str] | None = None,
) -> int:
    """Record a received time for every current content of this run not received yet
    (``claimed``: student -> the other student their manifest names, kept with it)."""
    by_student = {source.student: source for source in sources}
    wanted = set(exercises)
    inbox = _InboxTimes(handins(book))
    rows = []
    for student, exercise, sha, _status, file_name in current_contents(book):
        source = by_student.get(student)
        if source is None or exercise not in wanted or sha == MISSING or source.kind == "clash":
            continue
        stamped = inbox.received(source, exercise)
        if stamped is not None:
            rows.append((student, exercise, sha, stamped, "inbox"))
            continue
        stated = given.get((student, exercise)) or given.get((student, ALL))
        if stated is not None:
            rows.append((student, exercise, sha, stated, "csv"))
            continue
        moment = _mtime(source, exercise, file_name)
        if moment is not None:
            rows.append((student, exercise, sha, moment, "mtime"))
    return record_receipts(book, rows, claimed)


class _InboxTimes:
    """The inbox's received times, for the zips the inbox stored (known by sha256)."""

    def __init__(self, views: Sequence[HandinView]) -> None:
        self.first = first_received(views)
        self.by_zip = {(view.student, view.sha256): view for view in views}
        self.students = {view.student for view in views}
        self._hashed: dict[Path, str | None] = {}

    def received(self, source: StudentSource, exercise: str) -> datetime | None:
        if source.student not in self.students or source.kind != "zip":
            return None
        view = self.by_zip.get((source.student, self._sha256(source.path) or ""))
        if view is None:  # a zip the inbox did not store: the folder's other rules apply
            return None
        times = [
            self.first[(source.student, name, digest)]
            for name, digest in view.files.items()
            if name.split("/", 1)[0] == exercise
        ]
        return min(times) if times else None

    def _sha256(self, path: Path) -> str | None:
        if path not in self._hashed:
            try:
                fd = open_no_links(path)
            except OSError:
                self._hashed[path] = None
            else:
                os.set_blocking(fd, True)
                digest = hashlib.sha256()
                with os.fdopen(fd, "rb") as handle:
                    for chunk in iter(lambda: handle.read(1 << 16), b""):
                        digest.update(chunk)
                self._hashed[path] = digest.hexdigest()
        return self._hashed[path]


def refresh_lateness(book: Gradebook, settings: CourseSettings) -> int:
    """Recompute due time, lateness and penalty of every receipt (extensions included);
    how many current submissions are late."""
    granted = {(e.student, e.exercise): e.until for e in extensions(book)}
    values = {}
    for (student, exercise, sha), receipt in receipts(book).items():
        extension = granted.get((student, exercise)) or granted.get((student, ALL))
        values[(student, exercise, sha)] = settings.lateness(
            exercise, receipt.received_at, extension
        )
    set_lateness(book, values)
    current = {(s, e, sha) for s, e, sha, _, _ in current_contents(book)}
    return sum(1 for key, (_, late_by, _) in values.items() if late_by > 0 and key in current)
