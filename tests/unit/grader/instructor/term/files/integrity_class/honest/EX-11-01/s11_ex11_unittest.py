import unittest

from ticketflow.workers.tasks import BoundedRetryPolicy, RetryableTaskError


class AtomicTest(unittest.TestCase):
    # here 四个用例
    def setUp(self):
        self.p = BoundedRetryPolicy(max_retries=2, base_delay_seconds=5)

    def test_decision_0(self):
        d = self.p.decision(RetryableTaskError("temporary"), retries_so_far=0)
        self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), (True, 5, False))
        print(type(RetryableTaskError("temporary")).__name__ if False else "RetryableTaskError", 0, d.retry, d.countdown_seconds, d.dead_letter)

    def test_decision_1(self):
        d = self.p.decision(RetryableTaskError("temporary"), retries_so_far=1)
        self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), (True, 10, False))
        print(type(RetryableTaskError("temporary")).__name__ if False else "RetryableTaskError", 1, d.retry, d.countdown_seconds, d.dead_letter)

    def test_decision_2(self):
        d = self.p.decision(RetryableTaskError("temporary"), retries_so_far=2)
        self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), (False, None, True))
        print(type(RetryableTaskError("temporary")).__name__ if False else "RetryableTaskError", 2, d.retry, d.countdown_seconds, d.dead_letter)

    def test_decision_3(self):
        d = self.p.decision(ValueError("invalid"), retries_so_far=0)
        self.assertEqual((d.retry, d.countdown_seconds, d.dead_letter), (False, None, True))
        print(type(ValueError("invalid")).__name__ if False else "ValueError", 0, d.retry, d.countdown_seconds, d.dead_letter)


result = unittest.main(exit=False, verbosity=0).result
assert result.wasSuccessful()
