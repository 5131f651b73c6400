"""``grader feedback`` writes only what the instructor released: by default an undecided
prose answer shows no score; the instructor's internal flags never reach a student."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from grader.frontends.cli import main
from grader.instructor.gradebook import Gradebook
from tests.unit.grader.instructor.gradebook.factories import code_entry, prose_entry

INTERNAL = ("changed since review", "changed after it was reviewed", "复核之后", "changed_since")


def _class(url: str) -> None:
    with Gradebook(url) as book:
        book.record(code_entry("alice"))
        book.record(prose_entry("alice", "undecided answer\n"))  # provisional 1 of 2
        book.record(prose_entry("bob", "decided answer\n"))
        book.set_review("bob", "EX-11-02", final_score=1.5, comment="well argued", reviewer="li")
        book.record(prose_entry("carol", "first text\n"))
        book.set_review("carol", "EX-11-02", final_score=2, comment="old text", reviewer="li")
        book.record(prose_entry("carol", "second text, after the decision\n"))


def _section(page: str, exercise: str) -> str:
    found = re.search(rf'<section id="{exercise}"(.*?)</section>', page, re.S)
    assert found is not None, exercise
    return found.group(0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_by_default_no_page_shows_an_undecided_prose_score(
    tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    _class(url)
    out = tmp_path / "pages"
    assert main(["feedback", "--db", url, "--out", str(out), "--lang", lang]) == 0
    pages = {path.stem: path.read_text("utf-8") for path in out.glob("*.html")}
    assert set(pages) == {"alice", "bob", "carol"}
    for student in ("alice", "carol"):  # carol's decision was on her older text
        held = _section(pages[student], "EX-11-02")
        assert 'data-status="awaiting"' in held
        assert not re.search(r"\b1 / 2\b|\b2 / 2\b", held), held  # no provisional, no stale score
        assert (
            "等待教师评阅（满分 2 分）" if lang == "zh" else "awaiting the instructor (2 points)"
        ) in held
        assert "old text" not in held and "concept" not in held
    decided = _section(pages["bob"], "EX-11-02")
    assert 'data-status="reviewed"' in decided and "1.5 / 2" in decided
    assert "well argued" in decided
    for page in pages.values():
        assert not any(flag in page for flag in INTERNAL)
    assert "2" in capsys.readouterr().err  # says how many answers were held back


def test_all_releases_provisional_scores_marked_and_filters_choose_pages(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    _class(url)
    out = tmp_path / "all"
    assert main(["feedback", "--db", url, "--out", str(out), "--lang", "en", "--all"]) == 0
    alice = _section((out / "alice.html").read_text("utf-8"), "EX-11-02")
    assert "1 / 2" in alice and "provisional" in alice
    some = tmp_path / "some"
    argv = ["feedback", "--db", url, "--out", str(some), "--students", "alice,bob"]
    assert main([*argv, "--exercises", "EX-11-01"]) == 0
    assert sorted(p.stem for p in some.glob("*.html")) == ["alice"]  # bob has no EX-11-01
    assert "EX-11-02" not in (some / "alice.html").read_text("utf-8")
    assert main(["feedback", "--db", url, "--out", str(some), "--students", "nobody"]) == 2


def test_notes_per_exercise_are_the_hook_for_lateness(tmp_path: Path) -> None:
    """What the term's deadlines know (lateness, penalty) is shown under the exercise it is
    about, and only there."""
    from grader.instructor.feedback import feedback_html
    from grader.judge.results import Message

    url = f"sqlite:///{tmp_path / 'g.db'}"
    _class(url)
    with Gradebook(url) as book:
        rows = book.results(student="alice")
    late = Message("error.usage", {"detail": "handed in 2 days late: -10%"})  # any catalogue id
    page = feedback_html("alice", rows, "en", notes={"EX-11-01": [late]})
    assert "handed in 2 days late: -10%" in _section(page, "EX-11-01")
    assert "late" not in _section(page, "EX-11-02")
    assert "late: -10%" not in feedback_html("alice", rows, "en")
