"""Start the inbox: open the gradebook, check there is someone to hand in, bind, print the
address students hand in to, and serve until Ctrl+C (as ``grader review`` does)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from grader.errors import UsageError
from grader.instructor.gradebook import Gradebook
from grader.instructor.inbox.app import DEFAULT_MAX_BYTES, InboxSettings, create_app
from grader.instructor.review.server import listening_socket
from grader.instructor.term.inbox_store import token_count
from grader.render.catalog import render_message


@dataclass(frozen=True)
class InboxOptions:
    db_url: str | None
    submissions: Path
    host: str
    port: int
    lang: str
    max_bytes: int = DEFAULT_MAX_BYTES
    base_path: str = "/"


def inbox_url(host: str, port: int, base_path: str = "/") -> str:
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    path = "/" + "".join(part + "/" for part in base_path.split("/") if part)
    return f"http://{shown}:{port}{path}"


def serve(options: InboxOptions) -> None:
    """Refuses (before binding) a missing submissions folder and a class without tokens."""
    folder = options.submissions
    if not folder.is_dir():
        raise UsageError("error.inbox_no_folder", path=str(folder))
    book = Gradebook(options.db_url, must_exist=True)
    try:
        if token_count(book) == 0:
            raise UsageError("error.inbox_no_tokens")
        settings = InboxSettings(
            folder.resolve(), options.max_bytes, lang=options.lang, base_path=options.base_path
        )
        app = create_app(settings, book)
        sock = listening_socket(options.host, options.port)
        url = inbox_url(options.host, sock.getsockname()[1], options.base_path)
        print(render_message("inbox.started", {"url": url}, options.lang), flush=True)
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        try:
            uvicorn.Server(config).run(sockets=[sock])
        finally:
            sock.close()
    finally:
        book.close()
        sys.stdout.flush()
