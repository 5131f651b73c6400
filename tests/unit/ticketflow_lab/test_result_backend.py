"""ticketflow_lab.result_backend: one app's cache+memory:// keys are not another's."""

from __future__ import annotations

import pytest

from ticketflow.workers.app import create_app
from ticketflow_lab.result_backend import own_memory_cache


def test_without_it_a_key_outlives_the_app_that_wrote_it() -> None:
    """The cause: Celery's in-memory cache is one per process, not one per app."""
    writer = create_app(eager=True, result_backend="cache+memory://")
    writer.backend.set("lab-test:shared-by-the-process", "1")
    reader = create_app(eager=True, result_backend="cache+memory://")
    try:
        assert reader.backend.get("lab-test:shared-by-the-process") == "1"
    finally:
        reader.backend.delete("lab-test:shared-by-the-process")


def test_with_it_each_app_starts_empty_and_keeps_its_own_keys() -> None:
    first = own_memory_cache(create_app(eager=True, result_backend="cache+memory://"))
    first.backend.set("lab-test:private", "1")
    second = own_memory_cache(create_app(eager=True, result_backend="cache+memory://"))
    assert second.backend.get("lab-test:private") is None
    assert first.backend.get("lab-test:private") == "1"
    plain = create_app(eager=True, result_backend="cache+memory://")
    assert plain.backend.get("lab-test:private") is None  # nothing leaked to the shared cache


def test_another_backend_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match=r"not a cache\+memory:// result backend"):
        own_memory_cache(create_app(eager=True))
