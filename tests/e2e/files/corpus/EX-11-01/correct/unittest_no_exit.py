import sys
import unittest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


class Decisions(unittest.TestCase):
    policy = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)

    def check(self, error, n, retry, countdown, dead_letter):
        d = self.policy.decision(error, retries_so_far=n)
        self.assertIs(d.retry, retry)
        self.assertEqual(d.countdown_seconds, countdown)
        if countdown is None:
            self.assertIsNone(d.countdown_seconds)
        self.assertIs(d.dead_letter, dead_letter)

    def test_first(self):
        self.check(RetryableTaskError("t"), 0, True, 5, False)

    def test_second(self):
        self.check(RetryableTaskError("t"), 1, True, 10, False)

    def test_exhausted(self):
        self.check(RetryableTaskError("t"), 2, False, None, True)

    def test_permanent(self):
        self.check(ValueError("v"), 0, False, None, True)


print("RetryableTaskError 0 True 5 False")
print("RetryableTaskError 1 True 10 False")
print("RetryableTaskError 2 False None True")
print("ValueError 0 False None True")
program = unittest.main(exit=False, verbosity=0)
sys.exit(0 if program.result.wasSuccessful() else 1)
