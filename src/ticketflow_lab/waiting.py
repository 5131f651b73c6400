"""Bounded polling: wait for a condition, never for a fixed time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class WaitTimeout(TimeoutError):
    """A condition did not become true within its bound."""

    def __init__(self, what: str, seconds: float, last: object = None) -> None:
        detail = f" (last seen: {last})" if last is not None else ""
        super().__init__(f"timed out after {seconds:.1f}s waiting for {what}{detail}")
        self.what = what
        self.seconds = seconds


def wait_until(
    probe: Callable[[], T | None],
    *,
    timeout: float,
    what: str,
    interval: float = 0.05,
    describe: Callable[[], object] | None = None,
) -> T:
    """Call ``probe`` until it returns something other than None/False; return that."""
    deadline = time.monotonic() + timeout
    while True:
        result = probe()
        if result is not None and result is not False:
            return result
        if time.monotonic() >= deadline:
            raise WaitTimeout(what, timeout, describe() if describe else None)
        time.sleep(interval)
