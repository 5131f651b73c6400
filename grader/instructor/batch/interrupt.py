"""Ctrl-C and SIGTERM during ``grader grade``: the first one asks the batch to stop, the
second one kills it at once.

The first signal only sets a flag: the dispatcher stops handing out students, lets the
runs in flight finish for a short grace and then cancels them (their worker processes are
killed; what they recorded is whole rows, each in its own transaction). The second signal
calls ``kill`` (the dispatcher's "kill every worker now") and raises ``Killed``, which
unwinds the master immediately. Either way nothing recorded is lost, and a re-run grades
only what is missing: the gradebook's unique key makes recording idempotent.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: How long the runs in flight may go on after the first signal before they are cancelled.
GRACE_SECONDS = 2.0


class Killed(BaseException):
    """The second signal: stop now (a BaseException, so no ``except Exception`` keeps it)."""


class StopRequest:
    """Set by the first signal; ``kill`` is what the second one runs before ``Killed``."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.kill: Callable[[], None] = lambda: None
        #: Said once, on the first signal (what happens now, and that a second one kills).
        self.announce: Callable[[], None] = lambda: None

    @property
    def requested(self) -> bool:
        return self._event.is_set()

    def request(self) -> None:
        self._event.set()


@contextmanager
def stop_on_signals() -> Iterator[StopRequest]:
    """Within the block, SIGINT/SIGTERM set the request (first) or kill (second). Only the
    main thread can hold signal handlers; elsewhere the block runs without them."""
    stop = StopRequest()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(_signum: int, _frame: FrameType | None) -> None:
        if stop.requested:
            stop.kill()
            raise Killed
        stop.request()
        stop.announce()

    previous = {number: signal.signal(number, handler) for number in SIGNALS}
    try:
        yield stop
    finally:
        for number, old in previous.items():
            signal.signal(number, old)
