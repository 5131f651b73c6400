"""Shared fixtures: services by URL, skipping (with the reason) only when unreachable.

The run also fails if a process the tests started is still alive at its end
(``tests.support.leaks``); an ``xdist_group`` keeps its tests on one worker
(``tests.support.xdist_groups``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.support.leaks import (
    pytest_configure,
    pytest_runtest_setup,
    pytest_sessionfinish,
    pytest_terminal_summary,
)
from tests.support.services import postgres_unreachable, temporary_postgres_database
from tests.support.xdist_groups import pytest_collection_modifyitems

#: No verdict may depend on the machine's load: Hypothesis's per-example deadline (200 ms) and
#: its "input generation is slow" check both fail a correct test on a busy machine.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

__all__ = [
    "postgres_url",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_runtest_setup",
    "pytest_sessionfinish",
    "pytest_terminal_summary",
]


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test (dropped afterwards)."""
    reason = postgres_unreachable()
    if reason:
        pytest.skip(reason)  # "<service> is unreachable at host:port; ..."
    with temporary_postgres_database() as url:
        yield url
