"""The probe's proxy talking to an oracle, both in the test's process (two threads)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from grader.proxy.child.conversation import Conversation
from grader.proxy.child.effects import applying
from grader.proxy.child.policy import asking
from grader.proxy.child.statements import rebuilders
from grader.proxy.oracle.session import Oracle, Outcome
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.workers.policy import RetryableTaskError, RetryDecision


@contextmanager
def proxied(target: str, name: str, outcome: list[Outcome] | None = None) -> Iterator[Any]:
    """The function a probe calls in a run answered by ``name`` ("real", a twin, a mutant).

    For ``policy`` it is the unbound ``decision(self, error, *, retries_so_far)``. The
    conversation must end cleanly (no broken frame, no grader bug) unless ``outcome`` is
    given to collect how it ended.
    """
    oracle = Oracle(target, name)
    ended: Outcome | None = None
    try:
        proxy: Callable[..., Any]
        if target == "policy":
            proxy = asking(Conversation(oracle.student_fd), RetryableTaskError, RetryDecision)
        else:
            proxy = applying(Conversation(oracle.student_fd, rebuilders()), EventEnvelope)
        yield proxy
    finally:
        ended = oracle.close()
    if outcome is not None:
        outcome.append(ended)
    else:
        assert ended.broken is None and ended.bug is None, ended
