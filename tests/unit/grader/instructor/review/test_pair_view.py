"""The integrity pair view: a reported pair side by side with the lines both hold marked
and the report's reasons; the submission page names whoever it was reported with; what
a student wrote is escaped; a pair nobody reported says so."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from starlette.testclient import TestClient

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.entries import GradingKey
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard
from grader.instructor.review.pair_routes import side_by_side
from tests.unit.grader.instructor.gradebook.factories import code_entry

PAIR = Path(__file__).parents[1] / "term" / "files" / "integrity_class" / "pair"
ORIGINAL = (PAIR / "lukas.py").read_text(encoding="utf-8")
INDEPENDENT = (PAIR / "mei.py").read_text(encoding="utf-8")
#: the copy: ``_ = None`` after every statement, and a comment that must be escaped
COPY = "# <script>alert('copied')</script>\n" + ORIGINAL.replace(
    ", dead_letter)\n", ", dead_letter)\n_ = None\n"
)


def _client(tmp_path: Path) -> tuple[TestClient, Gradebook]:
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student, text in (("lukas", ORIGINAL), ("mei", INDEPENDENT), ("olaf", COPY)):
        entry = code_entry(student, text)
        key = GradingKey(student, "EX-11-01", entry.key.content_sha256, FINGER)
        book.record(replace(entry, key=key))
    guard = Guard(hosts=("testserver",))
    http = TestClient(create_app(ReviewSettings(None, "prof", "en", guard), book))
    http.follow_redirects = False
    http.get(f"/?token={guard.token}")
    return http, book


FINGER = "f" * 64


def test_lines_both_hand_ins_hold_are_marked_wherever_they_are() -> None:
    left, right = side_by_side("a = 1\n\nb = 2\nc = 3\n", "c = 3\n  a = 1\nb = 2\n\nd = 4\n")
    assert [line.shared for line in left] == [True, False, True, True]
    assert [line.shared for line in right] == [True, True, True, False, False]
    assert [line.number for line in right] == [1, 2, 3, 4, 5]


def test_a_reported_pair_side_by_side_and_the_note_on_the_submission(tmp_path: Path) -> None:
    http, book = _client(tmp_path)
    page = http.get("/s/olaf/EX-11-01").text
    [link] = re.findall(r'id="integrity-note">[^<]*<a href="([^"]+)">lukas</a>', page)
    assert link == "/pair/EX-11-01/lukas/olaf"
    assert 'id="integrity-note"' not in http.get("/s/mei/EX-11-01").text
    view = http.get(link)
    assert view.status_code == 200
    text = view.text
    assert 'data-report="near"' in text and "lukas_policy" in text and "row 1 is off" in text
    held = [line for line in ORIGINAL.splitlines() if line.strip()]
    assert text.count('<mark class="shared">') == 2 * len(held)  # every line, both sides
    assert "<script>alert" not in text and "&lt;script&gt;alert" in text
    # the same pair asked the other way round is the same view
    swapped = http.get("/pair/EX-11-01/olaf/lukas").text
    assert swapped.split('id="pair-reason"')[1] == text.split('id="pair-reason"')[1]
    honest = http.get("/pair/EX-11-01/lukas/mei").text
    assert 'data-report="none"' in honest and "does not report this pair" in honest
    assert http.get("/pair/EX-11-01/lukas/nobody").status_code == 404
    book.close()
