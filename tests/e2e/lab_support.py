"""A JupyterLab started by ``make lab``, and a terminal in it driven over Jupyter's own API.

``started_lab`` runs ``make lab ARGS="--no-browser --port P --ServerApp.token=T"`` with a PATH
that does not hold the venv (as a student's desktop launcher or a fresh shell would), waits
for the server, and stops its process group afterwards. ``Terminal`` opens a terminal
through the REST API (``POST /api/terminals``) and its websocket
(``/terminals/websocket/<name>``), types a command and reads what the shell prints.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import websocket  # websocket-client, a dependency of JupyterLab

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = REPO / ".venv" / "bin"
START_SECONDS = 180.0


@dataclass(frozen=True)
class Lab:
    port: int
    token: str

    def url(self, path: str, scheme: str = "http") -> str:
        return f"{scheme}://127.0.0.1:{self.port}{path}?token={self.token}"

    def new_terminal(self) -> str:
        request = urllib.request.Request(self.url("/api/terminals"), data=b"", method="POST")
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(json.loads(answer.read())["name"])


def path_without_venv() -> str:
    kept = [
        entry
        for entry in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
        if entry and Path(entry).resolve() != VENV_BIN.resolve()
    ]
    return os.pathsep.join(kept)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def started_lab(tmp_path: Path) -> Iterator[Lab]:
    lab = Lab(_free_port(), secrets.token_hex(16))
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(PATH=path_without_venv(), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"))
    args = f"--no-browser --port {lab.port} --ServerApp.token={lab.token}"
    log = (tmp_path / "lab.log").open("wb")
    process = subprocess.Popen(
        ["make", "-s", "lab", f"ARGS={args}"],
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        _wait_until_up(lab, process, tmp_path / "lab.log")
        yield lab
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def _wait_until_up(lab: Lab, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"make lab exited: {log.read_text(errors='replace')[-3000:]}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(lab.url("/api/status"), timeout=5) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.5)
    raise AssertionError(f"JupyterLab did not start: {log.read_text(errors='replace')[-3000:]}")


class Terminal:
    """One JupyterLab terminal: ``run(command)`` types it and returns the output up to a
    marker the shell prints after it (with the command's exit status)."""

    def __init__(self, lab: Lab) -> None:
        self.name = lab.new_terminal()
        url = lab.url(f"/terminals/websocket/{self.name}", scheme="ws")
        self._ws = websocket.create_connection(url, timeout=60)

    def run(self, command: str, timeout: float = 120.0) -> tuple[int, str]:
        tag = secrets.token_hex(4)
        # The marker is computed by the shell, so the echo of the typed line never matches.
        typed = f'{command}; echo "END-{tag}-$?-$((6*7))"\r'
        self._ws.send(json.dumps(["stdin", typed]))
        output, deadline = "", time.monotonic() + timeout
        while time.monotonic() < deadline:
            message = json.loads(self._ws.recv())
            if message[0] == "stdout":
                output += message[1]
            found = re.search(f"END-{tag}-([0-9]+)-42", output)
            if found:
                return int(found.group(1)), output[: found.start()]
        raise AssertionError(f"no end marker within {timeout} s: {output[-2000:]}")

    def close(self) -> None:
        self._ws.close()

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
