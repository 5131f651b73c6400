"""Issue 21's acceptance walk, in Debian's Chromium (Playwright) over the real ``grader
review`` on a generated class of 64 students graded by the real ``grader grade``:

one question (EX-11-02) walked across the class; the largest answer group decided with
one decision; the rest accepted at their provisional score with the ``a`` key; after a
reload every member of the group is ``reviewed`` with the group's score and an override
of one member is kept; re-grading the unchanged class keeps every decision and group.

Every browser step waits for the page's own state (``data-ready`` set by review.js, and
the address the step leads to) before the next key press or click.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.groups import Groups, group_answers
from tests.e2e.batch_support import grader
from tests.e2e.review_support import Server, browser, chromium_missing, review_server
from tests.support.classroom import Member, make_class

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.xdist_group("test_review_class_walk"),
    pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or ""),
]

EXERCISE = "EX-11-02"
#: 64 students: most hand in the reference answer (one near-identical group), some the
#: English answer (another group), a few too short or untouched (not in the queue).
PROFILES = [*["reference"] * 52, *["prose_en"] * 6, "prose_script", "prose_short", *["starter"] * 4]
READY = "document.documentElement.dataset.ready === '1'"


@dataclass(frozen=True)
class Walk:
    work: Path
    url: str
    members: list[Member]
    server: Server

    def grade(self) -> dict[str, Any]:
        ran = grader(
            "grade", "submissions", "--exercise", EXERCISE, "--jobs", "2", "--json",
            "--db", self.url, cwd=self.work,
        )  # fmt: skip
        assert ran.code == 0, ran.stderr
        summary: dict[str, Any] = ran.json()
        return summary

    def groups(self) -> Groups:
        with Gradebook(self.url) as book:
            return Groups(tuple(group_answers(book.results(exercise=EXERCISE))))


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Walk]:
    work = tmp_path_factory.mktemp("walk")
    database = work / "gradebook.db"
    members = make_class(work / "submissions", database, PROFILES)
    url = f"sqlite:///{database}"
    first = grader(
        "grade", "submissions", "--exercise", EXERCISE, "--jobs", "2", "--db", url, cwd=work
    )
    assert first.code == 0, first.stderr
    with review_server(url, work) as server:
        yield Walk(work, url, members, server)


def _settled(page: Any, leaving: str | None = None) -> None:
    """Wait until the page that a step leads to is the one shown, and ready for keys."""
    if leaving is not None:
        page.wait_for_url(lambda url: url != leaving)
    page.wait_for_load_state("domcontentloaded")
    page.wait_for_function(READY)


def test_one_question_across_the_class_with_groups_and_the_accept_key(walk: Walk) -> None:
    with Gradebook(walk.url) as book:
        # the queue: answers awaiting review, a too-short answer among them (never failed unseen)
        prose = [r for r in book.results(exercise=EXERCISE) if r.in_queue]
    assert len(walk.members) >= 60 and len(prose) >= 55
    groups = walk.groups()
    largest = groups.shared(EXERCISE)[0]
    assert largest.size >= 50

    with browser() as chromium:
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(walk.server.url)
        _settled(page)
        decisions = 0

        # the largest group: one decision for every member
        page.goto(f"{walk.server.base}/groups?exercise={EXERCISE}")
        _settled(page)
        before = page.url
        page.click(f'tr[data-group="{largest.key}"] a')
        _settled(page, before)
        assert page.locator("section.member").count() == min(largest.size, 12)
        page.fill("#score", "1.5")
        page.fill("#comment", "Names the late ACK and the redelivery.")
        before = page.url
        page.click("#save")
        _settled(page, before)
        decisions += 1
        assert page.locator("#saved").is_visible()

        # the rest of the question, one by one: "a" accepts the provisional score
        page.goto(f"{walk.server.base}/queue?exercise={EXERCISE}")
        _settled(page)
        while page.locator("#queue-empty").count() == 0:
            assert "left in this question" in page.inner_text("#queue-left")
            provisional = page.get_attribute("#score", "data-provisional")
            assert page.input_value("#score") == provisional  # prefilled
            before = page.url
            page.keyboard.press("a")
            _settled(page, before)
            decisions += 1
        assert "All answers to EX-11-02 are reviewed" in page.inner_text("#queue-empty")
        assert page.locator("#to-insight").get_attribute("href") == "/insight"

        # override one member of the group on its own page
        overridden = largest.members[3].student
        page.goto(f"{walk.server.base}/s/{overridden}/{EXERCISE}")
        _settled(page)
        page.fill("#score", "0.5")
        before = page.url
        page.click("#save")
        _settled(page, before)

        def check_reloaded() -> None:
            page.goto(f"{walk.server.base}/?status=reviewed")
            _settled(page)
            page.reload()
            _settled(page)
            column = _column(page, EXERCISE)
            for member in largest.members:
                cell = page.locator(f'tr[data-student="{member.student}"] td.cell').nth(column)
                assert "st-reviewed" in (cell.get_attribute("class") or ""), member.student
                wanted = "0.5" if member.student == overridden else "1.5"
                assert re.search(rf"\b{re.escape(wanted)}/", cell.inner_text()), member.student
            assert not re.search(r"needs review \([1-9]", page.inner_text("#filter-status"), re.I)

        check_reloaded()
        print(f"\nEX-11-02: {len(prose)} prose answers reviewed with {decisions} decisions")
        assert decisions < len(prose) / 3

        # re-grading the unchanged class keeps every decision and every group
        summary = walk.grade()
        assert summary["graded"] == 0 and summary["reviewed"] == len(prose)
        assert summary["needs_review"] == 0
        again = walk.groups()
        assert [(g.key, [m.student for m in g.members]) for g in again.groups] == [
            (g.key, [m.student for m in g.members]) for g in groups.groups
        ]
        check_reloaded()
        page.goto(f"{walk.server.base}/group/{largest.key}")
        _settled(page)
        assert page.locator('[data-overridden="1"]').count() == 1
        context.close()
    local = walk.server.base + "/"
    assert requests and all(url.startswith(local) for url in requests)


def _column(page: Any, exercise: str) -> int:
    headers = page.locator("#matrix thead th").all_inner_texts()
    return headers.index(exercise) - 1  # the first header is the student column
