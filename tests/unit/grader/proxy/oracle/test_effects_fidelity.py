"""Through the proxy and the oracle, every implementation does to the probe's database and
objects exactly what it does when called in-process (SQLite; PostgreSQL when reachable)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from grader.variants.effects import MUTANTS, TWINS
from tests.support.oracle import proxied
from tests.unit.grader.proxy.oracle.stories import STORIES, tell
from tests.unit.grader.variants.builds import built

IMPLEMENTATIONS = ("real", *TWINS, *MUTANTS)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param == "sqlite":
        yield "sqlite://"
    else:
        yield request.getfixturevalue("postgres_url")


def _through_oracle(name: str, story: str, url: str) -> dict[str, Any]:
    with proxied("effects", name) as apply:
        return tell(apply, story, url=url)


@pytest.mark.parametrize("story", STORIES)
def test_the_real_function_is_the_same_through_the_oracle(story: str, url: str) -> None:
    direct = tell(built("effects", "real"), story, url=url)
    assert _through_oracle("real", story, url) == direct


@pytest.mark.parametrize("story", STORIES)
@pytest.mark.parametrize("name", IMPLEMENTATIONS[1:])
def test_every_variant_is_the_same_through_the_oracle(name: str, story: str) -> None:
    """Same answers, operations, SQL and rows; only the construct a variant builds may be
    replaced by the real code's own (``insert(BusinessTask)`` becomes ticketflow's
    ``statements.BUSINESS_TASK_INSERT``: the probe sees the statement the real code uses)."""
    direct = tell(built("effects", name), story)
    proxied_story = _through_oracle(name, story, "sqlite://")
    for key in ("answers", "operations", "sql", "rows"):
        assert proxied_story[key] == direct[key], key
    assert [s[1] for s in proxied_story["statements"]] == [s[1] for s in direct["statements"]]


def test_the_crash_story_shows_what_ex_13_01_needs() -> None:
    told = _through_oracle("real", "crash", "sqlite://")
    assert told["answers"] == [("own exception", True), ("returned", True), ("returned", False)]
    assert told["rows"]["receipts"] == [("evt-crash", "ticket.assigned")]


@pytest.mark.parametrize("name", IMPLEMENTATIONS)
def test_the_business_task_insert_is_ticketflows_own_statement_in_every_run(name: str) -> None:
    """Issue 13: a probe that recognises the INSERT by ticketflow's statement or its table
    object must see the same thing on the real code and on every variant."""
    told = _through_oracle(name, "twice", "sqlite://")
    inserts = [s for s in told["statements"] if s[1] == "business_tasks" and s[0] == "Insert"]
    if name == "orm_effect":  # the ORM's flush builds its own INSERT on the same table
        assert inserts and all(s[1] == "business_tasks" for s in inserts)
    elif inserts:
        assert all(cached for _, _, cached in inserts), inserts
