"""apply_notification_once on real databases, including racing deliveries.

SQLite runs against a file (shared by threads and processes); PostgreSQL against a fresh
database that the ``postgres_url`` fixture creates and drops, skipping only when
PostgreSQL is unreachable.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from tests.support.db import counts, ready_engine
from tests.support.factories import make_envelope
from ticketflow.db.engine import create_engine_from_url
from ticketflow.notifications.dead_letters import SqlAlchemyDeadLetterSink
from ticketflow.notifications.effects import apply_notification_once
from ticketflow.notifications.going_further import going_further_apply_in_one_statement
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork

RACERS = 8

pytestmark = pytest.mark.integration


@pytest.fixture(params=["sqlite-file", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite-file":
        yield f"sqlite:///{tmp_path / 'race.db'}"
    else:
        yield request.getfixturevalue("postgres_url")


def test_true_then_false_and_one_row_each(database_url: str) -> None:
    engine = ready_engine(database_url)
    transaction = SqlAlchemyUnitOfWork(engine)
    envelope = make_envelope("evt-twice")
    try:
        assert [apply_notification_once(envelope, transaction) for _ in range(3)] == [
            True,
            False,
            False,
        ]
        assert counts(engine) == {
            "receipts": 1,
            "business_tasks": 1,
            "dead_letters": 0,
            "outbox": 0,
        }
    finally:
        engine.dispose()


def test_racing_threads_apply_exactly_once(database_url: str) -> None:
    engine = ready_engine(database_url)
    envelope = make_envelope("evt-race-threads")
    barrier = threading.Barrier(RACERS)
    results: list[bool] = []
    errors: list[BaseException] = []

    def deliver() -> None:
        transaction = SqlAlchemyUnitOfWork(engine)
        barrier.wait()
        try:
            results.append(apply_notification_once(envelope, transaction))
        except BaseException as error:  # surfaced below, with the others
            errors.append(error)

    threads = [threading.Thread(target=deliver) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert errors == []
        assert sorted(results) == [False] * (RACERS - 1) + [True]
        assert counts(engine, envelope.event_id)["receipts"] == 1
        assert counts(engine, envelope.event_id)["business_tasks"] == 1
    finally:
        engine.dispose()


def _deliver_in_process(
    url: str,
    event_id: str,
    barrier: multiprocessing.synchronize.Barrier,
    results: multiprocessing.queues.Queue[object],
) -> None:
    engine = create_engine_from_url(url)
    transaction = SqlAlchemyUnitOfWork(engine)
    barrier.wait()
    try:
        results.put(apply_notification_once(make_envelope(event_id), transaction))
    except Exception as error:
        results.put(repr(error))
    finally:
        engine.dispose()


def test_racing_processes_apply_exactly_once(database_url: str) -> None:
    ready_engine(database_url).dispose()
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(4)
    results: multiprocessing.queues.Queue[object] = context.Queue()
    processes = [
        context.Process(
            target=_deliver_in_process, args=(database_url, "evt-race-procs", barrier, results)
        )
        for _ in range(4)
    ]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    assert sorted(outcomes, key=repr) == [False, False, False, True]
    engine = create_engine_from_url(database_url)
    try:
        assert counts(engine, "evt-race-procs")["receipts"] == 1
        assert counts(engine, "evt-race-procs")["business_tasks"] == 1
    finally:
        engine.dispose()


def test_the_going_further_version_applies_once_in_one_statement_on_postgresql(
    postgres_url: str,
) -> None:
    engine = ready_engine(postgres_url)
    transaction = SqlAlchemyUnitOfWork(engine)
    statements: list[str] = []
    event.listen(
        engine, "before_cursor_execute", lambda _c, _cur, sql, *rest: statements.append(sql)
    )
    envelope = make_envelope("evt-one-statement")
    try:
        assert [going_further_apply_in_one_statement(envelope, transaction) for _ in "ab"] == [
            True,
            False,
        ]
        inserts = [sql for sql in statements if "INSERT" in sql.upper()]
        assert len(inserts) == 2 and all(sql.lstrip().upper().startswith("WITH") for sql in inserts)
        assert counts(engine, envelope.event_id)["receipts"] == 1
        assert counts(engine, envelope.event_id)["business_tasks"] == 1
    finally:
        engine.dispose()


def test_racing_dead_letters_of_one_failure_make_one_row(database_url: str) -> None:
    """The sink uses the receipts' technique: the unique key decides, every racer gets the
    winner's id, and nobody sees an error (PostgreSQL's transaction is never aborted)."""
    engine = ready_engine(database_url)
    barrier = threading.Barrier(RACERS)
    ids: list[str] = []
    errors: list[BaseException] = []

    def record() -> None:
        sink = SqlAlchemyDeadLetterSink(SqlAlchemyUnitOfWork(engine))
        barrier.wait()
        try:
            ids.append(
                sink(
                    event={"event_id": "evt-dl-race"},
                    reason="permanent_failure",
                    attempts=1,
                    error="down",
                )
            )
        except BaseException as error:  # surfaced below, with the others
            errors.append(error)

    threads = [threading.Thread(target=record) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        assert errors == []
        assert len(ids) == RACERS and len(set(ids)) == 1
        assert counts(engine, "evt-dl-race")["dead_letters"] == 1
    finally:
        engine.dispose()
