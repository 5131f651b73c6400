"""The portable check (``GRADER_ISOLATION=portable``): the same verdicts as the sandboxed
check for every way of running a probe and every known-wrong probe, reports marked
unofficial, and no Linux-only primitive on its path (fork, descriptor passing, namespaces,
prctl, seccomp)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.judge.results import CheckReport
from grader.render.catalog import render_message
from tests.e2e.conftest import FILES, REPO, Course

pytestmark = pytest.mark.e2e

CODE = ("EX-11-01", "EX-12-01", "EX-13-01")
#: A probe differs from the others in how it is run (a notebook, pytest, unittest, its own
#: exit status, a database file of its own, its source read back, the platform asked) or in
#: its logic (ORM or SQL, formatting, listeners, which mistake). Only the first can differ
#: between the two runners: the logic, and the message a mistake earns, are the same Python
#: in both. A portable check costs 2-4 CPU-s for EX-11-01 and 10-15 for EX-12-01 or EX-13-01
#: (each run is a fresh interpreter; a pytest probe 35 s), so the comparison takes one probe
#: per way of running and one per way of failing (the cheapest exercise where it has one);
#: every probe is graded sandboxed, here (``HONEST``), by test_check_cli and by
#: test_corpus_cli. The solutions are checked in both modes by test_check_cli (the
#: Makefile's portable pass).
COMPARED = {
    "corpus/EX-11-01/correct/display_and_shell.ipynb",  # a notebook: display() and a ! line
    "corpus/EX-11-01/correct/tagged_cells.ipynb",  # only the tagged cells of a notebook
    "corpus/EX-11-01/correct/pytest_main.py",  # pytest.main() in the run
    "corpus/EX-11-01/correct/unittest_main.py",  # unittest.main(): exits with its status
    "corpus/EX-11-01/correct/unittest_no_exit.py",  # unittest.main(exit=False)
    "corpus/EX-11-01/correct/main_returns_status.py",  # sys.exit(main()): 0 on success
    "corpus/EX-12-01/correct/display_counts.ipynb",  # a notebook, the result shown by display()
    "corpus/EX-12-01/correct/file_sqlite.py",  # a database file in the run's folder
    "corpus/EX-12-01/correct/unittest_case.py",  # unittest
    "corpus/EX-13-01/correct/getsource_cell.ipynb",  # inspect.getsource on a notebook's function
    "corpus/EX-13-01/correct/platform_cell.ipynb",  # the platform, asked from a cell
    "wrong/EX-11-01/prints_only.py",  # runs, asserts nothing: every mutant survives
    "wrong/EX-11-01/wrong_expectation.py",  # fails on the real implementation: uncaught
    "wrong/EX-11-01/wrong_policy.py",  # the calls and the output checks fail, not a mutant
    "corpus/EX-11-01/wrong/gap_countdown_on_give_up.py",  # one mutant survives: a gap named
    "wrong/EX-12-01/no_assertions.py",  # asserts nothing, on the ORM exercise
    "wrong/EX-13-01/swallows_everything.py",  # catches what it should let fail
    "wrong/EX-13-01/fails_forever.py",  # fails on the real implementation: the rest cancelled
    "corpus/EX-13-01/wrong/gap_failure_not_asserted.py",  # one mutant survives: a gap named
}
#: The EX-11-01 solution, compared too (the others: test_check_cli's portable pass).
SOLUTION = str(next((REPO / "solutions" / "EX-11-01").iterdir()).relative_to(REPO))
#: The honest and known-wrong probes compared, by path from the repo.
CASES = sorted(
    [SOLUTION]
    + [
        str(p.relative_to(REPO))
        for p in (*(FILES / "corpus").glob("EX-*/*/*"), *(FILES / "wrong").glob("EX-*/*.py"))
        if str(p.relative_to(FILES)) in COMPARED
    ]
)
#: Every other honest probe and solution, by path from the repo. Each passes with full marks
#: in the sandboxed mode, as every honest case compared does (``test_corpus_cli`` relies on it).
HONEST = sorted(
    (
        {str(next((REPO / "solutions" / e).iterdir()).relative_to(REPO)) for e in CODE}
        | {str(p.relative_to(REPO)) for p in (FILES / "corpus").glob("EX-*/correct/*")}
    )
    - set(CASES)
)
SANDBOXED = "auto"  # the strongest the machine has: namespaces here, rlimits elsewhere


@pytest.fixture(scope="module")
def services() -> Iterator[dict[str, GradingService]]:
    made = {
        mode: GradingService(
            GradingSettings.from_env(isolation=mode, use_cache=False, self_check=True)
        )
        for mode in (SANDBOXED, "portable")
    }
    yield made
    for service in made.values():
        service.close()


def verdict(report: CheckReport) -> dict[str, Any]:
    """What the student is told: status, score, and each check's points and messages."""
    return {
        "status": report.status,
        "score": report.score,
        "checks": [
            (
                check.name,
                check.passed,
                check.points,
                check.message.id,
                render_message(check.message.id, check.message.params, "en"),
                None if check.hint is None else check.hint.id,
            )
            for check in report.checks
        ],
    }


def exercise_of(case: str) -> str:
    return next(part for part in Path(case).parts if part.startswith("EX-"))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_the_portable_check_gives_the_sandboxed_checks_verdict(
    services: dict[str, GradingService], case: str
) -> None:
    reports = {
        mode: service.check(exercise_of(case), REPO / case).report
        for mode, service in services.items()
    }
    assert reports["portable"].isolation == "portable"
    assert reports[SANDBOXED].isolation in ("namespaces", "rlimits")
    assert verdict(reports["portable"]) == verdict(reports[SANDBOXED])
    honest = "/correct/" in case or case.startswith("solutions/")
    assert (reports["portable"].status == "passed") is honest, verdict(reports["portable"])
    if honest:
        passes_with_full_marks(reports[SANDBOXED])


@pytest.mark.parametrize("case", HONEST)
def test_every_other_honest_probe_passes_with_full_marks_sandboxed(
    services: dict[str, GradingService], case: str
) -> None:
    passes_with_full_marks(services[SANDBOXED].check(exercise_of(case), REPO / case).report)


def passes_with_full_marks(report: CheckReport) -> None:
    failed = [(check.name, check.message.id) for check in report.checks if not check.passed]
    assert (report.status, failed) == ("passed", [])
    assert report.score == report.max_score > 0


def test_the_corpus_has_what_the_comparison_needs() -> None:
    assert {case.split("files/")[-1] for case in CASES if case != SOLUTION} == COMPARED
    assert not set(HONEST) & set(CASES) and len(HONEST) >= 20
    assert len([c for c in CASES if "/correct/" in c or c.startswith("solutions/")]) >= 12
    assert len([c for c in CASES if "/wrong/" in c]) >= 8
    kinds = {Path(c).suffix for c in CASES if "/correct/" in c}
    assert kinds == {".py", ".ipynb"}


# -- no Linux-only primitive on the portable path ------------------------------------------

#: Run first in the grader's process and in every portable run's interpreter: each
#: primitive the forking runner needs raises, what Windows lacks is gone, and the forking
#: runner's modules cannot be imported at all.
FORBID = """
import os, socket, sys
def _refused(*args, **kwargs):
    raise AssertionError("the portable path called a Linux-only primitive")
socket.send_fds = socket.recv_fds = _refused
os.supports_dir_fd = set()  # as on Windows: no openat, none of these open flags
for _module, _names in ((os, ("fork", "forkpty", "register_at_fork", "O_DIRECTORY",
                              "O_NOFOLLOW", "O_NONBLOCK", "O_PATH")),
                        (socket, ("AF_UNIX", "SOCK_SEQPACKET"))):
    for _attr in _names:
        delattr(_module, _attr)
for _name in ("sandbox", "seccomp", "syscalls", "mounts", "zygote", "zygote_link", "child",
              "spawn", "host", "master", "master_main", "housing"):
    sys.modules["grader.runner." + _name] = None  # an import of it raises ImportError
"""
CHECK = """
import sys
sys.path.insert(0, {root!r})
import grader.runner.portable as portable
portable.BOOTSTRAP = {forbid!r} + portable.BOOTSTRAP
from grader.frontends.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def forbidden_check(course: Course, *args: str, isolation: str) -> tuple[int, str, str]:
    code = FORBID + CHECK.format(root=str(REPO), forbid=FORBID)
    env = {**os.environ, "GRADER_ISOLATION": isolation}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=course.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow
def test_the_portable_path_calls_no_fork_unshare_prctl_or_seccomp(course: Course) -> None:
    solution = REPO / "solutions" / "EX-12-01" / "notification_once_probe.py"
    args = ("check", "EX-12-01", "--path", str(solution), "--json", "--lang", "en")
    code, out, err = forbidden_check(course, *args, isolation="portable")
    assert code == 0, (out, err)
    report = json.loads(out)
    assert (report["status"], report["isolation"], report["official"]) == (
        "passed",
        "portable",
        False,
    )
    # the same patches do stop the forking runner: they have teeth
    code, out, err = forbidden_check(course, *args, isolation="namespaces")
    assert code != 0 and "passed" not in out


@pytest.mark.slow
def test_the_portable_reports_first_line_and_json_say_it_is_not_official(course: Course) -> None:
    course.answer("EX-11-01", REPO / "solutions" / "EX-11-01" / "retry_policy_probe.py")
    env = {"GRADER_ISOLATION": "portable"}
    text = course.run("check", "EX-11-01", "--lang", "en", env=env)
    assert text.code == 0
    assert text.stdout.splitlines()[0].startswith("Note: this check ran in portable mode")
    zh = course.run("check", "EX-11-01", "--json", env=env).json()
    assert (zh["official"], zh["isolation"], zh["status"]) == (False, "portable", "passed")
    assert "可移植模式" in zh["notice"] and "不是正式评分" in zh["notice"]


def test_the_batch_and_its_workers_refuse_the_portable_mode() -> None:
    from grader.errors import UsageError

    with pytest.raises(UsageError) as refused:
        GradingSettings.from_env(isolation="portable")  # what a batch or a worker builds
    assert refused.value.message_id == "error.portable_not_official"
    service = GradingService(GradingSettings(isolation="portable"))
    with pytest.raises(UsageError):
        service.portable()
