"""EX-11-01 on the oracle's side: the call's facts in, a ``RetryDecision``'s fields out.

The implementation gets a ``BoundedRetryPolicy`` carrying the student's bounds as they are
(no validation: the student's policy object passed its own constructor, or not), a
``RetryableTaskError`` or another exception, and ``retries_so_far``. Values are exact JSON
numbers (the proxy refuses anything else). One guard protects the grader: when the retry
count is an int above ``MAX_EXPONENT`` and the bound is not at most that (a larger int, an
infinite or NaN float), an implementation could be asked for ``2**n`` with a huge ``n``,
which holds a CPU for minutes; that call raises ``OverflowError`` in every run alike.
"""

from __future__ import annotations

from typing import Any

from grader.proxy.oracle.link import ConversationBroken, Link, OracleBug

MAX_EXPONENT = 4000
NUMBERS = (int, float, bool)


class OtherError(Exception):
    """Stands for any error that is not a ``RetryableTaskError``."""


def policy_answer(implementation: Any) -> Any:
    from ticketflow.workers.policy import BoundedRetryPolicy, RetryableTaskError, RetryDecision

    def answer(facts: Any, link: Link) -> Any:
        if type(facts) is not dict or set(facts) != {
            "max_retries",
            "base_delay_seconds",
            "retryable",
            "retries_so_far",
        }:
            raise ConversationBroken("malformed policy call")
        bound, base = facts["max_retries"], facts["base_delay_seconds"]
        retries, retryable = facts["retries_so_far"], facts["retryable"]
        numbers = (bound, base, retries)
        if any(type(v) not in NUMBERS for v in numbers) or type(retryable) is not bool:
            raise ConversationBroken("malformed policy call")
        if type(retries) is int and retries > MAX_EXPONENT and not bound <= MAX_EXPONENT:
            raise OverflowError(f"the grader computes delays for at most {MAX_EXPONENT} retries")
        policy = object.__new__(BoundedRetryPolicy)
        policy.__dict__.update(_max_retries=bound, _base_delay_seconds=base)
        error = RetryableTaskError("retryable") if retryable else OtherError("permanent")
        result = implementation(policy, error, retries_so_far=retries)
        if type(result) is not RetryDecision:
            raise OracleBug(f"the policy returned a {type(result).__name__}")
        return [result.retry, result.countdown_seconds, result.dead_letter]

    return answer
