"""EX-11-01 as a unittest suite; the table is printed first."""

import unittest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

POLICY = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
CASES = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]


def decide(error, n):
    d = POLICY.decision(error, retries_so_far=n)
    return d.retry, d.countdown_seconds, d.dead_letter


class PolicyTest(unittest.TestCase):
    def test_table(self):
        for error, n, expected in CASES:
            with self.subTest(error=type(error).__name__, n=n):
                self.assertEqual(decide(error, n), expected)

    def test_give_up_has_no_countdown(self):
        self.assertIsNone(decide(RetryableTaskError("t"), 2)[1])
        self.assertIsNone(decide(ValueError("v"), 0)[1])


if __name__ == "__main__":
    for error, n, _ in CASES:
        print(type(error).__name__, n, *decide(error, n))
    unittest.main()
