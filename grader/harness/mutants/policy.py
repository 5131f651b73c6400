"""Wrong ``BoundedRetryPolicy.decision`` variants for EX-11-01.

Each runs with ``ticketflow.workers.policy``'s globals (see ``disguise``). Every one of
them differs from the real policy on at least one of the four cases EX-11-01 requires.
(Linear backoff ``base * (n + 1)`` is NOT here: for n = 0 and 1 it gives 5 and 10, exactly
like ``base * 2**n``, so no probe of the required cases could tell it apart.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ticketflow.workers.policy import RetryableTaskError, RetryDecision


def constant_delay(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    if retries_so_far >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(retry=True, countdown_seconds=self._base_delay_seconds, dead_letter=False)


def off_by_one_bound(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    if retries_so_far > self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
        dead_letter=False,
    )


def gives_up_early(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    if retries_so_far + 1 >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
        dead_letter=False,
    )


def retries_any_error(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if retries_so_far >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
        dead_letter=False,
    )


def exponent_off_by_one(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    if retries_so_far >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2 ** (retries_so_far + 1)),
        dead_letter=False,
    )


def never_dead_letters(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=False)
    if retries_so_far >= self._max_retries:
        return RetryDecision(retry=False, countdown_seconds=None, dead_letter=False)
    return RetryDecision(
        retry=True,
        countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
        dead_letter=False,
    )


POLICY_MUTANTS: dict[str, Callable[..., Any]] = {
    "constant_delay": constant_delay,
    "off_by_one_bound": off_by_one_bound,
    "gives_up_early": gives_up_early,
    "retries_any_error": retries_any_error,
    "exponent_off_by_one": exponent_off_by_one,
    "never_dead_letters": never_dead_letters,
}
