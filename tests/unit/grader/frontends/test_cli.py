"""The CLI's last line of defence: exit codes and messages, never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader.errors import exit_code_for
from grader.frontends.cli import main
from grader.judge.results import build_report, failed_check, msg, passed_check


def test_an_unexpected_internal_error_exits_3_and_asks_for_a_report(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def explode(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("grader.app.service.GradingService.check", explode)
    (tmp_path / "exercises").mkdir()
    code = main(["check", "EX-11-01", "--root", str(tmp_path), "--lang", "en"])
    captured = capsys.readouterr()
    assert code == 3
    assert "RuntimeError: disk on fire" in captured.err
    assert "please report" in captured.err
    assert "Traceback" not in captured.err


def test_argument_errors_exit_2() -> None:
    with pytest.raises(SystemExit) as caught:
        main(["check"])
    assert caught.value.code == 2


def test_exit_codes_follow_the_status() -> None:
    passed = build_report("EX-11-01", "code", (passed_check("runs_cleanly", 1.0, msg("run.ok")),))
    failed = build_report("EX-11-01", "code", (failed_check("runs_cleanly", 1.0, msg("run.ok")),))
    review = build_report("EX-11-02", "prose", passed.checks, status="needs_review")
    assert [exit_code_for(r.status) for r in (passed, failed, review)] == [0, 1, 0]


def test_importing_the_grading_modules_never_shadows_grader_check() -> None:
    import grader
    import grader.app.service
    import grader.frontends.notebook
    import grader.judge.grading

    assert callable(grader.check) and grader.check.__module__ == "grader"


@pytest.mark.timeout(20)
def test_the_graded_text_is_cached_and_the_path_never_reopened(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A run that swaps the submission for a FIFO must not hang the grader (hostile H7)."""
    from grader.app import cache
    from grader.judge.exercises import get_exercise

    (tmp_path / "exercises").mkdir()
    probe = tmp_path / "retry_policy_probe.py"
    graded_text = "print('graded')\n"
    probe.write_text(graded_text)

    def judge_then_swap(exercise: object, submission: object, **_kwargs: object) -> object:
        probe.unlink()
        os.mkfifo(probe)  # re-opening it now would block forever
        return build_report("EX-11-01", "code", (passed_check("runs_cleanly", 1.0, msg("run.ok")),))

    monkeypatch.setattr("grader.judge.grading.judge_submission", judge_then_swap)
    code = main(["check", "EX-11-01", "--path", str(probe), "--root", str(tmp_path), "--json"])
    assert code == 0, capsys.readouterr()
    assert cache.lookup(tmp_path, get_exercise("EX-11-01"), graded_text) is not None


def test_an_exercise_id_with_terminal_controls_is_echoed_visibly_never_raw(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Stripping the controls would leave 'EX-11-01', which reads like a valid id (hostile H9)."""
    (tmp_path / "exercises").mkdir()
    given = "EX-11-01\x1b]0;pwned\x07"
    code = main(["check", given, "--root", str(tmp_path), "--json", "--lang", "en"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 2
    assert payload["exercise"] == "EX-11-01\\x1b]0;pwned\\x07"
    assert "\x1b" not in payload["error"]["message"]
    assert "EX-11-01\\x1b]0;pwned\\x07" in payload["error"]["message"]


def test_check_help_documents_the_isolation_knob(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = capsys.readouterr().out
    assert "GRADER_ISOLATION" in text and "rlimits" in text and "official grading" in text


def test_an_unclosed_solution_marker_is_a_usage_error_naming_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "exercises").mkdir()
    solution = tmp_path / "solutions" / "EX-99-01" / "probe.py"
    solution.parent.mkdir(parents=True)
    solution.write_text("import x\n\n# BEGIN SOLUTION\nprint(1)\n", encoding="utf-8")
    code = main(["build-starters", "--root", str(tmp_path), "--lang", "en"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{solution}, line 3:" in err and "# BEGIN SOLUTION is never closed" in err
    assert "Traceback" not in err and "Internal" not in err


def test_build_starters_without_solutions_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "exercises").mkdir()
    assert main(["build-starters", "--root", str(tmp_path), "--lang", "en"]) == 2
    assert "No solutions/ folder" in capsys.readouterr().err


def test_every_subcommand_follows_the_commands_convention() -> None:
    from grader.frontends.cli import build_parser, commands

    places = ("grader.frontends.commands.", "grader.instructor.entrypoints.commands.")
    for module in commands():
        assert module.__name__.startswith(places)
        assert callable(module.register) and callable(module.run)
    parser = build_parser()
    for argv in (["check", "EX-11-01"], ["list"]):
        assert parser.parse_args(argv).run.__module__.startswith(places[0])
    assert parser.parse_args(["build-starters"]).run.__module__.startswith(places[1])


@pytest.mark.parametrize("key", ["error.submission", "check.input", "report.unknown_exercise"])
def test_messages_that_had_no_text_have_it_in_both_languages(key: str) -> None:
    from grader.render.catalog import catalogue

    for lang in ("zh", "en"):
        assert catalogue(lang).get(key), (lang, key)


def test_a_master_that_cannot_start_is_a_message_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No process can be started (a fork limit): the spare launched first thing fails, and so
    does the check's own master; the student reads why, with exit 3."""
    from grader.runner import spare

    def no_process() -> None:
        raise spare.LaunchError("could not start the master fork server: [Errno 11] ...")

    monkeypatch.setattr(spare, "launch", no_process)
    solution = Path(__file__).resolve().parents[4] / "solutions" / "EX-11-01"
    probe = next(solution.glob("*.py"))
    code = main(["check", "EX-11-01", "--path", str(probe), "--lang", "en"])
    captured = capsys.readouterr()
    assert code == 3, captured
    assert "could not start the master fork server" in captured.err
    assert "Traceback" not in captured.err
    assert spare.spare() is None


def test_ctrl_c_in_the_first_milliseconds_of_a_check_is_exit_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the spare master is greeted (before the parser, and so before ``_main``'s
    own handler, runs) still ends with the usual message and exit 130, and no spare is left."""
    from grader.frontends import cli
    from grader.runner import spare

    def interrupted(_argv: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_prestart_check", interrupted)
    code = main(["check", "EX-11-01", "--lang", "en"])
    captured = capsys.readouterr()
    assert code == 130
    assert captured.err.strip() == "Interrupted."
    assert "Traceback" not in captured.err
    assert spare.spare() is None
