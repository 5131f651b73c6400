"""A ``cache+memory://`` result backend that belongs to one app only.

Celery's in-memory cache client keeps every key in one process-wide ``LRUCache``
(``celery.backends.cache._DUMMY_CLIENT_CACHE``), shared by every app in the process. A
key written by an earlier app -- an earlier run of a lesson cell -- outlives that app, so
the next run starts with the last run's keys already stored, and a lesson about
deduplicating through the result backend prints another count when it is run again.
``own_memory_cache`` gives one app's backend an empty cache of its own.
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from celery.backends.cache import CacheBackend
from celery.utils.functional import LRUCache

#: Same bound as Celery's shared cache.
CACHE_LIMIT = 5000


def own_memory_cache(app: Celery) -> Celery:
    """Give ``app``'s ``cache+memory://`` backend (this thread's) a private, empty cache."""
    backend: Any = app.backend
    if not isinstance(backend, CacheBackend) or backend.backend != "memory":
        raise ValueError(f"not a cache+memory:// result backend: {type(backend).__name__}")
    backend.client.cache = LRUCache(limit=CACHE_LIMIT)
    return app
