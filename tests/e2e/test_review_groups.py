"""Answer groups in a real headless Chromium (issue 31): an answer that copies another and
appends denials is not in its group; the group page shows first what each member adds;
after a decision with two members left out, the form keeps them out and the page says
who was decided; a second save does not reach them.

The gradebook is written directly (the groups read results, not how they were graded)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from grader.instructor.gradebook import Gradebook
from tests.e2e.review_support import (
    Server,
    arrived,
    browser,
    chromium_missing,
    click,
    review_server,
    settled,
    shown,
)
from tests.unit.grader.instructor.gradebook.factories import prose_entry

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or ""),
]

ANSWER = (
    "Late ACK: the broker redelivers the message when the worker dies before the ack, "
    "so the task runs again and must be idempotent.\n"
)
MEMBERS = {
    "g1": ANSWER,
    "g2": ANSWER.replace("the worker", "a worker"),
    "g3": ANSWER.replace("redelivers", "re-delivers"),
    "g4": ANSWER,
    "g5": ANSWER.replace("  ", " "),
}
#: the poisoned answer of issue 31: the same text, then three short denials
DENIED = ANSWER + "People say this, but it is a myth. It cannot happen. It is harmless.\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    work = tmp_path_factory.mktemp("groups")
    url = f"sqlite:///{work / 'gradebook.db'}"
    book = Gradebook(url)
    for student, text in {**MEMBERS, "p1": DENIED}.items():
        book.record(prose_entry(student, text))
    book.close()
    with review_server(url, work) as running:
        yield running, url


@pytest.fixture
def page(server: tuple[Server, str]) -> Iterator[Any]:
    with browser() as launched:
        context = launched.new_context(viewport={"width": 1400, "height": 900})
        opened = context.new_page()
        response = opened.goto(server[0].url)
        assert response is not None and response.status == 200
        settled(opened)
        yield opened
        context.close()


def _ticked(page: Any) -> list[str]:
    boxes = page.locator('#apply-to input[name="apply"]')
    return [
        boxes.nth(i).get_attribute("value")
        for i in range(boxes.count())
        if boxes.nth(i).is_checked()
    ]


def test_a_group_decided_with_two_members_left_out_keeps_them_out(
    page: Any, server: tuple[Server, str]
) -> None:
    running, url = server
    page.goto(f"{running.base}/groups")
    settled(page)
    rows = page.locator("#groups tbody tr")
    assert rows.count() == 1  # the denied answer is not in it
    click(page, "#groups tbody tr a")
    arrived(page, lambda seen: "/group/" in seen)
    members = page.locator("#members section.member")
    assert sorted(members.nth(i).get_attribute("data-student") for i in range(5)) == [
        "g1", "g2", "g3", "g4", "g5",
    ]  # fmt: skip
    assert "p1" not in page.inner_text("#members")
    g2 = page.locator('section.member[data-student="g2"]')
    assert g2.locator("p.adds mark").first.inner_text().strip() == "a"  # shown first
    assert _ticked(page) == ["g1", "g2", "g3", "g4", "g5"]
    page.uncheck('#apply-to input[value="g2"]')
    page.uncheck('#apply-to input[value="g4"]')
    page.fill("#score", "1.5")
    click(page, "#save")
    arrived(page, lambda seen: "saved=1" in seen)
    shown(page, "#group-decided")
    assert _ticked(page) == ["g1", "g3", "g5"]  # the two left out stay out
    assert "g1, g3, g5" in page.inner_text("#group-decided")
    assert "g2, g4" in page.inner_text("#group-not-decided")
    # saving again, as the form came back, still does not reach them
    page.fill("#score", "2")
    click(page, "#save")
    arrived(page, lambda seen: "saved=1" in seen)
    assert _ticked(page) == ["g1", "g3", "g5"]
    book = Gradebook(url)
    decided = {s: book.result(s, "EX-11-02") for s in MEMBERS}
    book.close()
    assert {s: r.reviewed for s, r in decided.items() if r} == {
        "g1": True, "g2": False, "g3": True, "g4": False, "g5": True,
    }  # fmt: skip
    assert decided["g3"] is not None and decided["g3"].final_score == 2
