"""The submission page says what ``grade`` and ``integrity`` say of a hand-in: handed in
late with its penalty, or a zip whose manifest names another student; and a change of
lateness (``grader extend``) reaches the page, although no result changed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import update

from grader.instructor.gradebook.models import Receipt
from grader.instructor.term.store import record_receipts
from tests.unit.grader.instructor.review.factories import client

RECEIVED = datetime(2026, 12, 8, 1, 30, tzinfo=UTC)
DUE = RECEIVED - timedelta(hours=2, minutes=5)


def _late(made: object, seconds: float, penalty: float) -> None:
    book = made.book  # type: ignore[attr-defined]
    with book.sessions() as session, session.begin():
        session.execute(
            update(Receipt)
            .where(Receipt.student == "alice", Receipt.exercise == "EX-11-01")
            .values(due_at=DUE, late_by_seconds=seconds, penalty=penalty)
        )


def test_late_and_a_foreign_manifest_are_shown_then_an_extension_clears_lateness(
    tmp_path: Path,
) -> None:
    made = client(tmp_path)
    alice = made.book.result("alice", "EX-11-01")
    assert alice is not None
    http = made.signed_in()
    before = http.get("/s/alice/EX-11-01").text
    assert "Handed in" not in before and "manifest" not in before

    rows = [("alice", "EX-11-01", alice.content_sha256, RECEIVED, "zip")]
    record_receipts(made.book, rows, claimed={"alice": "bob"})
    _late(made, 2 * 3600 + 5 * 60, 0.1)
    page = http.get("/s/alice/EX-11-01").text
    assert "Handed in 2 h 5 min late (due 2026-12-07 23:25 UTC); penalty 10%." in page
    assert "alice: the zip&#39;s manifest names another student, bob" in page

    _late(made, 0.0, 0.0)  # what an extension past the received time does
    after = http.get("/s/alice/EX-11-01").text
    assert "Handed in" not in after
    assert "manifest names another student, bob" in after
    assert "Handed in" not in http.get("/s/bob/EX-11-02").text
