"""The run's seccomp allow-list (``grader.runner.allowlist``): honest work never meets its
default, and what it leaves out is refused.

The honest side grades the acceptance corpus (``tests/e2e/files/corpus/*/correct``, the
lessons' cells among them) and the reference solutions through one warm grading service
whose masters start with ``GRADER_SECCOMP_AUDIT=1``: a call off the list then kills the run
(``SIGSYS``, and the kernel's audit log names the call: ``dmesg | grep type=1326``), so the
check cannot pass.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.app.service import GradingService, GradingSettings
from grader.judge.exercises import get_exercise
from grader.runner import ForkServer, RunRequest, allowlist, seccomp
from grader.runner.spare import AUDIT_VARIABLE

from .helpers import require_namespaces, server_for

REPO = Path(__file__).resolve().parents[4]
CORPUS = REPO / "tests" / "e2e" / "files" / "corpus"
HONEST = sorted(CORPUS.glob("EX-*/correct/*")) + sorted(REPO.glob("solutions/EX-1?-01/*.py"))


def test_libseccomp_builds_the_allow_list_here() -> None:
    assert allowlist.compile_policy() is not None, "libseccomp.so.2 is not installed"
    assert seccomp.policy() == "allow-list"


def test_nothing_that_passes_notes_is_on_the_list() -> None:
    refused = {"inotify_init1", "inotify_add_watch", "fanotify_init", "unshare"}
    refused |= {"setns", "mount", "keyctl", "add_key", "request_key", "ptrace", "bpf"}
    refused |= {"fadvise64", "readahead", "mincore", "cachestat", "io_uring_setup"}
    refused |= {"perf_event_open", "userfaultfd", "process_vm_readv", "kcmp", "clone3"}
    assert refused.isdisjoint(allowlist.allowed_names())


@pytest.fixture(scope="module")
def audited() -> Iterator[GradingService]:
    """One warm grading service whose masters (and so every run) audit the allow-list: the
    variable is set before its first master starts, which is when a master reads it."""
    require_namespaces()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(AUDIT_VARIABLE, "1")
        settings = GradingSettings.from_env(
            isolation="namespaces", use_cache=False, self_check=True
        )
        with GradingService(settings) as service:
            yield service


@pytest.mark.e2e
@pytest.mark.parametrize("exercise", ["EX-11-01", "EX-12-01", "EX-13-01"])
def test_the_audited_service_kills_a_run_that_leaves_the_list(
    audited: GradingService, exercise: str, tmp_path: Path
) -> None:
    """So the honest test below can fail, whichever master an exercise uses: through the
    same service, a probe that asks the page cache (``fadvise64``) is killed by SIGSYS;
    outside the audit it gets EPERM, and its run ends with an uncaught ``PermissionError``."""
    probe = tmp_path / get_exercise(exercise).student_file
    probe.write_text(AUDITED, encoding="utf-8")
    report = audited.check(exercise, probe).report
    runs = next(check for check in report.checks if check.name == "runs_cleanly")
    assert report.status == "failed", report
    assert (runs.message.id, runs.message.params) == ("run.signal", {"signal": 31}), runs  # SIGSYS


@pytest.mark.e2e
@pytest.mark.parametrize("probe", HONEST, ids=lambda p: str(p.relative_to(REPO)))
def test_honest_work_meets_no_call_off_the_list(probe: Path, audited: GradingService) -> None:
    exercise = next(part for part in probe.parts if part.startswith("EX-"))
    report = audited.check(exercise, probe).report
    failed = [(c.name, c.message.id, c.message.params) for c in report.checks if not c.passed]
    assert (report.status, failed) == ("passed", [])


AUDITED = """
import os
fd = os.open(os.__file__, os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
print("loaded")
"""


def test_in_audit_mode_a_call_off_the_list_kills_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit switch works, so the honest test above can fail: ``fadvise64`` kills the run."""
    monkeypatch.setenv(AUDIT_VARIABLE, "1")
    for server in server_for("namespaces"):
        assert isinstance(server, ForkServer)
        result = server.run(RunRequest(AUDITED, "probe.py"))
        assert result.signal == 31 and result.stdout == "", result  # SIGSYS
