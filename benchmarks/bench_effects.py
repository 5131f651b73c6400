"""Throughput of apply_notification_once (events/s, 20% duplicates), one process.

    python benchmarks/bench_effects.py                 # in-memory SQLite and local PostgreSQL
    python benchmarks/bench_effects.py --events 5000 --only sqlite

Targets (issue #2): >= 5,000 events/s on in-memory SQLite, >= 1,000 events/s on PostgreSQL.
On PostgreSQL it also runs the "going further" version
(``ticketflow.notifications.going_further``: receipt and effect in one statement) on the
same stream, side by side, and prints the ratio. PostgreSQL runs in a throwaway database
that is dropped afterwards; it is skipped (and says so) when unreachable.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.db import counts, ready_engine
from tests.support.services import postgres_unreachable, temporary_postgres_database
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications.effects import apply_notification_once
from ticketflow.notifications.going_further import going_further_apply_in_one_statement
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork


def workload(events: int, duplicate_ratio: float, seed: int = 7) -> list[EventEnvelope]:
    rng = random.Random(seed)
    unique = int(events * (1 - duplicate_ratio))
    envelopes = [EventEnvelope(f"evt-{n}", "ticket.assigned", {"n": n}) for n in range(unique)]
    stream = envelopes + [rng.choice(envelopes) for _ in range(events - unique)]
    rng.shuffle(stream)
    return stream


Apply = Callable[[EventEnvelope, SqlAlchemyUnitOfWork], bool]


def measure(
    url: str, stream: list[EventEnvelope], apply: Apply = apply_notification_once
) -> tuple[float, int]:
    engine = ready_engine(url)
    transaction = SqlAlchemyUnitOfWork(engine)
    for envelope in stream[:50]:  # warm the connection pool and statement caches
        apply(EventEnvelope("warm-" + envelope.event_id, "w", {}), transaction)
    started = time.perf_counter()
    applied = sum(apply(envelope, transaction) for envelope in stream)
    elapsed = time.perf_counter() - started
    rows = counts(engine)
    engine.dispose()
    expected_unique = len({e.event_id for e in stream})
    assert applied == expected_unique, (applied, expected_unique)
    assert rows["receipts"] == rows["business_tasks"] == expected_unique + 50
    return len(stream) / elapsed, applied


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--duplicates", type=float, default=0.2)
    parser.add_argument("--only", choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    stream = workload(args.events, args.duplicates)
    print(f"{args.events} events, {args.duplicates:.0%} duplicates, one process")
    if args.only in (None, "sqlite"):
        rate, applied = measure("sqlite://", stream)
        print(f"in-memory SQLite : {rate:8.0f} events/s  (applied {applied}; target >= 5000)")
    if args.only in (None, "postgresql"):
        reason = postgres_unreachable()
        if reason:
            print(f"PostgreSQL       : skipped — {reason}")
        else:
            with temporary_postgres_database("tf_bench") as url:
                rate, applied = measure(url, stream)
            with temporary_postgres_database("tf_bench") as url:
                one, one_applied = measure(url, stream, going_further_apply_in_one_statement)
            print(f"PostgreSQL       : {rate:8.0f} events/s  (applied {applied}; target >= 1000)")
            print(
                f"  going further  : {one:8.0f} events/s  (applied {one_applied}; one statement,"
                f" {one / rate:.2f}x the portable version)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
