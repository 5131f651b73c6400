"""Reviewed means reviewed everywhere: once every answer is decided, the matrix (cells,
filter, counts), the grade summary, stats, the exports and the feedback pages all say
``reviewed`` with the final score, and none says ``needs_review``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.entrypoints.commands.grade import with_decisions
from grader.instructor.gradebook.export import to_csv, to_json
from grader.instructor.review.data import ClassData
from grader.instructor.review.matrix import build_matrix
from tests.unit.grader.instructor.review.factories import client


def test_every_front_end_says_reviewed_after_all_decisions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    book = made.book
    waiting = [r for r in book.results() if r.status == "needs_review"]
    assert len(waiting) == 2
    before = http.get("/").text
    assert re.search(r"Needs review \(2\)|needs review \(2\)", before, re.I)
    for result in waiting:
        book.set_review(result.student, result.exercise, final_score=1.5, reviewer="prof")

    # the matrix: cells, filter counts, the filter itself
    page = http.get("/").text
    assert not re.search(r"needs review \([1-9]", page, re.I) and 'st-needs_review"><a' not in page
    assert re.search(r"reviewed \(2\)", page, re.I)
    assert len(re.findall(r'class="cell st-reviewed"', page)) == 2
    matrix = build_matrix(ClassData(book).current(), "reviewed", "student")
    assert [row.student for row in matrix.rows] == ["alice", "bob"]
    assert matrix.counts["needs_review"] == 0 and matrix.counts["reviewed"] == 2
    assert "1.5" in page
    empty = http.get("/queue")
    assert empty.status_code == 200 and "All reviewed" in empty.text

    # the grade summary as the command prints it
    graded = {"graded": 0, "unchanged": 6, "passed": 1, "failed": 1, "needs_review": 2,
              "errors": 1, "missing": 1, "seconds": 1.0}  # fmt: skip
    summary = with_decisions(graded, book.url.render_as_string(False), {"alice", "bob", "carol"},
                             ("EX-11-01", "EX-11-02"))  # fmt: skip
    assert (summary["needs_review"], summary["reviewed"]) == (0, 2)

    url = book.url.render_as_string(hide_password=False)
    assert main(["stats", "--db", url, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    prose = next(e for e in stats["exercises"] if e["exercise"] == "EX-11-02")
    assert (prose["decided"], prose["waiting"]) == (2, 0)
    assert main(["stats", "--db", url, "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "reviewed" in text and "needs_review" not in text and "needs review" not in text

    exported = to_json(book.results())
    cells = [c for s in exported["students"] for c in s["results"].values()]
    assert sorted(c["status"] for c in cells if c["graded_status"] == "needs_review") == [
        "reviewed",
        "reviewed",
    ]
    csv = to_csv(book.results())
    assert "needs_review" not in csv and csv.splitlines()[2].split(",")[2] == "1.5"

    out = tmp_path / "pages"
    assert main(["feedback", "--db", url, "--out", str(out), "--lang", "en"]) == 0
    for page_file in out.glob("*.html"):
        html = page_file.read_text("utf-8").split("</style>", 1)[1]  # what a student reads
        assert "needs_review" not in html and "needs review" not in html.lower()
    alice = (out / "alice.html").read_text("utf-8")
    assert 'id="EX-11-02" data-status="reviewed"' in alice and "1.5 / 2" in alice
