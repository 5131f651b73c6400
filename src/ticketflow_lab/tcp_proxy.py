"""A loopback TCP proxy the lab can cut: a broker connection that really drops.

A worker given ``amqp://…@127.0.0.1:<proxy port>//`` talks to RabbitMQ through it.
``cut()`` closes every connection it carries, both ends, as a network failure would,
and leaves the listener up, so the worker's reconnect succeeds. The shared broker is never
touched: only this proxy's own sockets are closed.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from types import TracebackType


class TcpProxy:
    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self.accepted = 0
        self._closed = False
        self._thread = threading.Thread(target=self._accept, name="lab-tcp-proxy", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            with self._lock:
                self._pairs.append((client, server))
                self.accepted += 1
            for source, target in ((client, server), (server, client)):
                threading.Thread(
                    target=_pump, args=(source, target), name="lab-tcp-pump", daemon=True
                ).start()

    def cut(self) -> int:
        """Close every connection carried now (both ends); return how many were cut."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
        return len(pairs)

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        self.cut()
        self._thread.join(timeout=5)

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _pump(source: socket.socket, target: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
