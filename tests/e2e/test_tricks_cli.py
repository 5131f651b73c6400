"""Tricks that make a probe look right without testing behaviour: each one fails, through
the real command, with catalogue messages that say why (zh and en)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import FILES, Course

pytestmark = pytest.mark.e2e

TRICKS = FILES / "tricks"
#: Tricks the hostile corpus already holds are graded from there (one copy of each trick).
CORPUS = Path(__file__).parents[1] / "hostile" / "files"
FROM_CORPUS = {
    "lying_eq_tuple.py": "lying_eq_tuple.py",
    "catches_assertion_error.py": "catch_assertion_error.py",
    "patches_decision.py": "monkeypatch_decision_right_answers.py",
    "compares_bytecode.py": "detect_mutant_via_bytecode.py",
}
STUDENT_FILE = {"EX-11-01": "retry_policy_probe.py", "EX-12-01": "notification_once_probe.py"}
#: trick file -> (exercise, {failed check: message id}) that the report must show
EXPECTED: dict[str, tuple[str, dict[str, str]]] = {
    "lying_eq_tuple.py": (
        "EX-11-01",
        {"mutant:constant_delay": "mutant.survived_unnoticed", "equivalents": ""},
    ),
    "catches_assertion_error.py": (
        "EX-11-01",
        {"mutant:exponent_off_by_one": "mutant.survived_unnoticed", "equivalents": ""},
    ),
    "patches_decision.py": (
        "EX-11-01",
        {"calls": "calls.policy.none", "mutant:constant_delay": "mutant.survived"},
    ),
    "prints_table_only.py": (
        "EX-11-01",
        {"calls": "calls.policy.none", "mutant:never_dead_letters": "mutant.survived"},
    ),
    "os_exit_after_printing.py": (
        "EX-11-01",
        {"calls": "calls.policy.none", "mutant:gives_up_early": "mutant.survived"},
    ),
    "atexit_prints_pass.py": (
        "EX-11-01",
        {"calls": "calls.policy.none", "mutant:off_by_one_bound": "mutant.survived"},
    ),
    "compares_bytecode.py": (  # the real code is never in the probe's process: it finds
        "EX-11-01",  # no real bytecode, even on the real run, and gives up there
        {"runs_cleanly": "run.exit_code", "mutant:constant_delay": "followon.ended"},
    ),
    "searches_heap_and_frames.py": (
        "EX-11-01",
        {"mutant:constant_delay": "mutant.survived_unnoticed", "equivalents": ""},
    ),
    "counts_sql_statements.py": (
        "EX-12-01",
        {"equivalents": "twin.failed", "mutant:no_dedupe": "mutant.not_credible"},
    ),
}
#: words each message id must show in each language
WORDS = {
    "mutant.survived_unnoticed": {"zh": "得到了不同的答案", "en": "got a different answer"},
    "mutant.survived": {"zh": "仍然通过", "en": "still passes"},
    "mutant.not_credible": {"zh": "不计分", "en": "Not counted"},
    "twin.failed": {"zh": "写法不同", "en": "written differently"},
    "calls.policy.none": {"zh": "从未调用", "en": "never called"},
    "run.exit_code": {"zh": "退出码 1", "en": "exited with code 1"},
    "followon.ended": {"zh": "没有评判", "en": "Not judged"},
}


def _grade(course: Course, tmp_path: Path, trick: str, lang: str) -> dict[str, Any]:
    exercise, _ = EXPECTED[trick]
    path = tmp_path / STUDENT_FILE[exercise]
    source = CORPUS / FROM_CORPUS[trick] if trick in FROM_CORPUS else TRICKS / trick
    shutil.copyfile(source, path)
    result = course.run("check", exercise, "--path", str(path), "--json", "--lang", lang)
    report = result.json()
    assert result.code == 1 and report["status"] == "failed", report
    assert report["score"] < report["max_score"]
    return report


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("trick", sorted(EXPECTED))
def test_every_trick_fails_and_the_report_says_why(
    course: Course, tmp_path: Path, trick: str, lang: str
) -> None:
    report = _grade(course, tmp_path, trick, lang)
    checks = {check["name"]: check for check in report["checks"]}
    for name, message_id in EXPECTED[trick][1].items():
        if not message_id:  # this check must pass: the trick's real run is fine
            assert checks[name]["passed"], checks[name]
            continue
        assert not checks[name]["passed"], name
        assert checks[name]["message_id"] == message_id, (name, checks[name]["message_id"])
        assert WORDS[message_id][lang] in checks[name]["message"]
    assert not [c for c in report["checks"] if c["name"].startswith("mutant:") and c["passed"]]


def test_nothing_in_a_runs_heap_or_frames_names_its_implementation(
    course: Course, tmp_path: Path
) -> None:
    """Hostile H2: the probe searched, found nothing in any run, so it could not tell the
    runs apart (and it said so in the evidence of every mutant it let through)."""
    report = _grade(course, tmp_path, "searches_heap_and_frames.py", "en")
    survivors = [c for c in report["checks"] if c["name"].startswith("mutant:")]
    assert survivors and all(not c["passed"] for c in survivors)
    assert all("found: []" in (c["evidence"] or "") for c in survivors), survivors


def test_a_lying_eq_is_told_which_answer_it_let_through(course: Course, tmp_path: Path) -> None:
    report = _grade(course, tmp_path, "lying_eq_tuple.py", "en")
    check = next(c for c in report["checks"] if c["name"] == "mutant:constant_delay")
    assert "call 2 (error_type=RetryableTaskError, retries_so_far=1)" in check["message"]
    assert "returned (True, 10, False), this one returned (True, 5, False)" in check["message"]
