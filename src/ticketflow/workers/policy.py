"""The bounded retry policy: a pure decision, so the delay table can be unit-tested.

This module imports neither Celery nor SQLAlchemy (not even for type checking): a student
probe that only needs the policy starts in milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass


class RetryableTaskError(RuntimeError):
    """A transient failure (a dependency is down or slow): waiting may fix it."""


@dataclass(frozen=True)
class RetryDecision:
    """What to do after a failed attempt. Exactly two decisions exist:

    * ``RetryDecision(retry=True, countdown_seconds=5, dead_letter=False)``: try again in
      5 seconds;
    * ``RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)``: stop and
      dead-letter the event.

    The constructor refuses every other combination (``retry=False, dead_letter=False``
    would drop the event silently; a countdown without a retry means nothing), so code
    that holds a ``RetryDecision`` never has to ask what a third shape would mean.
    """

    retry: bool
    countdown_seconds: int | None
    dead_letter: bool

    def __post_init__(self) -> None:
        if type(self.retry) is not bool or type(self.dead_letter) is not bool:
            raise TypeError("retry and dead_letter must be bools")
        if self.retry == self.dead_letter:
            raise ValueError(
                "a decision either retries or dead-letters: exactly one of retry and "
                f"dead_letter is True (got retry={self.retry}, dead_letter={self.dead_letter})"
            )
        if self.retry and self.countdown_seconds is None:
            raise ValueError("a retry needs its countdown_seconds")
        if self.dead_letter and self.countdown_seconds is not None:
            raise ValueError(
                f"a dead letter has no countdown: got countdown_seconds={self.countdown_seconds!r}"
            )


class BoundedRetryPolicy:
    """Retry ``RetryableTaskError`` with exponential backoff, at most ``max_retries`` times.

    ``retries_so_far`` counts retries that already happened (Celery's
    ``request.retries``): with ``max_retries=2`` the decisions for 0 and 1 retry, and the
    third failure (``retries_so_far == 2``) is dead-lettered. Any other exception is
    dead-lettered at once: waiting does not fix a malformed event or a broken invariant.
    """

    def __init__(self, *, max_retries: int = 3, base_delay_seconds: int = 5) -> None:
        for name, value in (
            ("max_retries", max_retries),
            ("base_delay_seconds", base_delay_seconds),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if max_retries < 0 or base_delay_seconds < 1:
            raise ValueError(
                "retry bounds must be non-negative and the delay positive: "
                f"got max_retries={max_retries}, base_delay_seconds={base_delay_seconds}"
            )
        self._max_retries = max_retries
        self._base_delay_seconds = base_delay_seconds

    @property
    def max_retries(self) -> int:
        return self._max_retries

    @property
    def base_delay_seconds(self) -> int:
        return self._base_delay_seconds

    def decision(self, error: BaseException, *, retries_so_far: int) -> RetryDecision:
        if retries_so_far < 0:
            raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
        if not isinstance(error, RetryableTaskError):
            return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
        if retries_so_far >= self._max_retries:
            return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)
        return RetryDecision(
            retry=True,
            countdown_seconds=self._base_delay_seconds * (2**retries_so_far),
            dead_letter=False,
        )

    def countdowns(self) -> tuple[int, ...]:
        """Every countdown this policy will ever ask for, in order (5, 10, 20 by default)."""
        return tuple(self._base_delay_seconds * 2**n for n in range(self._max_retries))

    def __repr__(self) -> str:
        return (
            f"BoundedRetryPolicy(max_retries={self._max_retries}, "
            f"base_delay_seconds={self._base_delay_seconds})"
        )
