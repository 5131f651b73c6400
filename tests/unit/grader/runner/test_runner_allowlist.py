"""The run's seccomp allow-list (``grader.runner.allowlist``): honest work never meets its
default, and what it leaves out is refused.

The honest side runs the acceptance corpus (``tests/e2e/files/corpus/*/correct``, the
lessons' cells among them) and the reference solutions through the real ``grader check``
with ``GRADER_SECCOMP_AUDIT=1``: a call off the list then kills the run (``SIGSYS``, and the
kernel's audit log names the call: ``dmesg | grep type=1326``), so the check cannot pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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
def course_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("course-root")
    for name in ("exercises", "solutions"):
        shutil.copytree(REPO / name, root / name)
    return root


@pytest.mark.e2e
@pytest.mark.parametrize("probe", HONEST, ids=lambda p: str(p.relative_to(REPO)))
def test_honest_work_meets_no_call_off_the_list(probe: Path, course_root: Path) -> None:
    require_namespaces()
    exercise = next(part for part in probe.parts if part.startswith("EX-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GRADER_", "PYTEST_"))}
    env.update({AUDIT_VARIABLE: "1", "GRADER_ISOLATION": "namespaces"})
    argv = [sys.executable, "-m", "grader", "check", exercise, "--path", str(probe)]
    argv += ["--root", str(course_root), "--json"]
    done = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=280)
    assert '"status": "passed"' in done.stdout, (done.stdout[-3000:], done.stderr[-2000:])


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
