"""Answer groups: alike prose answers (same rubric result, texts a few characters apart,
no added sentence, no changed negation) decided with one decision, each member still
overridable; members left out of a decision stay out; a member whose text changes leaves
the group, flagged; the same groups on every read and after a re-grade."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlencode

from httpx2 import Response
from starlette.testclient import TestClient

from grader.instructor.gradebook import Gradebook, GradingEntry
from grader.instructor.gradebook.groups import (
    Groups,
    additions,
    decidable_once,
    distance,
    folded,
    group_answers,
)
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard
from grader.instructor.review.group_routes import added, marked
from grader.judge.results import build_report, msg, passed_check
from tests.unit.grader.instructor.gradebook.factories import key, prose_entry

SAME = "Late ACK: the broker redelivers the message when the worker dies before the ack.\n"
NEAR = "Late ACK: the broker redelivers the message when a worker dies before the ack.\n"
OTHER = "Retries are bounded at three, with exponential backoff of five seconds.\n"


def _all_found(student: str, text: str) -> GradingEntry:
    """Same text as others but a different rubric result (both concepts found)."""
    from grader.instructor.gradebook.entries import entry_from_report

    checks = (
        passed_check("concept:late_ack_redelivery", 1.0, msg("concept.found")),
        passed_check("concept:bounded_task_retry", 1.0, msg("concept.found")),
    )
    report = build_report("EX-11-02", "prose", checks, status="needs_review")
    return entry_from_report(
        key(student, "EX-11-02", text), report, file_name="answer.md", content=text, seconds=0
    )


def _book(path: Path) -> Gradebook:
    book = Gradebook(f"sqlite:///{path / 'g.db'}")
    for student in ("s1", "s2", "s3"):
        book.record(prose_entry(student, SAME))
    book.record(prose_entry("s4", NEAR))
    book.record(prose_entry("s5", OTHER))
    book.record(_all_found("s6", SAME))
    return book


def test_alike_answers_form_one_group_and_nothing_else_joins(tmp_path: Path) -> None:
    book = _book(tmp_path)
    groups = Groups(tuple(group_answers(book.results())))
    [shared] = groups.shared()
    assert [m.student for m in shared.members] == ["s1", "s2", "s3", "s4"]
    assert groups.of_member[("s5", "EX-11-02")].size == 1  # other text
    assert groups.of_member[("s6", "EX-11-02")].size == 1  # same text, other rubric result
    again = Groups(tuple(group_answers(book.results())))
    assert [g.key for g in again.groups] == [g.key for g in groups.groups]  # every read
    book.record(prose_entry("s2", SAME))  # a re-grade of unchanged work
    assert [g.key for g in Groups(tuple(group_answers(book.results()))).groups] == [
        g.key for g in groups.groups
    ]


def test_differences_from_the_first_member_are_marked_and_escaped() -> None:
    shown = str(marked(NEAR.replace("a worker", "a <b>worker</b>"), SAME))
    assert "<mark>" in shown and "&lt;b&gt;" in shown and "<b>" not in shown
    assert "<mark>" not in str(marked(SAME, SAME))


def _client(book: Gradebook) -> tuple[TestClient, Guard]:
    guard = Guard(hosts=("testserver",))
    http = TestClient(create_app(ReviewSettings(None, "prof", "en", guard), book))
    http.follow_redirects = False
    http.get(f"/?token={guard.token}")
    return http, guard


def _post(http: TestClient, url: str, pairs: list[tuple[str, str]]) -> Response:
    """A form with repeated fields, encoded as the browser does."""
    headers = {"content-type": "application/x-www-form-urlencoded"}
    return http.post(url, content=urlencode(pairs), headers=headers)


def _group_form(page: str, guard: Guard) -> list[tuple[str, str]]:
    members = re.findall(r'name="member" value="([^"]+)"', page)
    ticked = re.findall(r'name="apply" value="([^"]+)" checked', page)
    return [
        ("csrf_token", guard.csrf_token),
        *[("member", m) for m in members],
        *[("apply", t) for t in ticked],
    ]


def test_one_decision_for_the_group_an_override_kept_a_changed_member_leaves(
    tmp_path: Path,
) -> None:
    book = _book(tmp_path)
    http, guard = _client(book)
    listing = http.get("/groups").text
    [group_key] = re.findall(r'href="/group/([0-9a-f]+)"', listing)
    page = http.get(f"/group/{group_key}").text
    assert page.count('class="member"') == 4 and "<mark>" in page
    form = [*_group_form(page, guard), ("score", "1.5"), ("comment", "same point")]
    answer = _post(http, f"/decide-group/{group_key}", form)
    assert answer.status_code == 303
    for student in ("s1", "s2", "s3", "s4"):
        result = book.result(student, "EX-11-02")
        assert result is not None and result.shown_status == "reviewed"
        assert result.final_score == 1.5 and result.review is not None
        assert result.review.group_key == group_key
    assert not book.result("s5", "EX-11-02").reviewed  # type: ignore[union-attr]

    # override one member on its own page: kept, and left unticked for the group
    s3 = book.result("s3", "EX-11-02")
    assert s3 is not None
    book.set_review("s3", "EX-11-02", final_score=0.5, comment="weaker", reviewer="prof",
                    grading_id=s3.grading_id, version=s3.review_version)  # fmt: skip
    page = http.get(f"/group/{group_key}").text
    assert 'name="apply" value="s3" checked' not in page and 'data-overridden="1"' in page
    again = [*_group_form(page, guard), ("score", "2"), ("comment", "")]
    assert _post(http, f"/decide-group/{group_key}", again).status_code == 303
    assert book.result("s3", "EX-11-02").final_score == 0.5  # type: ignore[union-attr]
    assert book.result("s1", "EX-11-02").final_score == 2  # type: ignore[union-attr]

    # a stale group form (read before the second decision) is refused, all or nothing
    stale = [*_group_form(page, guard), ("score", "0"), ("comment", "")]
    assert _post(http, f"/decide-group/{group_key}", stale).status_code == 409
    assert book.result("s1", "EX-11-02").final_score == 2  # type: ignore[union-attr]

    # s4 hands in another text: it leaves the group, flagged, and waits again
    book.record(prose_entry("s4", OTHER + "and more\n"))
    groups = Groups(tuple(group_answers(book.results())))
    group = groups.by_key[group_key]
    assert [m.student for m in group.members] == ["s1", "s2", "s3"]
    assert [m.student for m in group.left] == ["s4"]
    assert not book.result("s4", "EX-11-02").reviewed  # type: ignore[union-attr]
    assert 'id="group-left"' in http.get(f"/group/{group_key}").text


ANSWER = (
    "Late ACK: the broker redelivers the message when the worker dies before the ack, "
    "so the task runs again and must be idempotent.\n"
)
ANSWER_ZH = (
    "晚确认：worker 在 ack 之前死掉，broker 会把消息重新投递，任务会再执行一次，所以必须幂等。\n"
)


def test_an_answer_with_appended_denials_is_not_grouped_with_the_one_it_copies(
    tmp_path: Path,
) -> None:
    """The poisoning of issue 31: same rubric result, trigram Jaccard 0.85, yet the
    appended sentences deny everything; one decision could not be right for both."""
    denied = ANSWER + "People say this, but it is a myth. It cannot happen. Late ACK is harmless.\n"
    denied_zh = ANSWER_ZH + "有人担心会丢消息，这种情况其实不会发生。\n"
    short_denial = ANSWER.rstrip("\n") + " False.\n"  # one word, one added sentence
    negated = ANSWER.replace("must be", "need not be")  # a few characters, a negation
    typo = ANSWER.replace("redelivers", "redelivres")  # a typo: decidable once
    assert distance(folded(typo), folded(ANSWER)) == 2
    assert decidable_once(typo, ANSWER) and decidable_once(ANSWER_ZH.replace("，", ","), ANSWER_ZH)
    for other in (denied, short_denial, negated):
        assert not decidable_once(other, ANSWER), other
    assert not decidable_once(denied_zh, ANSWER_ZH)
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student, text in (
        ("a1", ANSWER), ("a2", denied), ("a3", short_denial), ("a4", negated), ("a5", typo),
        ("z1", ANSWER_ZH), ("z2", denied_zh),
    ):  # fmt: skip
        book.record(prose_entry(student, text))
    groups = Groups(tuple(group_answers(book.results())))
    assert [[m.student for m in g.members] for g in groups.shared()] == [["a1", "a5"]]
    older = ANSWER.replace("the worker", "the old worker")
    assert decidable_once(older, ANSWER)
    assert [piece.strip() for piece in additions(older, ANSWER)] == ["old"]
    assert [str(piece).replace(" ", "") for piece in added(older, ANSWER)] == ["<mark>old</mark>"]


def test_after_a_group_decision_the_members_left_out_stay_out(tmp_path: Path) -> None:
    book = Gradebook(f"sqlite:///{tmp_path / 'g.db'}")
    for student in ("m1", "m2", "m3", "m4", "m5"):
        book.record(prose_entry(student, SAME))
    http, guard = _client(book)
    [group_key] = re.findall(r'href="/group/([0-9a-f]+)"', http.get("/groups").text)
    page = http.get(f"/group/{group_key}").text
    members = re.findall(r'name="member" value="([^"]+)"', page)
    assert len(re.findall(r'name="apply" value="[^"]+" checked', page)) == 5
    chosen = [("apply", s) for s in ("m1", "m3", "m5")]  # m2 and m4 left out
    form = [("csrf_token", guard.csrf_token), *[("member", m) for m in members], *chosen]
    answer = _post(http, f"/decide-group/{group_key}", [*form, ("score", "2"), ("comment", "")])
    assert answer.status_code == 303
    assert [book.result(s, "EX-11-02").reviewed for s in ("m1", "m2", "m3", "m4", "m5")] == [  # type: ignore[union-attr]
        True, False, True, False, True,
    ]  # fmt: skip
    page = http.get(f"/group/{group_key}").text
    assert re.findall(r'name="apply" value="([^"]+)" checked', page) == ["m1", "m3", "m5"]
    assert re.search(r'id="group-decided">[^<]*m1, m3, m5', page)
    assert re.search(r'id="group-not-decided">[^<]*m2, m4', page)
    # the form as it comes back, saved again with another score, still leaves them out
    again = _group_form(page, guard)
    assert _post(http, f"/decide-group/{group_key}", [*again, ("score", "1"), ("comment", "")])
    assert [book.result(s, "EX-11-02").reviewed for s in ("m2", "m4")] == [False, False]  # type: ignore[union-attr]
    assert book.result("m3", "EX-11-02").final_score == 1  # type: ignore[union-attr]
