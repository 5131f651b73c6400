"""``from grader import check`` as a notebook uses it: a fresh server per call, HTML, no
exceptions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grader import check
from tests.e2e.conftest import REPO, Course

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True, scope="module")
def masters_closed() -> Iterator[None]:
    """``check()`` keeps a warm service (and its master) per settings, as a kernel does, until
    the interpreter exits: these tests stop them when they are done, not at pytest's exit."""
    from grader.frontends import notebook

    yield
    notebook._close_all()


def test_warm_calls_reuse_one_master_and_render_html(course: Course) -> None:
    """One master per kernel's service; each call gets a fresh server forked from it."""
    from grader.frontends import notebook

    course.answer("EX-12-01", REPO / "solutions" / "EX-12-01" / "notification_once_probe.py")
    first = check("EX-12-01", root=course.root)
    masters = [m for service in notebook._services.values() for m in service._masters.values()]
    second = check("EX-12-01", root=course.root, lang="en")
    again = [m for service in notebook._services.values() for m in service._masters.values()]
    if first.isolation == "portable":  # GRADER_ISOLATION=portable (CI's second pass): no master
        assert masters == again == []
    else:
        assert len(masters) == 1 and again == masters and masters[0].alive
    assert (first.status, first.lang, second.status, second.lang) == (
        "passed",
        "zh",
        "passed",
        "en",
    )
    starter = check("EX-11-01", root=course.root)
    assert starter.status == "failed" and starter.checks[0].message.id == "code.not_started"
    html = first._repr_html_()
    assert html.startswith('<div class="grader-report">') and "<table>" in html


def test_student_output_is_escaped_in_html(course: Course, tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "print('<script>alert(1)</script>')\n"
        "raise AssertionError('<img src=x onerror=alert(2)>')\n",
        encoding="utf-8",
    )
    report = check("EX-11-01", probe, root=course.root, lang="en")
    html = report._repr_html_()
    assert report.status == "failed"
    assert "<script>" not in html and "<img" not in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html


def test_input_errors_come_back_as_an_error_report(course: Course) -> None:
    report = check("EX-99-01", root=course.root, lang="en")
    assert report.status == "error"
    assert report.checks[0].message.id == "error.unknown_exercise"
    assert "There is no exercise EX-99-01" in report._repr_html_()


def test_a_forced_isolation_mode_is_honoured_in_a_notebook_too(
    course: Course, monkeypatch: pytest.MonkeyPatch
) -> None:
    course.answer("EX-11-01", REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py")
    monkeypatch.setenv("GRADER_ISOLATION", "rlimits")
    report = check("EX-11-01", root=course.root, lang="en")
    assert (report.status, report.isolation) == ("passed", "rlimits")
    assert "not for official grading" in report._repr_html_()
    monkeypatch.setenv("GRADER_ISOLATION", "bogus")
    error = check("EX-11-01", root=course.root, lang="en")
    assert error.status == "error" and error.checks[0].message.id == "error.isolation_unknown"


def test_check_works_in_the_portable_mode_and_says_it_is_not_official(
    course: Course, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a kernel on Windows or macOS gets (``auto`` there is ``portable``)."""
    from grader.frontends import notebook

    course.answer("EX-12-01", REPO / "solutions" / "EX-12-01" / "notification_once_probe.py")
    monkeypatch.setenv("GRADER_ISOLATION", "portable")
    report = check("EX-12-01", root=course.root, lang="en")
    assert (report.status, report.isolation) == ("passed", "portable")
    assert report.score == report.max_score > 0
    assert "this is not official grading" in report._repr_html_()
    assert report.to_dict()["official"] is False
    portable = [s for s in notebook._services.values() if s.settings.isolation == "portable"]
    assert portable and all(not service._masters for service in portable)
    wrong = course.root / "wrong.py"
    wrong.write_text(
        (REPO / "tests/e2e/files/wrong/EX-12-01/no_assertions.py").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    failed = check("EX-12-01", wrong, root=course.root, lang="en")
    assert (failed.status, failed.isolation) == ("failed", "portable")
