"""What a student sees in a notebook and a terminal (issue 14, "A student's day")."""

from __future__ import annotations

import re
from pathlib import Path

from grader.errors import UnknownExercise
from grader.frontends.notebook import error_report
from grader.judge.results import CheckReport, build_report, failed_check, msg, passed_check
from grader.render.html import report_to_html
from grader.render.json_out import report_to_dict
from grader.render.text import report_to_text

FILES = Path(__file__).parent / "files"
PRINTED = "RetryableTaskError 0 True 5 False\nRetryableTaskError 1 True 10 False\n"


def _print_only() -> CheckReport:
    """A print-only attempt: the same output is the evidence of every failed check."""
    checks = (
        passed_check("runs_cleanly", 1.0, msg("run.ok")),
        failed_check("output", 2.0, msg("output.missing", index=3, expected="x"), None, PRINTED),
        failed_check("calls", 1.0, msg("calls.policy.none"), None, PRINTED),
        passed_check("equivalents", 0.0, msg("twin.ok", count=2)),
        *(
            failed_check(f"mutant:{name}", 1.0, msg("mutant.survived", mutant=name), None, PRINTED)
            for name in ("constant_delay", "gives_up_early", "off_by_one_bound", "never")
        ),
    )
    return build_report("EX-11-01", "code", checks, title=msg("exercise.EX-11-01.title"))


def test_the_same_output_is_shown_once_in_html_and_text() -> None:
    report = _print_only()
    html = report_to_html(report, "zh")
    assert html.count("RetryableTaskError 1 True 10 False") == 1
    assert html.count("输出同上") == 5
    text = report_to_text(report, "en", color=False)
    assert text.count("RetryableTaskError 1 True 10 False") == 1
    assert text.count("Same output as shown above.") == 5


def test_a_passed_check_worth_no_points_is_not_shown() -> None:
    report = _print_only()
    assert "依赖行为" not in report_to_html(report, "zh")
    assert "(0/0)" not in report_to_text(report, "zh", color=False)
    failed_twin = build_report(
        "EX-11-01", "code", (failed_check("equivalents", 0.0, msg("twin.skipped")),)
    )
    assert "依赖行为" in report_to_html(failed_twin, "zh")  # a failed one still is


def test_headers_never_wrap_and_align_like_their_cells() -> None:
    html = report_to_html(_print_only(), "zh")
    headers = re.findall(r"<th style=\"([^\"]*)\">", html)
    assert len(headers) == 4
    assert all("white-space:nowrap" in s and "text-align:left" in s for s in headers)
    cells = re.findall(r"<td style=\"([^\"]*)\">", html)
    assert cells and all("text-align:left" in s for s in cells)


def test_an_unknown_exercise_says_so_in_words_with_no_score() -> None:
    error = UnknownExercise(given="EX-99-01", known="EX-11-01")
    report = error_report("EX-99-01", error, "zh")
    html = report_to_html(report, "zh")
    assert html == (FILES / "unknown_exercise.zh.html").read_text(encoding="utf-8").rstrip("\n")
    assert "check.input" not in html and "0/0" not in html and "得分" not in html
    text = report_to_text(report, "en", color=False)
    assert text.splitlines()[0] == "EX-99-01 unknown exercise  [error]"
    assert "check.input" not in text and "0/0" not in text


def test_an_exercise_id_with_escapes_is_spelled_out_in_the_error_report() -> None:
    given = "EX-11-01\x1b]0;pwned\x07\u202e"
    report = error_report(given, UnknownExercise(given="x", known="y"), "en")
    for shown in (str(report), repr(report.to_dict()), report._repr_html_()):
        assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert report.to_dict()["exercise"] == "EX-11-01\\x1b]0;pwned\\x07\\u202e"


def test_the_weak_sandbox_is_the_first_thing_said() -> None:
    checks = (passed_check("runs_cleanly", 1.0, msg("run.ok")),)
    weak = build_report("EX-11-01", "code", checks, isolation="rlimits")
    first = report_to_text(weak, "en", color=False).splitlines()[0]
    assert "rlimits" in first and "not for official grading" in first
    data = report_to_dict(weak, "en")
    assert list(data)[:2] == ["official", "notice"] and data["official"] is False
    strong = build_report("EX-11-01", "code", checks, isolation="namespaces")
    shown = report_to_dict(strong, "en")
    assert shown["official"] is True and "notice" not in shown


def test_a_normalised_id_is_echoed() -> None:
    checks = (passed_check("runs_cleanly", 1.0, msg("run.ok")),)
    report = build_report("EX-12-01", "code", checks)
    text = report_to_text(report, "en", color=False, given="ex-12-1")
    assert text.startswith("EX-12-01 (from ex-12-1)")
    assert report_to_text(report, "zh", color=False, given="ex-12-1").startswith(
        "EX-12-01（输入为 ex-12-1）"
    )
