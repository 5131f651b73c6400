"""Student text (code, prose, output, comments) is always shown as escaped text."""

from __future__ import annotations

from pathlib import Path

from grader.instructor.review.highlight import highlighted
from tests.unit.grader.instructor.review.factories import HOSTILE, client

RAW = ("<script>alert(1)</script>", "<img src=x onerror", "</textarea><b>", "\x1b[31m", "\u202e")


def test_highlighting_escapes_every_tag_and_drops_controls() -> None:
    html = str(highlighted(HOSTILE, "prose")) + str(highlighted(HOSTILE, "code"))
    for raw in RAW:
        assert raw not in html
    assert "&lt;" in html and "script" in html and "red" in html


def test_the_submission_and_queue_pages_show_the_hostile_answer_as_text(tmp_path: Path) -> None:
    http = client(tmp_path).signed_in()
    for path in ("/s/alice/EX-11-02", "/queue/alice/EX-11-02"):
        page = http.get(path).text
        for raw in RAW:
            assert raw not in page, (path, raw)
        assert "{{ 7*7 }}" in page  # shown, not evaluated as a template
        assert "&lt;" in page


def test_a_hostile_comment_and_evidence_are_escaped(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    comment = "</textarea><script>alert(3)</script>"
    made.decide("alice", "EX-11-02", score="1", comment=comment, back="submission")
    page = http.get("/s/alice/EX-11-02").text
    assert "<script>alert(3)" not in page
    assert "&lt;/textarea&gt;&lt;script&gt;alert(3)&lt;/script&gt;" in page
    evidence_page = http.get("/s/alice/EX-11-01").text  # the mutant's evidence is a <script>
    assert "<script>alert(1)</script>" not in evidence_page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in evidence_page


def test_an_unknown_student_or_exercise_is_not_echoed_raw(tmp_path: Path) -> None:
    http = client(tmp_path).signed_in()
    answer = http.get("/s/%3Cscript%3E/EX-11-01")
    assert answer.status_code == 404 and "<script>" not in answer.text


def test_a_hostile_name_in_a_zip_manifest_is_escaped(tmp_path: Path) -> None:
    """A zip's manifest names any string (64 characters at most): the student wrote it, and
    the submission page now shows it (``details.term_notes``)."""
    from datetime import UTC, datetime

    from grader.instructor.term.store import record_receipts

    made = client(tmp_path)
    alice = made.book.result("alice", "EX-11-01")
    assert alice is not None
    forged = "<img src=x onerror=alert(4)>\x1b[31m"
    received = datetime(2026, 12, 8, tzinfo=UTC)
    rows = [("alice", "EX-11-01", alice.content_sha256, received, "zip")]
    record_receipts(made.book, rows, claimed={"alice": forged})
    page = made.signed_in().get("/s/alice/EX-11-01").text
    assert "manifest names another student" in page
    assert "<img src=x onerror" not in page and "\x1b" not in page
    assert "&lt;img src=x onerror=alert(4)&gt;" in page


def test_roster_names_stand_beside_ids_escaped_on_every_page(tmp_path: Path) -> None:
    """Names come from an LMS export (anyone may type one): shown, as text, beside the id."""
    from grader.instructor.term.roster import Student
    from grader.instructor.term.store import import_roster

    made = client(tmp_path)
    hostile = "王小明<script>alert(5)</script>"
    import_roster(made.book, [Student("alice", hostile, section="Section <b>A</b>")])
    http = made.signed_in()
    for path in ("/", "/s/alice/EX-11-02", "/queue/alice/EX-11-02"):
        page = http.get(path).text
        assert "<script>alert(5)" not in page and "<b>A</b>" not in page, path
        assert (
            "王小明&lt;script&gt;alert(5)&lt;/script&gt; · Section &lt;b&gt;A&lt;/b&gt;" in page
        ), path
