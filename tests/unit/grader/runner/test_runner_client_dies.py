"""A client that dies mid-run (SIGKILL, no ``close``) leaves nothing behind: its server's
host kills the run and exits, and so does the master. A leftover host would hold a forked
copy of the grader for ever, once per student of a killed ``grader grade``."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.unit.grader.runner.helpers import alive, require_namespaces

#: The client: a master, one student's server, one run that outlives the client.
CLIENT = """
import sys
from grader.runner import Master, Limits, RunRequest
master = Master(isolation=sys.argv[1])
server = master.server()
print(master.pid, server._proc.pid, flush=True)
server.run(RunRequest("import time; print('up', flush=True); time.sleep(60)", "p.py",
                      limits=Limits(wall_seconds=90)))
"""


@pytest.mark.parametrize("mode", ["namespaces", "rlimits"])
def test_the_host_and_the_master_exit_when_their_client_is_killed_mid_run(mode: str) -> None:
    if mode == "namespaces":
        require_namespaces()  # skips: "requires Linux namespaces, not available here: ..."
    client = subprocess.Popen(
        [sys.executable, "-c", CLIENT, mode], stdout=subprocess.PIPE, cwd=os.getcwd()
    )
    try:
        assert client.stdout is not None
        master_pid, host_pid = (int(word) for word in client.stdout.readline().split())
        time.sleep(1.0)  # the run is under way
        assert alive(host_pid) and client.poll() is None
    finally:
        client.kill()
        client.wait()
        if client.stdout is not None:
            client.stdout.close()
    deadline = time.monotonic() + 10
    while (alive(host_pid) or alive(master_pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [name for name, pid in (("host", host_pid), ("master", master_pid)) if alive(pid)]
    for pid in (host_pid, master_pid):  # leave the machine clean either way
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"still running 10 s after their client was killed: {left}"
