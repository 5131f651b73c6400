"""Stand-ins for ``BoundedRetryPolicy.decision`` (EX-11-01).

TWINS behave exactly like the real method (for every int ``retries_so_far``, either error
kind, any bounds) but are written differently; a probe must pass on them. MUTANTS are copies
of the real method with one change each (its catalogue description ``mutant.<name>`` says
which; ``tests/unit/grader/variants/test_shape.py`` holds them to it), and each differs from
the real method on at least one of the four cases EX-11-01 requires. (Linear
backoff ``base * (n + 1)`` is NOT a mutant: for n = 0 and 1 it gives 5 and 10, exactly like
``base * 2**n``, so no probe of the required cases could tell it apart.)

Four mutants return a decision ``RetryDecision``'s constructor refuses (``retry=False,
dead_letter=False``; a countdown of 0 on giving up): the wrong policies the exercise asks a
probe to catch field by field. They build it with ``_refused``, past that check.
"""

from __future__ import annotations

from typing import Any

from ticketflow.workers.policy import RetryableTaskError, RetryDecision

TWINS = ("loop_backoff", "shift_backoff")
MUTANTS = (
    "constant_delay",
    "off_by_one_bound",
    "gives_up_early",
    "retries_any_error",
    "exponent_off_by_one",
    "never_dead_letters",
    "first_retry_immediate",
    "zero_countdown_on_give_up",
    "exhausted_not_dead_lettered",
    "drops_permanent_errors",
)


class _Refusal:
    """``_refused(retry=..., countdown_seconds=..., dead_letter=...)``: a ``RetryDecision``
    built past its constructor's check (not a function, so not a stand-in itself)."""

    def __call__(self, **fields: object) -> RetryDecision:
        decision = object.__new__(RetryDecision)
        for name, value in fields.items():
            object.__setattr__(decision, name, value)
        return decision


_refused = _Refusal()


# -- twins ---------------------------------------------------------------------------------
def loop_backoff(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    """One combined condition; the countdown doubled in a loop instead of ``2**n``."""
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if isinstance(error, RetryableTaskError) and not retries_so_far >= self._max_retries:
        countdown = self._base_delay_seconds
        if isinstance(retries_so_far, int) and retries_so_far < 64:
            doublings = 0
            while doublings < retries_so_far:
                countdown = countdown * 2
                doublings += 1
        else:
            countdown = countdown * 2**retries_so_far
        return RetryDecision(retry=True, countdown_seconds=countdown, dead_letter=False)
    return RetryDecision(retry=False, countdown_seconds=None, dead_letter=True)


def shift_backoff(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    """One shared give-up decision, positional arguments, a bit shift instead of a power."""
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    give_up = RetryDecision(False, None, True)
    if not isinstance(error, RetryableTaskError):
        return give_up
    if retries_so_far >= self._max_retries:
        return give_up
    base = self._base_delay_seconds
    if type(base) is int and type(retries_so_far) is int:
        return RetryDecision(True, base << retries_so_far, False)
    return RetryDecision(True, base * (2**retries_so_far), False)


# -- mutants -------------------------------------------------------------------------------
def constant_delay(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds)


def off_by_one_bound(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far > self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def gives_up_early(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far + 1 >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def retries_any_error(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if retries_so_far >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def exponent_off_by_one(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds * (2 ** (retries_so_far + 1)))


def never_dead_letters(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return _refused(retry=False, countdown_seconds=None, dead_letter=False)
    if retries_so_far >= self._max_retries:
        return _refused(retry=False, countdown_seconds=None, dead_letter=False)
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def first_retry_immediate(self: Any, error: BaseException, *, retries_so_far: int) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(
        self._base_delay_seconds * (2**retries_so_far) if retries_so_far else 0
    )


def zero_countdown_on_give_up(
    self: Any, error: BaseException, *, retries_so_far: int
) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return _refused(retry=False, countdown_seconds=0, dead_letter=True)
    if retries_so_far >= self._max_retries:
        return _refused(retry=False, countdown_seconds=0, dead_letter=True)
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def exhausted_not_dead_lettered(
    self: Any, error: BaseException, *, retries_so_far: int
) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return RetryDecision.give_up()
    if retries_so_far >= self._max_retries:
        return _refused(retry=False, countdown_seconds=None, dead_letter=False)
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))


def drops_permanent_errors(
    self: Any, error: BaseException, *, retries_so_far: int
) -> RetryDecision:
    if retries_so_far < 0:
        raise ValueError(f"retries_so_far must be >= 0, got {retries_so_far}")
    if not isinstance(error, RetryableTaskError):
        return _refused(retry=False, countdown_seconds=None, dead_letter=False)
    if retries_so_far >= self._max_retries:
        return RetryDecision.give_up()
    return RetryDecision.retry_in(self._base_delay_seconds * (2**retries_so_far))
