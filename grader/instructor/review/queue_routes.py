"""The review queue: one question across the class (``/queue?exercise=EX-11-02``) or every
question in turn; an item's page, and where a save moves on to."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from grader.instructor.review.data import Snapshot
from grader.instructor.review.site import Site


def form_int(form: Any, name: str) -> int | None:
    """A whole number the form carries back (None: absent or not a number)."""
    value = form.get(name)
    if not isinstance(value, str) or not value.strip().isdigit():
        return None
    return int(value)


def _mode(request: Request, snapshot: Snapshot) -> str | None:
    """The question the reviewer is walking (None: every one); unknown ones are ignored."""
    asked = request.query_params.get("exercise")
    return asked if asked in snapshot.left_by_exercise else None


class QueueRoutes(Site):
    @staticmethod
    def _queue_url(student: str, exercise: str, mode: str | None) -> str:
        query = f"?{urlencode({'exercise': mode})}" if mode else ""
        return f"/queue/{student}/{exercise}{query}"

    def _queue_context(self, snapshot: Snapshot, mode: str | None) -> dict[str, Any]:
        return {
            "mode": mode,
            "questions": snapshot.left_by_exercise,
            "left_here": snapshot.left_by_exercise.get(mode, 0) if mode else snapshot.left,
        }

    async def queue_start(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        mode = _mode(request, snapshot)
        first = next((r for r in snapshot.queue_for(mode) if not r.reviewed), None)
        if first is None:  # all reviewed: say so, and point to what the class got wrong
            context = {"snapshot": snapshot, **self._queue_context(snapshot, mode)}
            return self._page(request, "queue_empty.html.j2", context)
        return self._redirect(request, self._queue_url(first.student, first.exercise, mode))

    async def queue_item(self, request: Request) -> Response:
        snapshot = await self._snapshot()
        mode = _mode(request, snapshot)
        queue = snapshot.queue_for(mode)
        key = (request.path_params["student"], request.path_params["exercise"])
        keys = [(r.student, r.exercise) for r in queue]
        if key not in keys:
            return self._not_found(request)
        flash = self._flash(request)
        index = keys.index(key)
        result = queue[index]
        context = self._result_context(snapshot, result)
        context.update(self._queue_context(snapshot, mode))
        context.update(
            position=index + 1,
            count=len(keys),
            previous=queue[index - 1] if index > 0 else None,
            following=queue[index + 1] if index + 1 < len(keys) else None,
            saved=request.query_params.get("saved") == "1",
            link=lambda r: self._queue_url(r.student, r.exercise, mode),
        )
        if flash is not None:
            context.update(error=flash.error, **flash.fields)
        return self._page(request, "queue.html.j2", context, cache=False)

    def _next_in_queue(self, student: str, exercise: str, mode: str | None) -> str:
        """The next answer still without a score after this one in the question walked
        (wrapping round); the queue's "all reviewed" page when none is left."""
        queue = self.data.current().queue_for(mode)
        keys = [(r.student, r.exercise) for r in queue]
        start = keys.index((student, exercise)) + 1 if (student, exercise) in keys else 0
        for result in (*queue[start:], *queue[:start]):
            if not result.reviewed:
                return self._queue_url(result.student, result.exercise, mode)
        return f"/queue?{urlencode({'exercise': mode})}" if mode else "/queue"
