"""The review page's routes (Starlette). Every route reads the class through ``ClassData``
and renders a template; the one state-changing route (``POST /decide/...``) checks the
CSRF token and stores the decision through ``decisions.decide``."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.decisions import ConflictingDecision, StaleDecision
from grader.instructor.gradebook.stats import evaluated, survivors
from grader.instructor.review.charts import check_chart, mutant_chart, pass_rate_chart
from grader.instructor.review.data import ClassData
from grader.instructor.review.decisions import Rejected, decide
from grader.instructor.review.group_routes import GroupRoutes
from grader.instructor.review.highlight import highlighted, stylesheet
from grader.instructor.review.matrix import build_matrix
from grader.instructor.review.middleware import TokenMiddleware
from grader.instructor.review.pair_routes import PairRoutes
from grader.instructor.review.queue_routes import QueueRoutes, form_int
from grader.instructor.review.site import LANG_COOKIE, ReviewSettings
from grader.render.catalog import render_message, resolve_lang

__all__ = ["LANG_COOKIE", "ReviewSettings", "create_app"]

STATIC_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}


def create_app(settings: ReviewSettings, book: Gradebook | None = None) -> Any:
    """The ASGI application: the routes behind the token middleware."""
    book = book or Gradebook(settings.db_url)
    pages = Pages(settings, ClassData(book))
    # read and group the whole class once, before the first request
    _ = pages.data.current().groups
    highlighted("", "code"), highlighted("", "prose")  # load the lexers now, not on a click
    routes = [
        Route("/", pages.matrix),
        Route("/s/{student}/{exercise}", pages.submission),
        Route("/queue", pages.queue_start),
        Route("/queue/{student}/{exercise}", pages.queue_item),
        Route("/decide/{student}/{exercise}", pages.decide, methods=["POST"]),
        Route("/groups", pages.groups),
        Route("/group/{key}", pages.group),
        Route("/decide-group/{key}", pages.decide_group, methods=["POST"]),
        Route("/pair/{exercise}/{first}/{second}", pages.pair),
        Route("/insight", pages.insight),
        Route("/insight/mutant/{exercise}/{mutant}", pages.mutant_students),
        Route("/static/{name}", pages.static),
        Route("/favicon.ico", pages.favicon),
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


class Pages(PairRoutes, GroupRoutes, QueueRoutes):
    def __init__(self, settings: ReviewSettings, data: ClassData) -> None:
        super().__init__(settings, data)
        self.assets = _static_files()

    # -- pages ------------------------------------------------------------------------------

    async def matrix(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        if hit := self._cached(request, snapshot):
            return hit
        matrix = build_matrix(
            snapshot, request.query_params.get("status"), request.query_params.get("sort", "")
        )
        return self._page(request, "matrix.html.j2", {"snapshot": snapshot, "matrix": matrix})

    async def submission(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        result = snapshot.result(request.path_params["student"], request.path_params["exercise"])
        if result is None:
            return self._not_found(request)
        flash = self._flash(request)
        if flash is None and (hit := self._cached(request, snapshot)):
            return hit
        context = self._result_context(snapshot, result)
        context["saved"] = request.query_params.get("saved") == "1"
        if flash is not None:
            context.update(error=flash.error, **flash.fields)
        return self._page(request, "submission.html.j2", context, cache=flash is None)

    async def decide(self, request: Request) -> Response:
        """Store one decision; post/redirect/get whatever happens, except a conflict (409)."""
        form = await request.form()
        if refused := self._form_refused(request, form):
            return refused
        snapshot = await self._snapshot()
        student, exercise = request.path_params["student"], request.path_params["exercise"]
        result = snapshot.result(student, exercise)
        if result is None:
            return self._not_found(request)
        score, comment = str(form.get("score", "")), str(form.get("comment", ""))
        mode = str(form.get("queue_exercise", "")) or None
        back = str(form.get("back", "submission"))
        read_grading, read_version = form_int(form, "grading"), form_int(form, "version")
        here = (
            self._queue_url(student, exercise, mode)
            if back == "queue"
            else (f"/s/{student}/{exercise}")
        )
        try:
            await run_in_threadpool(
                lambda: decide(
                    self.data.book,
                    result,
                    score,
                    comment,
                    self.settings.reviewer,
                    grading_id=read_grading,
                    version=read_version,
                )
            )
        except Rejected as error:
            return self._refused(
                request, here, error, {"score_given": score, "comment_given": comment}
            )
        except (StaleDecision, ConflictingDecision) as clash:
            return await self._conflict(request, clash, score, comment, read_grading)
        if back == "queue":
            target = await run_in_threadpool(self._next_in_queue, student, exercise, mode)
            return self._redirect(request, target)
        return self._redirect(request, f"/s/{student}/{exercise}?saved=1")

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
            "pass_rates": pass_rate_chart(stats, "/insight"),
            "strays": snapshot.strays,
            "sections": sections,
        }
        return self._page(request, "insight.html.j2", context)

    async def mutant_students(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        exercise, mutant = request.path_params["exercise"], request.path_params["mutant"]
        name = f"mutant:{mutant}"
        handed = [r for r in snapshot.results if r.exercise == exercise and r.status != "missing"]
        tried = [r for r in handed if any(c.name == name for c in r.checks)]
        evaluated_here = [
            r for r in tried if any(c.name == name and evaluated(c) for c in r.checks)
        ]
        if not tried:
            return self._not_found(request)
        names = survivors(list(snapshot.results), exercise, mutant)  # as grader stats counts
        survived = [r for r in (snapshot.result(n, exercise) for n in names) if r is not None]
        context = {
            "snapshot": snapshot,
            "exercise": exercise,
            "mutant": mutant,
            "survived": survived,
            "tried": len(evaluated_here),
            "handed": len(tried),
        }
        return self._page(request, "mutant.html.j2", context)

    async def favicon(self, request: Request) -> Response:
        return Response(self.assets["favicon.svg"], media_type=STATIC_TYPES[".svg"])

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        data = self.assets.get(name)
        suffix = name[name.rfind(".") :] if "." in name else ""
        if data is None or suffix not in STATIC_TYPES:
            return Response("404", status_code=404, media_type="text/plain")
        return Response(data, media_type=STATIC_TYPES[suffix])


def default_lang(given: str | None) -> str:
    return resolve_lang(given)
