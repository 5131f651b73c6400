"""The inbox's tables: each roster student's hand-in token, and the hand-ins accepted.

Each function is one short transaction on ``book``. A hand-in's version is the next free
number for that student, taken by inserting under the unique key (student, version): two
uploads racing for one number are decided by the conflict, and the loser takes the next.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.models import Handin, InboxToken, RosterEntry

#: 32 random bytes, URL-safe: what a student pastes into GRADER_TOKEN.
TOKEN_BYTES = 32


def new_token() -> str:
    """A student's token: URL-safe, and never starting with "-", which ``grader submit
    --token -x...`` (and any shell tool) would read as an option (1 token in 64 did)."""
    while (token := secrets.token_urlsafe(TOKEN_BYTES)).startswith("-"):
        pass
    return token


#: Compared against when a student has no token, so a refusal takes the same time.
_NO_TOKEN = new_token()
_VERSION_TRIES = 20


@dataclass(frozen=True)
class TokenRow:
    """One line of ``grader roster tokens``'s CSV (for a mail merge)."""

    student: str
    name: str
    email: str
    token: str


@dataclass(frozen=True)
class HandinView:
    student: str
    version: int
    sha256: str
    size: int
    received_at: datetime
    #: "EX-11-01/retry_policy_probe.py" -> the file's sha256, as the manifest lists it.
    files: Mapping[str, str]

    @property
    def exercises(self) -> tuple[str, ...]:
        return tuple(sorted({name.split("/", 1)[0] for name in self.files}))


def ensure_tokens(book: Gradebook, rotate: Sequence[str] = ()) -> list[TokenRow]:
    """A token for every roster student: existing ones kept, missing ones made, and those
    of ``rotate`` replaced. An id in ``rotate`` that is not on the roster is refused before
    anything is written."""
    with book.sessions.begin() as session:
        students = list(session.scalars(select(RosterEntry).order_by(RosterEntry.student)))
        known = {row.student for row in students}
        unknown = sorted(set(rotate) - known)
        if unknown:
            raise UsageError("error.inbox_rotate_unknown", given=", ".join(unknown[:5]))
        tokens = {row.student: row for row in session.scalars(select(InboxToken))}
        now = datetime.now(UTC)
        rows = []
        for student in students:
            held = tokens.get(student.student)
            if held is None:
                held = InboxToken(student=student.student, created_at=now)
                held.token = new_token()
                session.add(held)
            elif student.student in rotate:
                held.token = new_token()
                held.created_at = now
            rows.append(TokenRow(student.student, student.name, student.email, held.token))
    return rows


def token_matches(book: Gradebook, student: str, given: str) -> bool:
    """Whether ``given`` is ``student``'s token, compared in constant time (an unknown
    student is compared against a random token, so both refusals take as long)."""
    with book.sessions() as session:
        held = session.get(InboxToken, student)
    expected = held.token if held is not None else _NO_TOKEN
    return hmac.compare_digest(expected.encode(), given.encode()) and held is not None


def record_handin(
    book: Gradebook,
    student: str,
    sha256: str,
    size: int,
    files: Mapping[str, str],
    received_at: datetime | None = None,
) -> HandinView:
    """Insert the next version of ``student``'s hand-ins, received now (the server's clock)."""
    moment = received_at or datetime.now(UTC)
    for _ in range(_VERSION_TRIES):
        try:
            with book.sessions.begin() as session:
                taken = session.scalar(
                    select(func.max(Handin.version)).where(Handin.student == student)
                )
                row = Handin(
                    student=student,
                    version=(taken or 0) + 1,
                    sha256=sha256,
                    size=size,
                    received_at=moment,
                    files=dict(files),
                )
                session.add(row)
            return _view(row)
        except IntegrityError:
            continue  # another upload of this student took the number: take the next
    raise UsageError("error.inbox_busy", student=student)


def handins(book: Gradebook, student: str | None = None) -> list[HandinView]:
    """Every hand-in (of ``student``), by student then version."""
    query = select(Handin).order_by(Handin.student, Handin.version)
    if student is not None:
        query = query.where(Handin.student == student)
    with book.sessions() as session:
        return [_view(row) for row in session.scalars(query)]


def first_received(views: Iterable[HandinView]) -> dict[tuple[str, str, str], datetime]:
    """(student, file in the zip, its sha256) -> when the inbox first received that file:
    a later hand-in that leaves an exercise unchanged does not make it late."""
    first: dict[tuple[str, str, str], datetime] = {}
    for view in views:
        for name, digest in view.files.items():
            key = (view.student, name, digest)
            if key not in first or view.received_at < first[key]:
                first[key] = view.received_at
    return first


def _view(row: Handin) -> HandinView:
    received = row.received_at
    if received.tzinfo is None:  # SQLite returns naive datetimes
        received = received.replace(tzinfo=UTC)
    files = {str(k): str(v) for k, v in row.files.items()}
    return HandinView(row.student, row.version, row.sha256, row.size, received, files)


def token_count(book: Gradebook) -> int:
    with book.sessions() as session:
        return session.scalar(select(func.count()).select_from(InboxToken)) or 0
