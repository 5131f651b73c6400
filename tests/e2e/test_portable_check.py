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
#: A corpus probe differs from the others in how it is run (a notebook, pytest, unittest, a
#: database file of its own, its source read back, the platform asked) or in its logic (ORM
#: or SQL, formatting, listeners). Only the first can differ between the two runners; the
#: logic is the same Python in both. A portable check of EX-12-01 or EX-13-01 costs about
#: 12 CPU-s (each run is a fresh interpreter importing SQLAlchemy), so for those two the
#: comparison takes the probes that each stand for a way of running; it takes every
#: EX-11-01 probe (cheap) and every known-wrong probe (each has its own message).
WAYS_OF_RUNNING = {
    "EX-12-01/correct/display_counts.ipynb",  # a notebook, the result shown by display()
    "EX-12-01/correct/file_sqlite.py",  # a database file in the run's folder
    "EX-12-01/correct/unittest_case.py",  # unittest
    "EX-13-01/correct/file_sqlite.py",
    "EX-13-01/correct/getsource_cell.ipynb",  # inspect.getsource on a notebook's function
    "EX-13-01/correct/platform_cell.ipynb",  # the platform, asked from a cell
    "EX-13-01/correct/pytest_raises.py",  # pytest (EX-11-01's pytest_main too)
}
#: The honest and known-wrong probes compared, by path from the repo.
CASES = sorted(
    [str(next((REPO / "solutions" / e).iterdir()).relative_to(REPO)) for e in CODE]
    + [
        str(p.relative_to(REPO))
        for p in (FILES / "corpus").glob("EX-*/*/*")
        if p.parts[-3] == "EX-11-01"
        or p.parts[-2] == "wrong"
        or "/".join(p.parts[-3:]) in WAYS_OF_RUNNING
    ]
    + [str(p.relative_to(REPO)) for p in (FILES / "wrong").glob("EX-*/*.py")]
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
    if honest:  # every honest probe passes with full marks (test_corpus_cli relies on it)
        sandboxed = reports[SANDBOXED]
        failed = [(check.name, check.message.id) for check in sandboxed.checks if not check.passed]
        assert (sandboxed.status, failed) == ("passed", [])
        assert sandboxed.score == sandboxed.max_score > 0


def test_the_corpus_has_what_the_comparison_needs() -> None:
    assert {case.split("corpus/")[-1] for case in CASES} >= WAYS_OF_RUNNING  # none renamed
    assert len([c for c in CASES if "EX-11-01/correct/" in c]) >= 10
    assert len([c for c in CASES if "/wrong/" in c]) >= 15
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
