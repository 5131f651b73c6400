"""The article's ``IdempotentTask``, as it would run on a real worker with a Redis backend.

The article dedupes by task id through the result backend: before running, look up
``celery:dedupe:<task id>``; if present return it, else run and store the result (then
``expire`` it after 7200 s). Reproduced here in the article's shape (its logging and
its swallowed storage error left out), as the base of ``lesson14.idempotent_notify``,
so lesson 14 can show on a real Redis backend what it catches and what it does not.
"""

from __future__ import annotations

import json
from typing import Any

from celery import Task

DEDUPE_TTL_SECONDS = 7200


def dedupe_key(task_id: str) -> str:
    return f"celery:dedupe:{task_id}"


class IdempotentTask(Task):  # type: ignore[misc]
    """Skip the task when its task id already has a stored result (check, then write)."""

    abstract = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = dedupe_key(self.request.id)
        backend: Any = self.backend
        existing = backend.get(key)
        if existing is not None:
            return json.loads(existing)
        result = super().__call__(*args, **kwargs)
        backend.set(key, json.dumps(result))
        if hasattr(backend, "client"):
            backend.client.expire(key, DEDUPE_TTL_SECONDS)
        return result
