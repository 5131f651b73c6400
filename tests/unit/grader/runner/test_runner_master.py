"""The master fork server: preloads once, never holds a submission, one fresh server per
student; no run finds another student's submission in its memory."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from grader.runner import Master, RunnerError, RunRequest
from tests.unit.grader.runner.helpers import require_namespaces, run


@pytest.fixture(params=["namespaces", "rlimits"])
def master(request: pytest.FixtureRequest) -> Iterator[Master]:
    if request.param == "namespaces":
        require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    with Master(preload=["decimal"], isolation=request.param) as master:
        assert master.isolation == request.param
        yield master


#: Scans every readable mapping of its own process for ``head`` followed by ``tail``: the
#: two halves are separate objects here, so only someone else's copy of the whole matches.
SCAN = """
import ctypes
head, tail = {head!r}.encode(), {tail!r}.encode()
found = 0
with open("/proc/self/maps") as maps:
    regions = [line.split() for line in maps]
for region in regions:
    low, high = (int(x, 16) for x in region[0].split("-"))
    if "r" not in region[1] or (len(region) > 5 and region[5].startswith("[v")):
        continue
    try:
        memory = ctypes.string_at(low, high - low)
    except Exception:
        continue
    at = memory.find(head)
    while at >= 0:
        found += memory[at + len(head): at + len(head) + len(tail)] == tail
        at = memory.find(head, at + 1)
print("found", found)
"""


def _secret_and_scan() -> tuple[str, str, str]:
    secret = f"student-A-submission-{secrets.token_hex(12)}"
    half = len(secret) // 2
    head, tail = secret[:half], secret[half:]
    return secret, SCAN.format(head=head, tail=tail), f"WHOLE = {head!r} + {tail!r}\n"


def test_each_student_gets_a_fresh_server_with_nothing_of_the_last(master: Master) -> None:
    secret, scan, whole = _secret_and_scan()
    with master.server() as student_a:
        assert student_a.isolation == master.isolation
        assert run(student_a, f"SUBMISSION = {secret!r}\nprint(len(SUBMISSION))").exit_code == 0
        again = run(student_a, scan)
        itself = run(student_a, whole + scan)
    with master.server() as student_b:
        obs = run(student_b, scan)
        assert obs.exit_code == 0, obs.stderr
        assert obs.stdout == "found 0\n"
    # the scan can find it: a run that builds the whole text itself finds its own copy
    assert itself.stdout != "found 0\n", "the memory scan would not have noticed anything"
    # within one student, a later run: rlimits runs are forks of the host, which read A's
    # text; namespaces runs are forks of the zygote, which never holds a run's data (H13)
    assert (again.stdout == "found 0\n") == (master.isolation == "namespaces"), again.stdout


def test_servers_are_separate_processes_and_closing_ends_one(master: Master) -> None:
    first, second = master.server(), master.server()
    try:
        assert len({first.pid, second.pid, master.pid}) == 3
        first.close()
        assert not first.alive
        with pytest.raises(RunnerError):
            first.run(RunRequest("pass", "p.py"))
        assert run(second, "import decimal; print('preloaded')").stdout == "preloaded\n"
    finally:
        second.close()
    assert master.alive


def test_a_server_survives_its_master() -> None:
    master = Master(isolation="rlimits")
    server = master.server()
    master.close()
    try:
        assert run(server, "print('still here')").stdout == "still here\n"
        with pytest.raises(RunnerError):
            master.server()
    finally:
        server.close()


def test_a_killed_server_is_a_runner_error_and_the_master_still_serves(master: Master) -> None:
    server = master.server()
    server._proc.kill()
    with pytest.raises(RunnerError):
        server.run(RunRequest("print(1)", "p.py"))
    server.close()
    with master.server() as fresh:
        assert run(fresh, "print(2)").stdout == "2\n"


def test_master_start_failures_are_runner_errors() -> None:
    with pytest.raises(ValueError):
        Master(isolation="chroot")
    with pytest.raises(RunnerError, match="no_such_module_for_preload"):
        Master(preload=["no_such_module_for_preload"], isolation="rlimits")


def test_a_master_adopts_the_spare_process_started_before_it() -> None:
    from grader.runner import spare as spare_module

    spare_module.launch_spare()
    found = spare_module.spare()
    assert found is not None
    spare_pid = found[0].pid
    with Master(isolation="rlimits") as adopted:
        assert adopted.pid == spare_pid
        with adopted.server() as server:
            assert run(server, "print('ok')").stdout == "ok\n"
    assert spare_module.spare() is None
    with Master(isolation="rlimits") as fresh:  # no spare left: a new process
        assert fresh.pid != spare_pid


def test_an_unused_spare_is_ended_and_a_forked_child_never_adopts_it() -> None:
    from grader.runner import spare as spare_module

    spare_module.launch_spare()
    found = spare_module.spare()
    assert found is not None
    proc, sock, _, greeted = found
    spare_module.set_spare((proc, sock, os.getpid() + 1, greeted))  # as a forked child sees it
    assert spare_module.take_spare() is None
    spare_module.set_spare((proc, sock, os.getpid(), greeted))
    spare_module.discard_spare()
    assert proc.poll() is not None, "the spare master process is still running"
    assert spare_module.spare() is None


def test_a_greeted_spare_is_adopted_by_the_master_it_was_greeted_for() -> None:
    from grader.runner import master as master_module
    from grader.runner import spare as spare_module

    spare_module.launch_spare()
    found = spare_module.spare()
    assert found is not None
    spare_pid = found[0].pid
    assert master_module.greet_spare(preload=["decimal"], isolation="rlimits")
    assert not master_module.greet_spare(preload=["decimal"], isolation="rlimits")  # once
    with Master(preload=["decimal"], isolation="rlimits") as adopted:
        assert adopted.pid == spare_pid
        with adopted.server() as server:
            assert run(server, "import sys; print('decimal' in sys.modules)").stdout == "True\n"


def test_a_spare_greeted_for_another_master_is_ended_never_adopted(tmp_path: Path) -> None:
    """The attack: a spare greeted early with a hide list that misses a secret (a stale
    guess at the course root) must not serve a master that hides it."""
    from grader.runner import master as master_module
    from grader.runner import spare as spare_module

    require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    secret = tmp_path / "solutions"
    secret.mkdir()
    (secret / "answer.py").write_text("ANSWER = 42\n")
    spare_module.launch_spare()
    found = spare_module.spare()
    assert found is not None
    spare = found[0]
    assert master_module.greet_spare(preload=["decimal"], isolation="namespaces")
    with Master(preload=["decimal"], hide=[secret], isolation="namespaces") as other:
        assert other.pid != spare.pid
        assert spare.poll() is not None, "the spare greeted for another master still runs"
        with other.server() as server:
            probe = f"import os; print(os.listdir({str(secret)!r}))"
            assert "answer.py" not in run(server, probe).stdout
    assert spare_module.spare() is None
