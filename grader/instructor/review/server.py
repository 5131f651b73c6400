"""Start the review page: open the gradebook, pick the port, print the address with its
token (as JupyterLab does), optionally open the browser, and serve until Ctrl+C."""

from __future__ import annotations

import socket
import sys
import threading
import webbrowser
from dataclasses import dataclass

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.review.app import ReviewSettings, create_app
from grader.instructor.review.auth import Guard, allowed_hosts
from grader.render.catalog import render_message


@dataclass(frozen=True)
class ServeOptions:
    db_url: str | None
    host: str
    port: int
    open_browser: bool
    reviewer: str
    lang: str


def page_url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}/?token={token}"


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise UsageError(
            "error.review_bind", host=host, port=port, detail=error.strerror or str(error)
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(options: ServeOptions) -> None:
    import uvicorn

    guard = Guard(hosts=allowed_hosts(options.host))
    book = Gradebook(options.db_url, must_exist=True)
    settings = ReviewSettings(options.db_url, options.reviewer, options.lang, guard)
    app = create_app(settings, book)
    sock = listening_socket(options.host, options.port)
    port = sock.getsockname()[1]
    url = page_url(options.host, port, guard.token)
    print(render_message("review.started", {"url": url}, options.lang), flush=True)
    if options.open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        book.close()
        sock.close()
        sys.stdout.flush()
