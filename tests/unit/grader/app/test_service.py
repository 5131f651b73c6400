"""The grading service's rules: course root, cache, sessions, official isolation."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.app.listing import list_exercises
from grader.app.service import GradingService, GradingSettings, merged_preload
from grader.errors import CourseRootNotFound, UsageError
from grader.judge.exercises import get_exercise
from grader.judge.results import build_report, msg, passed_check
from grader.judge.submission import load_submission

REPO = Path(__file__).resolve().parents[4]


def _course(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "exercises", tmp_path / "exercises")
    return tmp_path


def _service(root: Path | None, **flags: object) -> GradingService:
    return GradingService(GradingSettings.from_env(root=root, lang="en", **flags))  # type: ignore[arg-type]


def test_without_a_path_the_course_root_is_required(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CourseRootNotFound):
        _service(None).check("EX-11-02")


def test_with_a_path_and_no_root_a_missing_course_root_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    answer = tmp_path / "answer.md"
    answer.write_text("我的回答" * 40, encoding="utf-8")
    checked = _service(None).check("EX-11-02", answer)
    assert checked.report.status in ("needs_review", "failed")
    assert checked.submission.text == answer.read_text(encoding="utf-8")
    assert not (tmp_path / ".grader").exists()


def test_an_explicit_root_must_hold_exercises_even_with_a_path(tmp_path: Path) -> None:
    answer = tmp_path / "answer.md"
    answer.write_text("x", encoding="utf-8")
    with pytest.raises(CourseRootNotFound):
        _service(tmp_path).check("EX-11-02", answer)


def test_a_starter_is_judged_without_starting_a_server(tmp_path: Path) -> None:
    root = _course(tmp_path)
    exercise = get_exercise("EX-12-01")
    submission = load_submission(exercise, root / "exercises" / "EX-12-01" / exercise.student_file)
    with _service(root) as service, service.student([exercise]) as session:
        report = session.judge(exercise, submission)
        assert report.checks[0].message.id == "code.not_started"
        assert session.isolation is None  # nothing ran, so no server was started


def test_a_session_refuses_an_exercise_it_did_not_preload_for(tmp_path: Path) -> None:
    root = _course(tmp_path)
    policy, effects = get_exercise("EX-11-01"), get_exercise("EX-12-01")
    submission = load_submission(effects, REPO / "solutions" / "EX-12-01" / effects.student_file)
    with (
        _service(root) as service,
        service.student([policy]) as session,
        pytest.raises(ValueError, match="does not preload"),
    ):
        session.judge(effects, submission)


def test_list_reports_every_exercise_without_running_when_asked(tmp_path: Path) -> None:
    root = _course(tmp_path)
    shutil.copyfile(
        REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py",
        root / "exercises" / "EX-11-01" / "retry_policy_probe.py",
    )
    entries = {e.exercise: e.status for e in list_exercises(_service(root), run_missing=False)}
    assert entries["EX-11-01"] == "unchecked"
    assert entries["EX-12-01"] == "not_started"
    assert set(entries) == {"EX-11-01", "EX-11-02", "EX-12-01", "EX-12-02", "EX-13-01", "EX-13-02"}


def test_warm_ups_come_last_in_a_merged_preload() -> None:
    preload = merged_preload([get_exercise(i) for i in ("EX-12-01", "EX-11-01", "EX-13-01")])
    assert len(preload) == len(set(preload))
    warm = [i for i, name in enumerate(preload) if ":" in name]
    assert warm and warm == list(range(len(preload) - len(warm), len(preload)))
    assert "grader.proxy.child.policy" in preload and "grader.proxy.child.effects" in preload


def test_official_grading_refuses_a_verdict_from_the_weak_sandbox() -> None:
    checks = (passed_check("runs_cleanly", 1.0, msg("run.ok")),)
    GradingService.require_official(
        build_report("EX-11-01", "code", checks, isolation="namespaces")
    )
    GradingService.require_official(build_report("EX-11-02", "prose", checks))
    with pytest.raises(UsageError) as caught:
        GradingService.require_official(
            build_report("EX-11-01", "code", checks, isolation="rlimits")
        )
    assert caught.value.message_id == "error.weak_isolation"


def test_extra_hidden_paths_are_hidden_from_every_run(tmp_path: Path) -> None:
    root = _course(tmp_path)
    hidden = _service(root, hide=[tmp_path / "class-folder"]).hidden()
    assert (tmp_path / "class-folder").absolute() in hidden
    assert root / "exercises" in hidden


def test_each_judged_submission_has_its_own_oracle_process_ended_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from grader.proxy.oracle import remote

    started: list[remote.OracleProcess] = []
    start = remote.OracleProcess.start

    def recording(master: object, warm: object = None) -> remote.OracleProcess:
        started.append(start(master, warm))  # type: ignore[arg-type]
        return started[-1]

    monkeypatch.setattr(remote.OracleProcess, "start", staticmethod(recording))
    exercise = get_exercise("EX-11-01")
    submission = load_submission(exercise, next((REPO / "solutions" / "EX-11-01").glob("*.py")))
    with _service(None, isolation="rlimits") as service, service.student([exercise]) as session:
        for count in (1, 2):
            assert session.judge(exercise, submission).status == "passed"
            assert len(started) == count
            assert started[-1]._process.wait(timeout=60) is not None  # ended after its runs
    assert started[0]._process.pid != started[1]._process.pid


def test_each_students_fork_server_tells_the_front_ends_callback_who_holds_the_turn() -> None:
    """``on_turn_wait`` reaches the server the runs go through (``grader.runner.turns``)."""
    told: list[object] = []
    settings = GradingSettings.from_env(root=None, lang="en", isolation="rlimits")
    with (
        GradingService(settings, on_turn_wait=told.append) as service,
        service.student([get_exercise("EX-11-01")]) as session,
    ):
        assert getattr(session.server(), "turn_waiting", None) == told.append
