"""``grader inbox``: the HTTP endpoint students hand in to (Starlette, like the review page).

A hand-in is ``POST /handin`` with the zip as the body and two headers, the student id
(``X-Grader-Student``) and their token (``Authorization: Bearer …``). In this order, and
before anything is stored:

1. the student id must be a valid id, and the token that student's (constant time);
   failed attempts are limited per client address, uploads per student;
2. the body must be at most ``max_bytes`` (refused from ``Content-Length`` before it is
   read, and again while it streams);
3. the zip must pass exactly what ``grade`` checks (``submit.verify``: archive limits,
   manifest hashes) and its manifest must name this student.

Then it is stored as the next version (``SUBMISSIONS/.versions/ID/SHA256.zip``, kept for
ever), recorded with the server's clock (``handins``), and copied to ``SUBMISSIONS/ID.zip``,
which is what ``grade`` grades. Answers are JSON; the token is never logged or echoed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
import zipfile
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from grader.app.archive import MANIFEST
from grader.app.handin import valid_student_id, verify
from grader.errors import GraderError
from grader.instructor.batch.layout import VERSIONS_FOLDER
from grader.instructor.gradebook import Gradebook
from grader.instructor.term.inbox_store import HandinView, handins, record_handin, token_matches
from grader.render.catalog import render_message

STUDENT_HEADER = "x-grader-student"
#: A hand-in is a few KiB of code and prose; 5 MiB leaves room for notebooks with output.
DEFAULT_MAX_BYTES = 5 << 20


@dataclass(frozen=True)
class InboxSettings:
    submissions: Path
    max_bytes: int = DEFAULT_MAX_BYTES
    #: Accepted uploads per student per window.
    uploads_per_window: int = 10
    #: Refused tokens per client address per window.
    failures_per_window: int = 20
    window_seconds: float = 60.0
    lang: str = "en"
    #: The path the inbox answers under: "/" alone, or e.g. "/services/inbox/" behind a
    #: JupyterHub proxy, which passes the whole path on.
    base_path: str = "/"


class Limiter:
    """At most ``limit`` events per key in any ``window`` seconds (a sliding log)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait(self, key: str) -> float:
        """0 if an event for ``key`` may happen now, else the seconds until one may."""
        now = time.monotonic()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and now - events[0] >= self.window:
                events.popleft()
            if len(events) < self.limit:
                return 0.0
            return self.window - (now - events[0])

    def note(self, key: str) -> None:
        with self._lock:
            self._events.setdefault(key, deque()).append(time.monotonic())


class Refused(Exception):
    """A hand-in refused: HTTP ``status``, a catalogue id and its parameters."""

    def __init__(self, status: int, message_id: str, **params: Any) -> None:
        super().__init__(message_id)
        self.status = status
        self.message_id = message_id
        self.params = params


class Inbox:
    def __init__(self, settings: InboxSettings, book: Gradebook) -> None:
        self.settings = settings
        self.book = book
        self.uploads = Limiter(settings.uploads_per_window, settings.window_seconds)
        self.failures = Limiter(settings.failures_per_window, settings.window_seconds)

    # -- routes -----------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return PlainTextResponse(render_message("inbox.index", {}, self.settings.lang))

    async def handin(self, request: Request) -> Response:
        try:
            student = self._authenticated(request)
            self._within_rate(student)
            body = await self._body(request)
            view = await run_in_threadpool(self._store, student, body)
        except Refused as refused:
            return self._refusal(refused)
        return JSONResponse(_receipt(view))

    async def status(self, request: Request) -> Response:
        try:
            student = self._authenticated(request)
        except Refused as refused:
            return self._refusal(refused)
        views = await run_in_threadpool(handins, self.book, student)
        return JSONResponse({"student": student, "handins": [_receipt(v) for v in views]})

    # -- the checks, in order -----------------------------------------------------------------

    def _authenticated(self, request: Request) -> str:
        client = request.client.host if request.client else "?"
        wait = self.failures.wait(client)
        if wait:
            raise Refused(429, "inbox.too_many_failures", seconds=int(wait) + 1)
        student = request.headers.get(STUDENT_HEADER, "")
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if not valid_student_id(student):
            self.failures.note(client)
            raise Refused(400, "inbox.bad_student")
        if scheme.lower() != "bearer" or not token_matches(self.book, student, token.strip()):
            self.failures.note(client)
            raise Refused(401, "inbox.bad_token", student=student)
        return student

    def _within_rate(self, student: str) -> None:
        wait = self.uploads.wait(student)
        if wait:
            raise Refused(429, "inbox.too_many_uploads", seconds=int(wait) + 1)

    async def _body(self, request: Request) -> bytes:
        limit = self.settings.max_bytes
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise Refused(413, "inbox.too_large", limit=limit)
        chunks: list[bytes] = []
        size = 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise Refused(413, "inbox.too_large", limit=limit)
                chunks.append(chunk)
        except ClientDisconnect:
            raise Refused(400, "inbox.incomplete") from None
        if not size:
            raise Refused(400, "inbox.empty")
        return b"".join(chunks)

    def _store(self, student: str, body: bytes) -> HandinView:
        """Check the zip as ``grade`` does, then keep it: nothing is written before the
        checks pass, and the graded copy is replaced in one rename."""
        scratch = Path(tempfile.mkdtemp(prefix="grader-inbox-"))
        try:
            candidate = scratch / f"{student}.zip"
            candidate.write_bytes(body)
            try:
                verify(candidate)
            except GraderError as error:
                detail = _detail(error, self.settings.lang)
                raise Refused(422, "inbox.bad_zip", detail=detail) from None
            files = _manifest_files(candidate)
            digest = hashlib.sha256(body).hexdigest()
            root = self.settings.submissions
            kept = root / VERSIONS_FOLDER / student / f"{digest}.zip"
            kept.parent.mkdir(parents=True, exist_ok=True)
            if not kept.exists():
                shutil.copyfile(candidate, kept)
            view = record_handin(self.book, student, digest, len(body), files)
            self.uploads.note(student)
            graded = root / f"{student}.zip"
            staged = root / VERSIONS_FOLDER / f".{student}.{os.getpid()}.tmp"
            shutil.copyfile(candidate, staged)
            os.replace(staged, graded)
            return view
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def _refusal(self, refused: Refused) -> Response:
        text = render_message(refused.message_id, refused.params, self.settings.lang)
        headers = {}
        if refused.status == 429:
            headers["retry-after"] = str(refused.params.get("seconds", 60))
        params = {key: value for key, value in refused.params.items()}
        body = {"error": refused.message_id, "params": params, "message": text}
        return JSONResponse(body, status_code=refused.status, headers=headers)


def create_app(settings: InboxSettings, book: Gradebook) -> Starlette:
    inbox = Inbox(settings, book)
    routes: list[BaseRoute] = [
        Route("/", inbox.index),
        Route("/handin", inbox.handin, methods=["POST"]),
        Route("/status", inbox.status),
    ]
    base = "/" + settings.base_path.strip("/")
    if base != "/":
        routes = [Route(base, inbox.index), Mount(base, routes=routes)]
    app = Starlette(routes=routes)
    app.state.inbox = inbox
    return app


def _receipt(view: HandinView) -> dict[str, Any]:
    shown = asdict(view)
    shown["received_at"] = view.received_at.isoformat(timespec="seconds")
    shown["exercises"] = list(view.exercises)
    del shown["files"]
    return shown


def _manifest_files(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read(MANIFEST))
    listed = manifest.get("files", {})
    return {str(name): str(digest) for name, digest in listed.items()}


def _detail(error: GraderError, lang: str) -> str:
    return render_message(error.message_id, error.params, lang)
