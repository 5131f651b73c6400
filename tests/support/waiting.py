"""Waiting on the machine with a deadline, never on a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

T = TypeVar("T", bound=Hashable)


def lasting(listing: Callable[[], Iterable[T]], *, within: float, every: float = 1.0) -> set[T]:
    """What ``listing()`` lists now and still lists ``within`` s later (waited for only while
    there is something). Things that appear meanwhile do not count: beside a second session
    of the suite on one machine, its short-lived leftovers go, while one of ours stays."""
    left = set(listing())
    deadline = time.monotonic() + within
    while left and time.monotonic() < deadline:
        time.sleep(every)
        left &= set(listing())
    return left
