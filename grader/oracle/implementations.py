"""Which implementation answers a run: the real ticketflow function, or a variant.

Only the grader's process imports ``grader.variants``; the name chosen for a run stays
here (``grading`` shuffles the runs and keeps the map).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from grader.oracle.link import Answer

#: The real implementation of each target (never a patched copy: the grader's process is
#: never instrumented).
REAL = "real"


def implementation(target: str, name: str) -> Callable[..., Any]:
    if target == "policy":
        from grader.variants import policy as variants
        from ticketflow.workers.policy import BoundedRetryPolicy

        real: Callable[..., Any] = BoundedRetryPolicy.__dict__["decision"]
    elif target == "effects":
        from grader.variants import effects as variants  # type: ignore[no-redef]
        from ticketflow.notifications import effects

        real = effects.apply_notification_once
    else:
        raise ValueError(f"unknown harness target {target!r}")
    if name == REAL:
        return real
    if name not in (*variants.TWINS, *variants.MUTANTS):
        raise ValueError(f"{name!r} is not a twin or mutant of {target!r}")
    found: Callable[..., Any] = getattr(variants, name)
    return found


def answer_for(target: str, name: str) -> Answer:
    """What the oracle runs for one call of the probe."""
    function = implementation(target, name)
    if target == "policy":
        from grader.oracle.policy import policy_answer

        answer: Answer = policy_answer(function)
        return answer
    from grader.oracle.effects import effects_answer

    answer = effects_answer(function)
    return answer


def warm_up(target: str) -> None:
    """Import what the oracle of ``target`` needs (called on a thread while the fork server
    starts, so the first call of the real run does not wait for SQLAlchemy). Quiet: a
    failure here shows up, as an internal error, when the first oracle starts."""
    try:
        answer_for(target, REAL)
        if target == "effects":
            from grader.oracle.statements import catalogue

            catalogue()
    except Exception:
        return
