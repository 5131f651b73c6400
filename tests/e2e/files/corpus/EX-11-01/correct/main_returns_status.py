"""Collects every failure, prints them, and exits 1 if there was any."""

import sys

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


def main() -> int:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    wrong = []
    for error, n, expected in (
        (RetryableTaskError("temporary"), 0, (True, 5, False)),
        (RetryableTaskError("temporary"), 1, (True, 10, False)),
        (RetryableTaskError("temporary"), 2, (False, None, True)),
        (ValueError("invalid"), 0, (False, None, True)),
    ):
        d = policy.decision(error, retries_so_far=n)
        row = (d.retry, d.countdown_seconds, d.dead_letter)
        print(type(error).__name__, n, *row)
        if row != expected:
            wrong.append((type(error).__name__, n, row, expected))
    for problem in wrong:
        print("WRONG:", *problem, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
