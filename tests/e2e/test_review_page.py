"""``grader review`` in a real headless Chromium (Debian's package, driven by Playwright)
on a generated class graded by the real ``grader grade``.

The acceptance walk of issue 11: 403 without the token; the review queue walked with the
keyboard; a final score and a comment set on a prose answer, kept across a reload and a
re-grade (and flagged when the submission changed); the CSV export carrying the final
score; a prose answer holding ``<script>alert(1)</script>`` shown as text with no dialog;
class insight showing the mutant shares of ``grader stats --json``. Every request the
browser makes goes to the local server. Screenshots of the matrix, a submission, the queue
and class insight, in Chinese and English, go to $REVIEW_SCREENSHOTS (default: a tmp dir).
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.stats import evaluated
from tests.e2e.batch_support import grader
from tests.e2e.review_support import (
    Server,
    arrived,
    browser,
    chromium_missing,
    click,
    href,
    press,
    review_server,
    screenshots_folder,
    settled,
    shown,
)
from tests.support.classroom import SCRIPT, Member, make_class

# one worker builds this module's class fixture once (not once per xdist worker)
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.xdist_group("test_review_page"),
    pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or ""),
]

PROFILES = [
    "reference",
    "reference",
    "prose_en",
    "prose_script",
    "wrong:EX-11-01/skips_exhaustion.py",
    "wrong:EX-11-01/wrong_policy.py",
    "wrong:EX-12-01/ignores_second_result.py",
    "wrong:EX-13-01/no_duplicate_delivery.py",
    "starter",
    "partial",
    "crash",
    "zip_dotdot",
    "notebook",
]


@dataclass(frozen=True)
class ReviewClass:
    work: Path
    url: str
    members: list[Member]
    server: Server

    def student(self, profile: str) -> str:
        return next(m.student for m in self.members if m.profile == profile)

    def grade(self) -> dict[str, Any]:
        ran = grader(
            "grade", "submissions", "--jobs", "2", "--json", "--db", self.url, cwd=self.work
        )
        assert ran.code == 0, ran.stderr
        summary: dict[str, Any] = ran.json()
        return summary


@pytest.fixture(scope="module")
def review_class(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReviewClass]:
    work = tmp_path_factory.mktemp("review")
    database = work / "gradebook.db"
    members = make_class(work / "submissions", database, PROFILES)
    url = f"sqlite:///{database}"
    first = grader("grade", "submissions", "--jobs", "2", "--json", "--db", url, cwd=work)
    assert first.code == 0, first.stderr
    with review_server(url, work) as server:
        yield ReviewClass(work, url, members, server)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


@dataclass
class Tab:
    page: Any
    requests: list[str]
    dialogs: list[str]


@pytest.fixture
def tab(chromium: Any, review_class: ReviewClass) -> Iterator[Tab]:
    """A fresh browser context signed in through the printed address (token -> cookie)."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    opened = Tab(page, [], [])
    page.on("request", lambda request: opened.requests.append(request.url))
    page.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
    response = page.goto(review_class.server.url)
    assert response is not None and response.status == 200
    assert "token=" not in page.url  # the token moved into the cookie
    settled(page)
    yield opened
    context.close()
    local = review_class.server.base + "/"
    assert opened.requests and all(url.startswith(local) for url in opened.requests), [
        url for url in opened.requests if not url.startswith(local)
    ]


def _book(review_class: ReviewClass) -> Gradebook:
    return Gradebook(review_class.url)


def test_without_the_token_every_request_is_forbidden(
    chromium: Any, review_class: ReviewClass
) -> None:
    context = chromium.new_context()
    page = context.new_page()
    base = review_class.server.base
    for path in ("/", "/queue", "/insight", "/static/review.css", "/?token=wrong"):
        response = page.goto(base + path)
        assert response is not None and response.status == 403, path
        assert "grader review" in page.inner_text("body")
    posted = context.request.post(
        base + "/decide/x/EX-11-02", form={"score": "1", "csrf_token": "x"}
    )
    assert posted.status == 403
    cookies = context.cookies()
    assert cookies == []  # nothing handed out without the token
    context.close()


def test_the_token_becomes_an_http_only_strict_cookie(tab: Tab) -> None:
    [cookie] = tab.page.context.cookies()
    assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
    assert tab.page.evaluate("document.cookie") == ""  # out of reach of any script


def _queue_keys(review_class: ReviewClass) -> list[tuple[str, str]]:
    with _book(review_class) as book:
        return sorted(
            ((r.student, r.exercise) for r in book.results(status="needs_review")),
            key=lambda key: (key[1], key[0]),
        )


def test_walk_the_queue_decide_reload_regrade_and_export(
    tab: Tab, review_class: ReviewClass
) -> None:
    page = tab.page
    base = review_class.server.base
    expected = _queue_keys(review_class)
    assert len(expected) >= 20
    click(page, "#nav-queue")
    arrived(page, f"{base}/queue/{expected[0][0]}/{expected[0][1]}")
    walked = []
    while True:
        student, exercise = page.url.rsplit("/", 2)[-2:]
        walked.append((student, exercise))
        position = page.inner_text("#queue-position")
        assert f"{len(walked)} of {len(expected)}" in position
        if page.query_selector("#next") is None:
            break
        following = href(page, "#next")
        press(page, "j")
        arrived(page, following)
    # every needs_review answer, once, one question across the class at a time
    assert sorted(walked) == sorted(expected) and len(walked) == len(expected)
    assert [exercise for _, exercise in walked] == [exercise for _, exercise in expected]
    previous = href(page, "#prev")
    press(page, "k")
    arrived(page, previous)
    assert page.url.endswith("/".join(walked[-2]))

    # decide on a prose answer: digit key for the score, a comment, Ctrl+Enter to save
    student = review_class.student("prose_en")
    page.goto(f"{base}/queue/{student}/EX-11-02")
    left_before = int(page.inner_text("#left-count"))
    press(page, "3")
    assert page.input_value("#score") == "3"
    page.fill("#comment", "Clear on redelivery; <b>name</b> the late ACK.")
    press(page, "Control+Enter")
    # on to the next answer of the same question
    arrived(page, lambda url: url.endswith("/EX-11-02") and f"/queue/{student}/" not in url)
    assert int(page.inner_text("#left-count")) == left_before - 1

    def kept() -> None:
        page.goto(f"{review_class.server.base}/queue/{student}/EX-11-02")
        assert page.input_value("#score") == "3"
        assert page.input_value("#comment") == "Clear on redelivery; <b>name</b> the late ACK."
        assert "prof-e2e" in page.inner_text("#decided-by")
        assert page.inner_text("#final-score") == "3"

    page.reload()
    kept()

    # a re-grade of the unchanged class keeps the decision
    summary = review_class.grade()
    assert summary["graded"] == 0
    kept()
    assert page.query_selector("#changed-since-review") is None

    # a changed submission: the decision is kept but flagged
    other = review_class.student("reference")
    deciding = f"{base}/queue/{other}/EX-12-02"
    page.goto(deciding)
    page.fill("#score", "4.5")
    page.fill("#comment", "good")
    click(page, "#save")
    arrived(page, lambda url: url != deciding)  # saved, then on to the next answer
    answer = review_class.work / "submissions" / other / "EX-12-02" / "answer.md"
    answer.write_text(answer.read_text(encoding="utf-8") + "\nOne more thought.\n", "utf-8")
    assert review_class.grade()["graded"] == 1
    page.goto(f"{review_class.server.base}/s/{other}/EX-12-02")
    # the decision on the old text is kept for the instructor, flagged, and no longer counts:
    # the new text waits again, its provisional score in the box
    assert page.is_visible("#changed-since-review")
    with _book(review_class) as book:
        changed = book.result(other, "EX-12-02")
        assert changed is not None and not changed.reviewed and changed.review is not None
        provisional = changed.score
    assert page.input_value("#score") == f"{provisional:g}"
    kept()

    # export and feedback use the decisions
    exported = grader("export", "--db", review_class.url, "--format", "csv", cwd=review_class.work)
    text = exported.stdout.removeprefix("\ufeff")  # spreadsheet CSV starts with a BOM
    rows = {row["student"]: row for row in csv.DictReader(io.StringIO(text))}
    assert rows[student]["EX-11-02"] == "3"
    # not the decision on the old text, and nothing provisional reaches the LMS: empty
    assert rows[other]["EX-12-02"] == ""
    out = review_class.work / "feedback"
    shutil.rmtree(out, ignore_errors=True)
    assert (
        grader("feedback", "--db", review_class.url, "--out", str(out), cwd=review_class.work).code
        == 0
    )
    html = (out / f"{student}.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;name&lt;/b&gt; the late ACK" in html


def test_an_override_on_a_code_exercise_needs_a_comment(
    tab: Tab, review_class: ReviewClass
) -> None:
    page = tab.page
    student = review_class.student("wrong:EX-11-01/wrong_policy.py")
    page.goto(f"{review_class.server.base}/s/{student}/EX-11-01")
    assert page.is_visible("#mutants") and page.is_visible("#twins")
    page.fill("#score", "7")
    page.eval_on_selector("#comment", "element => element.removeAttribute('required')")
    click(page, "#save")
    # post/redirect/get: back to the same page, the refused form shown again
    arrived(page, lambda url: f"/s/{student}/EX-11-01?" in url and "flash=" in url)
    shown(page, "#decision-error")
    assert "needs a comment" in page.inner_text("#decision-error")
    with _book(review_class) as book:
        result = book.result(student, "EX-11-01")
        assert result is not None and result.review is None
    page.fill("#score", "7")
    page.fill("#comment", "The policy is right; the grader's twin check was too strict here.")
    click(page, "#save")
    arrived(page, f"{review_class.server.base}/s/{student}/EX-11-01?saved=1")
    shown(page, "#saved")
    with _book(review_class) as book:
        result = book.result(student, "EX-11-01")
        assert result is not None and result.final_score == 7 and result.review is not None
        assert result.review.reviewer == "prof-e2e"


def test_a_script_in_a_prose_answer_is_shown_as_text(tab: Tab, review_class: ReviewClass) -> None:
    page = tab.page
    student = review_class.student("prose_script")
    page.goto(f"{review_class.server.base}/s/{student}/EX-11-02")
    page.wait_for_load_state("load")
    assert tab.dialogs == []
    assert SCRIPT in page.inner_text("#student-file")
    assert page.eval_on_selector_all("#student-file script", "nodes => nodes.length") == 0
    page.goto(f"{review_class.server.base}/queue/{student}/EX-11-02")
    assert SCRIPT in page.inner_text("#student-file") and tab.dialogs == []


def test_class_insight_shows_the_mutant_shares_of_grader_stats(
    tab: Tab, review_class: ReviewClass
) -> None:
    stats = grader("stats", "--db", review_class.url, "--json", cwd=review_class.work).json()
    page = tab.page
    click(page, "#nav-insight")
    arrived(page, f"{review_class.server.base}/insight")
    compared = 0
    for exercise in stats["exercises"]:
        for mutant, share in exercise["mutants"].items():
            bar = page.query_selector(
                f"#mutants-{exercise['exercise']} g.bar[data-name='{mutant}']"
            )
            assert bar is not None, (exercise["exercise"], mutant)
            assert float(bar.get_attribute("data-share") or "nan") == share["share"]
            assert f"({share['survived']}/{share['evaluated']})" in (bar.text_content() or "")
            compared += 1
    assert compared >= 10
    # a surviving mutant lists exactly the students whose probe let it through
    exercise = next(e for e in stats["exercises"] if e["exercise"] == "EX-11-01")
    mutant = next(name for name, s in exercise["mutants"].items() if s["survived"])
    link = f"#mutants-EX-11-01 g.bar[data-name='{mutant}'] a"
    target = href(page, link)
    click(page, link)
    arrived(page, target)
    settled(page)
    listed = sorted(
        page.eval_on_selector_all("#mutant-students a", "a => a.map(x => x.textContent)")
    )
    with _book(review_class) as book:
        survivors = sorted(
            r.student
            for r in book.results(exercise="EX-11-01")
            # a probe that crashed on the real code was never run against the mutant
            if any(c.name == f"mutant:{mutant}" and not c.passed and evaluated(c) for c in r.checks)
        )
    assert listed == survivors and len(listed) == exercise["mutants"][mutant]["survived"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_screenshots_of_every_page(tab: Tab, review_class: ReviewClass, lang: str) -> None:
    folder = screenshots_folder()
    page = tab.page
    base = review_class.server.base
    student = review_class.student("wrong:EX-11-01/skips_exhaustion.py")
    pages = {
        "matrix": f"{base}/?lang={lang}&sort=total_desc",
        "submission": f"{base}/s/{student}/EX-11-01?lang={lang}",
        "queue": f"{base}/queue/{review_class.student('prose_en')}/EX-12-02?lang={lang}",
        "insight": f"{base}/insight?lang={lang}",
    }
    marker = {"zh": "评阅", "en": "review"}[lang]
    for name, url in pages.items():
        response = page.goto(url)
        assert response is not None and response.status == 200, name
        assert marker in page.inner_text("header")
        page.screenshot(path=str(folder / f"{name}-{lang}.png"), full_page=name != "matrix")
    assert sorted(p.name for p in folder.glob(f"*-{lang}.png")) == sorted(
        f"{name}-{lang}.png" for name in pages
    )
