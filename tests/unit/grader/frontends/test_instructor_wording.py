"""An internal error in an instructor's command is worded for the instructor (never "report
this to the course staff"); a student's command keeps the student's wording."""

from __future__ import annotations

import argparse

import pytest

import grader.frontends.commands.check as check_command
import grader.instructor.entrypoints.commands.stats as stats_command
from grader.frontends.cli import main


def _broken(_args: argparse.Namespace, _lang: str, _as_json: bool) -> int:
    raise RuntimeError("boom")


def test_an_instructor_command_never_says_course_staff(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(stats_command, "run", _broken)
    assert main(["stats", "--lang", "en"]) == 3
    err = capsys.readouterr().err
    assert "RuntimeError: boom" in err and "bug in the grader" in err
    assert "course staff" not in err


def test_a_student_command_keeps_the_students_wording(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check_command, "run", _broken)
    assert main(["check", "EX-11-01", "--lang", "en"]) == 3
    assert "course staff" in capsys.readouterr().err
