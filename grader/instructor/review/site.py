"""What every route of the review page shares: the language (query, then cookie, kept
across redirects), rendering with the rendered-page cache, redirects after a POST
(post/redirect/get: a refused form comes back through a one-time "flash", so a reload
never posts again) and the CSRF/Origin check of a form."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from grader.instructor.gradebook import ResultView
from grader.instructor.gradebook.decisions import ConflictingDecision, StaleDecision
from grader.instructor.review import details
from grader.instructor.review.auth import CSRF_FIELD, Guard
from grader.instructor.review.data import ClassData, Snapshot
from grader.instructor.review.decisions import Rejected, is_override
from grader.instructor.review.highlight import highlighted
from grader.instructor.review.rendering import render
from grader.instructor.term.store import ReceiptView, receipt_of
from grader.render.catalog import LANGUAGES, render_message

LANG_COOKIE = "grader_review_lang"
#: Refused forms waiting for their page to be shown once (oldest dropped first).
FLASHES = 64


@dataclass
class ReviewSettings:
    db_url: str | None
    reviewer: str
    lang: str = "zh"
    guard: Guard = field(default_factory=Guard)


@dataclass(frozen=True)
class Flash:
    """A refused form: the reason and what was typed, shown by the next GET."""

    error: Rejected
    fields: dict[str, str]


class Site:
    def __init__(self, settings: ReviewSettings, data: ClassData) -> None:
        self.settings = settings
        self.data = data
        #: Rendered GET pages of the current snapshot, by (language, path, query): a page
        #: is rendered once per change of the gradebook (the class matrix is 150 kB).
        self._rendered: dict[tuple[str, str, str], str] = {}
        self._rendered_for: Snapshot | None = None
        self._flashes: OrderedDict[str, Flash] = OrderedDict()

    # -- language ---------------------------------------------------------------------------

    def _lang(self, request: Request) -> str:
        asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
        return asked if asked in LANGUAGES else self.settings.lang

    def _remember_lang(self, request: Request, response: Response) -> Response:
        if request.query_params.get("lang") in LANGUAGES:
            lang = self._lang(request)
            response.set_cookie(LANG_COOKIE, lang, httponly=True, samesite="strict", path="/")
        return response

    # -- answers ----------------------------------------------------------------------------

    def _cache_key(self, request: Request) -> tuple[str, str, str]:
        return (self._lang(request), request.url.path, request.url.query)

    def _cached(self, request: Request, snapshot: Snapshot) -> Response | None:
        if request.method != "GET" or self._rendered_for is not snapshot:
            return None
        html = self._rendered.get(self._cache_key(request))
        return None if html is None else self._respond(request, html, 200)

    def _respond(self, request: Request, html: str, status: int) -> Response:
        return self._remember_lang(request, HTMLResponse(html, status_code=status))

    def _redirect(self, request: Request, target: str) -> Response:
        """303 to ``target`` (the language chosen with ``?lang=`` is kept in the cookie)."""
        return self._remember_lang(request, RedirectResponse(target, status_code=303))

    def _page(
        self,
        request: Request,
        name: str,
        context: dict[str, Any],
        status: int = 200,
        *,
        cache: bool = True,
    ) -> Response:
        lang = self._lang(request)
        snapshot: Snapshot = context.get("snapshot") or self.data.current()
        base = {
            "csrf_field": CSRF_FIELD,
            "csrf_token": self.settings.guard.csrf_token,
            "reviewer": self.settings.reviewer,
            "left": snapshot.left,
            "names": snapshot.names,
            "path": request.url.path,
            "query": request.url.query,
        }
        html = render(name, lang, {**base, **context})
        if cache and request.method == "GET" and status == 200:
            if self._rendered_for is not snapshot:
                self._rendered, self._rendered_for = {}, snapshot
            if len(self._rendered) < 256:
                self._rendered[self._cache_key(request)] = html
        return self._respond(request, html, status)

    def _not_found(self, request: Request) -> Response:
        return self._page(request, "not_found.html.j2", {}, status=404)

    async def _snapshot(self) -> Snapshot:
        return await run_in_threadpool(self.data.current)

    def _result_context(self, snapshot: Snapshot, result: ResultView) -> dict[str, Any]:
        code = highlighted(result.content, result.kind) if result.content is not None else None
        return {
            "snapshot": snapshot,
            "result": result,
            "code": code,
            "mutants": details.mutant_rows(result),
            "twins": details.twin_rows(result),
            "concepts": details.concept_rows(result),
            "override": is_override(result),
            "total": snapshot.total(result.student),
            "group": snapshot.groups.of_member.get((result.student, result.exercise)),
            "term_notes": details.term_notes(result, self._receipt(result)),
        }

    def _receipt(self, result: ResultView) -> ReceiptView | None:
        """Read when the page is rendered; a change of lateness (``grader extend``) is a new
        revision of the class (``ClassData.revision``), so no cached page keeps the old one."""
        if not result.content_sha256:
            return None
        return receipt_of(self.data.book, result.student, result.exercise, result.content_sha256)

    async def _conflict(
        self,
        request: Request,
        clash: StaleDecision | ConflictingDecision,
        score: str,
        comment: str,
        read_grading: int | None,
    ) -> Response:
        """409: what was read and what is there now, side by side; nothing was stored."""
        decision = clash.decision
        snapshot = await self._snapshot()
        current = snapshot.result(decision.student, decision.exercise)
        read = None
        if read_grading is not None:
            read = await run_in_threadpool(self.data.book.grading, read_grading)
        context = {
            "snapshot": snapshot,
            "stale": isinstance(clash, StaleDecision),
            "read": read,
            "current": current,
            "read_code": highlighted(read.content, read.kind) if read and read.content else None,
            "current_code": highlighted(current.content, current.kind)
            if current and current.content
            else None,
            "score_given": score,
            "comment_given": comment,
            "student": decision.student,
            "exercise": decision.exercise,
        }
        return self._page(request, "conflict.html.j2", context, status=409)

    # -- forms ------------------------------------------------------------------------------

    def _form_refused(self, request: Request, form: Any) -> Response | None:
        """403 unless the form carries this server's CSRF token and comes from its origin."""
        guard = self.settings.guard
        submitted = form.get(CSRF_FIELD)
        if guard.csrf_ok(submitted if isinstance(submitted, str) else None) and guard.origin_ok(
            request.headers.get("origin"), request.headers.get("host")
        ):
            return None
        return Response(render_message("review.csrf", {}, self._lang(request)), 403)

    def _refused(
        self, request: Request, target: str, error: Rejected, fields: dict[str, str]
    ) -> Response:
        """Post/redirect/get for a refused form: 303 back to ``target`` with a flash id."""
        flash = secrets.token_urlsafe(9)
        self._flashes[flash] = Flash(error, fields)
        while len(self._flashes) > FLASHES:
            self._flashes.popitem(last=False)
        joiner = "&" if "?" in target else "?"
        return self._redirect(request, f"{target}{joiner}{urlencode({'flash': flash})}")

    def _flash(self, request: Request) -> Flash | None:
        """The refused form this GET shows (a reload shows it again, and posts nothing)."""
        given = request.query_params.get("flash")
        return None if given is None else self._flashes.get(given)
