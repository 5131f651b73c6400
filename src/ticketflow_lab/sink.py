"""A tiny HTTP sink: the "dependency" the time-limit scenario pauses with SIGSTOP.

``python -m ticketflow_lab.sink`` serves POST requests on 127.0.0.1 (a free port) and
prints ``listening on http://127.0.0.1:PORT/notify`` once it accepts connections. While
it is stopped the kernel still accepts connections, so a client's request is sent and
then waits for an answer that does not come: a stalled dependency, not a refused one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import IO

READY_PREFIX = "listening on "


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = b'{"ok": true}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the worker's log is the one that matters


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up while we were paused: expected, not news


def serve() -> None:
    server = _Server(("127.0.0.1", 0), _Handler)
    print(f"{READY_PREFIX}http://127.0.0.1:{server.server_address[1]}/notify", flush=True)
    server.serve_forever()


class SinkProcess:
    """The sink as a subprocess in its own process group, which the driver can pause."""

    def __init__(self) -> None:
        self._popen: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> str:
        self._popen = subprocess.Popen(
            [sys.executable, "-m", "ticketflow_lab.sink"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        stdout: IO[str] | None = self._popen.stdout
        assert stdout is not None
        line = stdout.readline()  # the sink prints this line once it is listening
        if not line.startswith(READY_PREFIX):
            self.stop()
            raise RuntimeError(f"the sink did not start: {line!r}")
        self.url = line[len(READY_PREFIX) :].strip()
        return self.url

    @property
    def pid(self) -> int:
        if self._popen is None:
            raise RuntimeError("the sink has not been started")
        return self._popen.pid

    def pause(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self._popen is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self._popen.pid, signal.SIGKILL)
        self._popen.wait(timeout=10)
        if self._popen.stdout is not None:
            self._popen.stdout.close()

    def __enter__(self) -> SinkProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


if __name__ == "__main__":
    serve()
