"""Renderers: student output is escaped/fenced everywhere; JSON follows the schema."""

from __future__ import annotations

import json

from grader.judge.results import build_report, failed_check, msg, passed_check
from grader.render.html import report_to_html
from grader.render.json_out import report_to_dict
from grader.render.text import report_to_text

HOSTILE = "<script>alert(1)</script>\x1b[32m✔ all checks passed\x1b[0m\r\n"


def _report():  # type: ignore[no-untyped-def]
    checks = (
        passed_check("runs_cleanly", 1.0, msg("run.ok")),
        failed_check(
            "runs_cleanly",
            1.0,
            msg("run.uncaught", type="AssertionError", message="<b>x</b>", line=3),
            msg("hint.assertion_on_real"),
            HOSTILE,
        ),
    )
    return build_report("EX-11-01", "code", checks, title=msg("exercise.EX-11-01.title"))


def test_html_escapes_messages_and_student_output() -> None:
    html = report_to_html(_report(), "zh")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert "\x1b" not in html


def test_terminal_output_fences_student_text_and_strips_escapes() -> None:
    text = report_to_text(_report(), "en", color=False)
    assert "\x1b" not in text and "\r" not in text
    student_lines = [line for line in text.splitlines() if "all checks passed" in line]
    assert student_lines and all(line.lstrip().startswith("│") for line in student_lines)


def test_json_has_the_documented_shape_in_both_languages() -> None:
    for lang in ("zh", "en"):
        data = json.loads(json.dumps(report_to_dict(_report(), lang)))
        assert {"exercise", "status", "score", "max_score", "checks"} <= set(data)
        assert data["status"] == "failed" and data["score"] == 1.0 and data["max_score"] == 2.0
        for check in data["checks"]:
            assert isinstance(check["name"], str) and isinstance(check["passed"], bool)
            assert isinstance(check["points"], float) and isinstance(check["message"], str)
            assert check["hint"] is None or isinstance(check["hint"], str)
        assert "\x1b" not in (data["checks"][1]["evidence"] or "")


def test_student_text_inside_a_grader_sentence_is_one_clean_line() -> None:
    from grader.render.catalog import render_message

    text = render_message(
        "run.uncaught",
        {"type": "Err\x1b[2J", "message": "x\n✔ all checks passed\u202e", "line": 1},
        "en",
    )
    assert "\x1b" not in text and "\n" not in text and "\u202e" not in text


def test_evidence_is_bounded_however_much_the_student_prints() -> None:
    from grader.judge.verdict import EVIDENCE_CHARS, head, tail

    flood = ("x" * 100_000 + "\n") * 50
    assert len(head(flood)) <= EVIDENCE_CHARS and len(tail(flood)) <= EVIDENCE_CHARS


def test_the_report_says_which_sandbox_ran_and_warns_about_the_weak_one() -> None:
    checks = (passed_check("runs_cleanly", 1.0, msg("run.ok")),)
    strong = build_report("EX-11-01", "code", checks, isolation="namespaces")
    weak = build_report("EX-11-01", "code", checks, isolation="rlimits")
    assert report_to_dict(strong, "en")["isolation"] == "namespaces"
    assert report_to_dict(weak, "en")["isolation"] == "rlimits"
    assert "not for official grading" in report_to_text(weak, "en", color=False)
    assert "不能作为正式评分" in report_to_text(weak, "zh", color=False)
    assert "not for official grading" in report_to_html(weak, "en")
    for lang in ("en", "zh"):
        assert "rlimits" not in report_to_text(strong, lang, color=False)
        assert "rlimits" not in report_to_html(strong, lang)
