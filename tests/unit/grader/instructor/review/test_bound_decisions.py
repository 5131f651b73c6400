"""Decisions are bound to what the reviewer read: a save for a submission that is no
longer current, or over a decision the reviewer never saw, is refused (409) with both
versions shown, and nothing is stored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.decisions import ConflictingDecision, StaleDecision
from grader.instructor.gradebook.entries import GradingKey
from tests.unit.grader.instructor.gradebook.factories import prose_entry
from tests.unit.grader.instructor.review.factories import client, filled_book

V1 = "Late ACK means the broker redelivers.\n"  # bob's EX-11-02 in filled_book


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found is not None, name
    return found.group(1)


def read_form(page: str) -> dict[str, str]:
    """What the decision form carries back, as the browser would post it."""
    return {name: hidden(page, name) for name in ("grading", "version", "back")}


def test_a_decision_on_a_submission_replaced_meanwhile_is_refused(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    form = read_form(http.get("/queue/bob/EX-11-02").text)  # v1 opened
    made.book.record(prose_entry("bob", "A second version, graded meanwhile.\n"))  # v2
    answer = made.decide("bob", "EX-11-02", score="2", comment="", **form)
    assert answer.status_code == 409  # type: ignore[attr-defined]
    page = answer.text  # type: ignore[attr-defined]
    assert "The submission changed" in page
    assert "Late ACK means the broker redelivers." in page  # the version read ...
    assert "A second version, graded meanwhile." in page  # ... and the current one
    assert made.book.result("bob", "EX-11-02").review is None  # type: ignore[union-attr]


def test_the_same_form_on_the_current_submission_is_stored(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    form = read_form(http.get("/queue/bob/EX-11-02").text)
    answer = made.decide("bob", "EX-11-02", score="2", comment="", **form)
    assert answer.status_code == 303  # type: ignore[attr-defined]
    result = made.book.result("bob", "EX-11-02")
    assert result is not None and result.reviewed and result.final_score == 2
    assert result.review is not None and result.review.grading_id == int(form["grading"])


def test_a_second_reviewer_sees_a_conflict_never_an_overwrite(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    first = read_form(http.get("/queue/bob/EX-11-02").text)
    second = dict(first)  # both opened the answer before either saved
    assert made.decide("bob", "EX-11-02", score="2", comment="mine", **first).status_code == 303  # type: ignore[attr-defined]
    answer = made.decide("bob", "EX-11-02", score="0", comment="theirs", **second)
    assert answer.status_code == 409  # type: ignore[attr-defined]
    assert "Another reviewer saved" in answer.text  # type: ignore[attr-defined]
    assert 'id="current-decision"' in answer.text  # type: ignore[attr-defined]
    review = made.book.result("bob", "EX-11-02").review  # type: ignore[union-attr]
    assert review is not None and (review.final_score, review.comment) == (2, "mine")
    # having seen the first decision (its version), the second reviewer may change it
    again = read_form(http.get("/queue/bob/EX-11-02").text)
    assert again["version"] == "1"
    assert made.decide("bob", "EX-11-02", score="1", comment="agreed", **again).status_code == 303  # type: ignore[attr-defined]
    assert made.book.result("bob", "EX-11-02").final_score == 1  # type: ignore[union-attr]


def test_the_gradebook_refuses_stale_and_conflicting_decisions(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    v1 = book.result("bob", "EX-11-02")
    assert v1 is not None
    book.record(prose_entry("bob", "v2\n"))
    with pytest.raises(StaleDecision):
        book.set_review("bob", "EX-11-02", final_score=1, grading_id=v1.grading_id, version=0)
    assert book.result("bob", "EX-11-02").review is None  # type: ignore[union-attr]
    v2 = book.result("bob", "EX-11-02")
    assert v2 is not None
    book.set_review("bob", "EX-11-02", final_score=1, grading_id=v2.grading_id, version=0)
    with pytest.raises(ConflictingDecision):
        book.set_review("bob", "EX-11-02", final_score=2, grading_id=v2.grading_id, version=0)
    assert book.result("bob", "EX-11-02").final_score == 1  # type: ignore[union-attr]


def test_a_regrade_of_the_same_text_is_still_what_was_read(tmp_path: Path) -> None:
    """A new grader version grades the same text again (a new grading id): the text the
    reviewer read is still the student's, so the decision lands."""
    book = filled_book(tmp_path)
    v1 = book.result("bob", "EX-11-02")
    assert v1 is not None
    regraded = prose_entry("bob", V1)
    new_key = GradingKey("bob", "EX-11-02", regraded.key.content_sha256, "e" * 64)
    from dataclasses import replace

    book.record(replace(regraded, key=new_key))
    assert book.result("bob", "EX-11-02").grading_id != v1.grading_id  # type: ignore[union-attr]
    book.set_review("bob", "EX-11-02", final_score=2, grading_id=v1.grading_id, version=0)
    assert book.result("bob", "EX-11-02").reviewed  # type: ignore[union-attr]


def test_one_question_across_the_class_with_the_provisional_score_prefilled(
    tmp_path: Path,
) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    start = http.get("/queue?exercise=EX-11-02")
    assert start.headers["location"] == "/queue/alice/EX-11-02?exercise=EX-11-02"
    page = http.get(start.headers["location"]).text
    assert "2 left in this question / 2 in all" in page
    assert 'id="next" rel="next" href="/queue/bob/EX-11-02?exercise=EX-11-02"' in page
    provisional = made.book.result("alice", "EX-11-02").score  # type: ignore[union-attr]
    assert re.search(rf'id="score"[^>]*value="{provisional:g}"', page)
    form = {**read_form(page), "queue_exercise": "EX-11-02"}
    saved = made.decide("alice", "EX-11-02", score=f"{provisional:g}", comment="", **form)
    assert saved.headers["location"] == "/queue/bob/EX-11-02?exercise=EX-11-02"  # type: ignore[attr-defined]
    assert (
        "1 left in this question / 1 in all"
        in http.get("/queue/bob/EX-11-02?exercise=EX-11-02").text
    )
    assert http.get("/queue?exercise=NOPE").headers["location"].startswith("/queue/bob/")  # ignored


def test_the_language_survives_a_redirect_and_the_favicon_is_served(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    redirect = http.get("/queue?lang=zh")
    assert redirect.status_code == 303
    assert "grader_review_lang=zh" in redirect.headers.get("set-cookie", "")
    assert 'lang="zh-CN"' in http.get(redirect.headers["location"]).text  # by the cookie
    icon = http.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert http.get("/static/favicon.svg").status_code == 200


def test_postgresql_refuses_stale_and_concurrent_decisions_the_same_way(
    postgres_url: str,
) -> None:
    """Two reviewers racing on PostgreSQL: of two saves that read version 0, one lands."""
    from concurrent.futures import ThreadPoolExecutor

    with Gradebook(postgres_url) as book:
        book.record(prose_entry("bob", V1))
        v1 = book.result("bob", "EX-11-02")
        assert v1 is not None

        def save(score: float) -> str:
            try:
                book.set_review("bob", "EX-11-02", final_score=score,
                                grading_id=v1.grading_id, version=0)  # fmt: skip
            except ConflictingDecision:
                return "conflict"
            return "stored"

        with ThreadPoolExecutor(2) as pool:
            outcomes = sorted(pool.map(save, (1.0, 2.0)))
        assert outcomes == ["conflict", "stored"]
        book.record(prose_entry("bob", "v2\n"))
        with pytest.raises(StaleDecision):
            book.set_review("bob", "EX-11-02", final_score=0, grading_id=v1.grading_id, version=1)
        result = book.result("bob", "EX-11-02")
        assert result is not None and result.review is not None and result.review.version == 1


@pytest.mark.parametrize("grading", ["", "not-a-number"])
def test_a_form_that_does_not_name_its_grading_is_refused(tmp_path: Path, grading: str) -> None:
    """A decision is final, so it must say what it was read on: without the grading (or
    with one that is not a grading id) nothing is stored, and the page says why."""
    made = client(tmp_path)
    http = made.signed_in()
    form = {**read_form(http.get("/queue/bob/EX-11-02").text), "grading": grading}
    answer = made.decide("bob", "EX-11-02", score="2", comment="", **form)
    assert answer.status_code == 303  # type: ignore[attr-defined]
    target = answer.headers["location"]  # type: ignore[attr-defined]
    assert "flash=" in target
    shown = http.get(target).text
    assert "does not name the grading it was read on" in shown
    assert made.book.result("bob", "EX-11-02").review is None  # type: ignore[union-attr]
