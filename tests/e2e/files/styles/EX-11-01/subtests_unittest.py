import unittest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError

ROWS = [
    (RetryableTaskError("temporary"), 0, (True, 5, False)),
    (RetryableTaskError("temporary"), 1, (True, 10, False)),
    (RetryableTaskError("temporary"), 2, (False, None, True)),
    (ValueError("invalid"), 0, (False, None, True)),
]


class PolicyTable(unittest.TestCase):
    def test_table(self):
        policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)
        for error, n, expected in ROWS:
            with self.subTest(error=type(error).__name__, n=n):
                d = policy.decision(error, retries_so_far=n)
                self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), expected)
                if not expected[0]:
                    self.assertIsNone(d.countdown_seconds)
                print(type(error).__name__, n, d.retry, d.countdown_seconds, d.dead_letter)


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    raise SystemExit(0 if result.wasSuccessful() else 1)
