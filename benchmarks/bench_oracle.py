"""How long one call through the proxy and the oracle takes, per implementation.

    python benchmarks/bench_oracle.py            # 300 calls per implementation

Every run takes the same path (proxy -> socket -> oracle thread), so the time of a call
should say nothing about which implementation answered it beyond what its behaviour does
(an implementation that performs more operations on the probe's objects takes more round
trips). Prints the median and the spread of each implementation's per-call time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader.variants import effects as effect_variants
from grader.variants import policy as policy_variants
from tests.support.db import ready_engine
from tests.support.factories import make_envelope
from tests.support.oracle import proxied
from ticketflow.notifications.unit_of_work import SqlAlchemyUnitOfWork
from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError


def policy_times(name: str, calls: int) -> list[float]:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    times = []
    with proxied("policy", name) as decide:
        for n in range(calls):
            start = time.perf_counter()
            decide(policy, RetryableTaskError("t"), retries_so_far=n % 4)
            times.append(time.perf_counter() - start)
    return times


def effects_times(name: str, calls: int) -> list[float]:
    transaction = SqlAlchemyUnitOfWork(ready_engine())
    times = []
    with proxied("effects", name) as apply:
        for n in range(calls):
            envelope = make_envelope(f"evt-{n // 2}")  # each event delivered twice
            start = time.perf_counter()
            apply(envelope, transaction)
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    for target, names, measure in (
        ("policy", ("real", *policy_variants.TWINS, *policy_variants.MUTANTS), policy_times),
        ("effects", ("real", *effect_variants.TWINS, *effect_variants.MUTANTS), effects_times),
    ):
        for name in names:
            times = measure(name, args.calls)
            median = statistics.median(times) * 1e6
            spread = statistics.quantiles(times, n=10)
            low, high = spread[0] * 1e6, spread[-1] * 1e6
            print(f"{target:8} {name:26} median {median:7.0f} us  p10 {low:7.0f}  p90 {high:7.0f}")


if __name__ == "__main__":
    main()
