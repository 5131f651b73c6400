"""What the pages list: twins and mutants per submission, the matrix filtered and sorted,
class insight with the shares of ``grader stats``, and the cache that follows the gradebook."""

from __future__ import annotations

import re
from pathlib import Path

from grader.instructor.gradebook.stats import class_stats, stats_to_json
from grader.instructor.review.charts import BAR_WIDTH, mutant_chart
from grader.instructor.review.data import ClassData
from grader.instructor.review.details import FAILED, NOT_EVALUATED, PASSED, mutant_rows, twin_rows
from grader.instructor.review.matrix import build_matrix
from tests.unit.grader.instructor.gradebook.factories import code_entry
from tests.unit.grader.instructor.review.factories import client, filled_book


def test_twins_before_the_failing_one_passed_and_the_rest_were_not_run(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    carol = book.result("carol", "EX-11-01")
    alice = book.result("alice", "EX-11-01")
    assert carol is not None and alice is not None
    assert [(r.twin, r.state) for r in twin_rows(carol)] == [
        ("loop_backoff", PASSED),
        ("shift_backoff", FAILED),
    ]
    assert {r.state for r in twin_rows(alice)} == {PASSED}
    assert [(r.mutant, r.killed) for r in mutant_rows(alice)] == [("off_by_one_bound", False)]


def test_twins_skipped_together_when_the_real_run_failed(tmp_path: Path) -> None:
    from grader.instructor.gradebook.entries import GradingKey, entry_from_report
    from grader.judge.results import build_report, failed_check, msg

    report = build_report(
        "EX-11-01", "code", (failed_check("equivalents", 0.0, msg("twin.skipped")),)
    )
    book = filled_book(tmp_path)
    book.record(
        entry_from_report(
            GradingKey("dave", "EX-11-01", "d" * 64, "f" * 64),
            report,
            file_name="p.py",
            content="x",
            seconds=0.1,
        )
    )
    dave = book.result("dave", "EX-11-01")
    assert dave is not None and {r.state for r in twin_rows(dave)} == {NOT_EVALUATED}


def test_the_matrix_filters_by_status_and_sorts_by_total(tmp_path: Path) -> None:
    snapshot = ClassData(filled_book(tmp_path)).current()
    everyone = build_matrix(snapshot, None, "student")
    assert [row.student for row in everyone.rows] == ["alice", "bob", "carol"]
    by_total = build_matrix(snapshot, None, "total_desc")
    totals = [row.total for row in by_total.rows]
    assert totals == sorted(totals, reverse=True)
    errors = build_matrix(snapshot, "resubmit", "student")
    assert [row.student for row in errors.rows] == ["bob"]
    assert build_matrix(snapshot, "<bad>", "<bad>").status is None  # unknown: ignored


def test_the_cache_follows_every_change_of_the_gradebook(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    data = ClassData(book)
    first = data.current()
    assert data.current() is first  # nothing changed: not read again
    book.set_review("bob", "EX-11-02", final_score=1, comment="", reviewer="prof")
    second = data.current()
    assert second is not first and second.result("bob", "EX-11-02").reviewed  # type: ignore[union-attr]
    book.record(code_entry("alice", text="v2\n"))
    third = data.current()
    assert third is not second and third.result("alice", "EX-11-01").content == "v2\n"  # type: ignore[union-attr]
    book.mark_current(code_entry("alice").key)  # back to the first version
    assert data.current().result("alice", "EX-11-01").content == "print(1)\n"  # type: ignore[union-attr]


def test_mutant_bars_carry_the_shares_of_grader_stats(tmp_path: Path) -> None:
    book = filled_book(tmp_path)
    stats = class_stats(book.results())
    wanted = stats_to_json(stats)["exercises"][0]["mutants"]
    [bar] = mutant_chart(stats[0], "/insight/mutant").bars
    assert (bar.name, bar.share) == ("off_by_one_bound", wanted["off_by_one_bound"]["share"])
    assert bar.width == round(BAR_WIDTH * bar.share, 1)
    assert bar.href == "/insight/mutant/EX-11-01/off_by_one_bound"


def test_insight_and_the_mutant_page_over_http(tmp_path: Path) -> None:
    made = client(tmp_path)
    http = made.signed_in()
    page = http.get("/insight").text
    shares = dict(re.findall(r'data-name="([a-z_]+)" data-share="([0-9.]+)"', page))
    assert shares["off_by_one_bound"] == "1.0"  # alice's probe let it through, carol's not credible
    listed = http.get("/insight/mutant/EX-11-01/off_by_one_bound").text
    # carol's probe was not credible (a twin failed): not evaluated against the mutant
    assert re.findall(r'<a href="/s/([a-z]+)/EX-11-01">', listed) == ["alice"]
    assert "1 of 1 probes evaluated against it" in listed and "2 handed in" in listed
    assert http.get("/insight/mutant/EX-11-01/no_such").status_code == 404


def test_every_page_renders_in_both_languages(tmp_path: Path) -> None:
    http = client(tmp_path).signed_in()
    for lang, word in (("en", "review"), ("zh", "评阅")):
        for path in ("/", "/s/alice/EX-11-01", "/s/bob/EX-11-01", "/s/bob/EX-12-02",
                     "/queue/alice/EX-11-02", "/insight"):  # fmt: skip
            answer = http.get(f"{path}?lang={lang}")
            assert answer.status_code == 200, path
            assert word in answer.text and "{" + "arg}" not in answer.text, path
    assert "评阅" in http.get("/").text  # the last choice (zh) is remembered (cookie)


def test_bar_labels_are_cut_by_display_width() -> None:
    from grader.instructor.review.rendering import fit

    assert fit("abc", 10) == "abc"
    assert fit("x" * 20, 10) == "x" * 9 + "…"  # ten columns with the ellipsis
    assert fit("包含要点" * 5, 10) == "包含要点…"  # CJK characters are two columns wide
