"""The review page's routes (Starlette). Every route reads the class through ``ClassData``
and renders a template; the one state-changing route (``POST /decide/...``) checks the
CSRF token and stores the decision through ``decisions.decide``."""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from grader.instructor.gradebook import Gradebook, ResultView
from grader.instructor.gradebook.stats import survivors
from grader.instructor.review import details
from grader.instructor.review.auth import CSRF_FIELD, Guard
from grader.instructor.review.charts import check_chart, mutant_chart, pass_rate_chart
from grader.instructor.review.data import ClassData, Snapshot
from grader.instructor.review.decisions import Rejected, decide, is_override
from grader.instructor.review.highlight import highlighted, stylesheet
from grader.instructor.review.matrix import build_matrix
from grader.instructor.review.middleware import TokenMiddleware
from grader.instructor.review.rendering import render
from grader.render.catalog import LANGUAGES, render_message, resolve_lang

LANG_COOKIE = "grader_review_lang"
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


@dataclass
class ReviewSettings:
    db_url: str | None
    reviewer: str
    lang: str = "zh"
    guard: Guard = field(default_factory=Guard)


def create_app(settings: ReviewSettings, book: Gradebook | None = None) -> Any:
    """The ASGI application: the routes behind the token middleware."""
    book = book or Gradebook(settings.db_url)
    pages = Pages(settings, ClassData(book))
    pages.data.current()  # read the whole class once, before the first request
    highlighted("", "code"), highlighted("", "prose")  # load the lexers now, not on a click
    routes = [
        Route("/", pages.matrix),
        Route("/s/{student}/{exercise}", pages.submission),
        Route("/queue", pages.queue_start),
        Route("/queue/{student}/{exercise}", pages.queue_item),
        Route("/decide/{student}/{exercise}", pages.decide, methods=["POST"]),
        Route("/insight", pages.insight),
        Route("/insight/mutant/{exercise}/{mutant}", pages.mutant_students),
        Route("/static/{name}", pages.static),
    ]
    app = Starlette(routes=routes)
    app.state.book = book
    forbidden = render_message("review.forbidden", {}, settings.lang)
    return TokenMiddleware(app, settings.guard, forbidden)


def _static_files() -> dict[str, bytes]:
    """This package's assets, read once (nothing else is ever served as a file)."""
    folder = files("grader.instructor.review") / "static"
    assets = {item.name: item.read_bytes() for item in folder.iterdir() if item.is_file()}
    assets["pygments.css"] = stylesheet().encode()
    return assets


class Pages:
    def __init__(self, settings: ReviewSettings, data: ClassData) -> None:
        self.settings = settings
        self.data = data
        self.assets = _static_files()
        #: Rendered GET pages of the current snapshot, by (language, path, query): a page
        #: is rendered once per change of the gradebook (the class matrix is 150 kB).
        self._rendered: dict[tuple[str, str, str], str] = {}
        self._rendered_for: Snapshot | None = None

    # -- helpers ----------------------------------------------------------------------------

    def _lang(self, request: Request) -> str:
        asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
        return asked if asked in LANGUAGES else self.settings.lang

    def _cache_key(self, request: Request) -> tuple[str, str, str]:
        return (self._lang(request), request.url.path, request.url.query)

    def _cached(self, request: Request, snapshot: Snapshot) -> Response | None:
        if request.method != "GET" or self._rendered_for is not snapshot:
            return None
        html = self._rendered.get(self._cache_key(request))
        return None if html is None else self._respond(request, html, 200)

    def _respond(self, request: Request, html: str, status: int) -> Response:
        response = HTMLResponse(html, status_code=status)
        if request.query_params.get("lang") in LANGUAGES:
            lang = self._lang(request)
            response.set_cookie(LANG_COOKIE, lang, httponly=True, samesite="strict", path="/")
        return response

    def _page(
        self, request: Request, name: str, context: dict[str, Any], status: int = 200
    ) -> Response:
        lang = self._lang(request)
        snapshot: Snapshot = context.get("snapshot") or self.data.current()
        base = {
            "csrf_field": CSRF_FIELD,
            "csrf_token": self.settings.guard.csrf_token,
            "reviewer": self.settings.reviewer,
            "left": snapshot.left,
            "path": request.url.path,
            "query": request.url.query,
        }
        html = render(name, lang, {**base, **context})
        if request.method == "GET" and status == 200:
            if self._rendered_for is not snapshot:
                self._rendered, self._rendered_for = {}, snapshot
            if len(self._rendered) < 256:
                self._rendered[self._cache_key(request)] = html
        return self._respond(request, html, status)

    def _not_found(self, request: Request) -> Response:
        return self._page(request, "not_found.html.j2", {}, status=404)

    async def _snapshot(self) -> Snapshot:
        return await run_in_threadpool(self.data.current)

    # -- pages ------------------------------------------------------------------------------

    async def matrix(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        if hit := self._cached(request, snapshot):
            return hit
        matrix = build_matrix(
            snapshot, request.query_params.get("status"), request.query_params.get("sort", "")
        )
        return self._page(request, "matrix.html.j2", {"snapshot": snapshot, "matrix": matrix})

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
        }

    async def submission(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        result = snapshot.result(request.path_params["student"], request.path_params["exercise"])
        if result is None:
            return self._not_found(request)
        if hit := self._cached(request, snapshot):
            return hit
        context = self._result_context(snapshot, result)
        context["saved"] = request.query_params.get("saved") == "1"
        return self._page(request, "submission.html.j2", context)

    async def queue_start(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        if not snapshot.queue:
            return self._page(request, "queue_empty.html.j2", {"snapshot": snapshot})
        first = next((r for r in snapshot.queue if not r.reviewed), snapshot.queue[0])
        return RedirectResponse(f"/queue/{first.student}/{first.exercise}", status_code=303)

    async def queue_item(self, request: Request, error: Rejected | None = None) -> Response:
        snapshot = await self._snapshot()
        key = (request.path_params["student"], request.path_params["exercise"])
        keys = [(r.student, r.exercise) for r in snapshot.queue]
        if key not in keys:
            return self._not_found(request)
        index = keys.index(key)
        result = snapshot.queue[index]
        context = self._result_context(snapshot, result)
        context.update(
            position=index + 1,
            count=len(keys),
            previous=snapshot.queue[index - 1] if index > 0 else None,
            following=snapshot.queue[index + 1] if index + 1 < len(keys) else None,
            saved=request.query_params.get("saved") == "1",
            error=error,
        )
        return self._page(request, "queue.html.j2", context, status=400 if error else 200)

    async def decide(self, request: Request) -> Response:
        form = await request.form()
        guard = self.settings.guard
        submitted = form.get(CSRF_FIELD)
        if not guard.csrf_ok(submitted if isinstance(submitted, str) else None) or not (
            guard.origin_ok(request.headers.get("origin"), request.headers.get("host"))
        ):
            return Response(render_message("review.csrf", {}, self._lang(request)), 403)
        snapshot = await self._snapshot()
        student, exercise = request.path_params["student"], request.path_params["exercise"]
        result = snapshot.result(student, exercise)
        if result is None:
            return self._not_found(request)
        score, comment = str(form.get("score", "")), str(form.get("comment", ""))
        back = str(form.get("back", "submission"))
        try:
            await run_in_threadpool(
                decide, self.data.book, result, score, comment, self.settings.reviewer
            )
        except Rejected as error:
            if back == "queue" and result.status == "needs_review":
                return await self.queue_item(request, error)
            context = self._result_context(snapshot, result)
            context.update(error=error, score_given=score, comment_given=comment)
            return self._page(request, "submission.html.j2", context, status=400)
        if back == "queue":
            target = await run_in_threadpool(self._next_in_queue, student, exercise)
            return RedirectResponse(target, status_code=303)
        return RedirectResponse(f"/s/{student}/{exercise}?saved=1", status_code=303)

    def _next_in_queue(self, student: str, exercise: str) -> str:
        """The next answer still without a score after this one (wrapping round); the queue's
        end page when none is left."""
        queue = self.data.current().queue
        keys = [(r.student, r.exercise) for r in queue]
        start = keys.index((student, exercise)) + 1 if (student, exercise) in keys else 0
        for result in (*queue[start:], *queue[:start]):
            if not result.reviewed:
                return f"/queue/{result.student}/{result.exercise}"
        return "/queue"

    async def insight(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        if hit := self._cached(request, snapshot):
            return hit
        stats = snapshot.stats
        sections = [
            (item, check_chart(item), mutant_chart(item, "/insight/mutant")) for item in stats
        ]
        context = {
            "snapshot": snapshot,
            "pass_rates": pass_rate_chart(stats, "/insight", _awaiting(snapshot)),
            "sections": sections,
        }
        return self._page(request, "insight.html.j2", context)

    async def mutant_students(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        exercise, mutant = request.path_params["exercise"], request.path_params["mutant"]
        name = f"mutant:{mutant}"
        handed = [r for r in snapshot.results if r.exercise == exercise and r.status != "missing"]
        tried = [r for r in handed if any(c.name == name for c in r.checks)]
        if not tried:
            return self._not_found(request)
        names = survivors(list(snapshot.results), exercise, mutant)  # as grader stats counts
        survived = [r for r in (snapshot.result(n, exercise) for n in names) if r is not None]
        context = {
            "snapshot": snapshot,
            "exercise": exercise,
            "mutant": mutant,
            "survived": survived,
            "tried": len(tried),
        }
        return self._page(request, "mutant.html.j2", context)

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        data = self.assets.get(name)
        suffix = name[name.rfind(".") :] if "." in name else ""
        if data is None or suffix not in STATIC_TYPES:
            return Response("404", status_code=404, media_type="text/plain")
        return Response(data, media_type=STATIC_TYPES[suffix])


def default_lang(given: str | None) -> str:
    return resolve_lang(given)


def _awaiting(snapshot: Snapshot) -> dict[str, int]:
    """Per exercise, the answers in the review queue that have no final score yet."""
    counts: dict[str, int] = {}
    for result in snapshot.queue:
        if not result.reviewed:
            counts[result.exercise] = counts.get(result.exercise, 0) + 1
    return counts
