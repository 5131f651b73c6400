"""Shared fixtures: services by URL, skipping (with the reason) only when unreachable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.services import postgres_unreachable, temporary_postgres_database


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    reason = postgres_unreachable()
    if reason:
        pytest.skip(reason)  # "<service> is unreachable at host:port; ..."
    with temporary_postgres_database() as url:
        yield url
