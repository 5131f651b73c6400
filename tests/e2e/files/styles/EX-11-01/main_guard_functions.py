"""Functions and a main() behind the __main__ guard."""
from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


def decide(policy, error, retries):
    d = policy.decision(error, retries_so_far=retries)
    return d.retry, d.countdown_seconds, d.dead_letter


def main() -> int:
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
    expected = {
        ("RetryableTaskError", 0): (True, 5, False),
        ("RetryableTaskError", 1): (True, 10, False),
        ("RetryableTaskError", 2): (False, None, True),
        ("ValueError", 0): (False, None, True),
    }
    for (kind, n), want in expected.items():
        error = RetryableTaskError("temporary") if kind == "RetryableTaskError" else ValueError("bad")
        got = decide(policy, error, n)
        if got != want:
            print(f"MISMATCH {kind} {n}: {got} != {want}")
            return 1
        print(kind, n, *got)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
