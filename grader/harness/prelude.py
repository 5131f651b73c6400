"""The prelude the runner calls in the child: ``install(recorder, target=..., variant=...)``.

``target`` names what to instrument (``policy`` or ``effects``); ``variant`` is ``real``
or a mutant's name. Both runs install the same kind of wrapper, so the real run and the
mutant runs differ only in behaviour.
"""

from __future__ import annotations

from typing import Any


def install(recorder: Any, *, target: str, variant: str) -> None:
    if target == "policy":
        from grader.harness.policy import instrument_policy

        instrument_policy(recorder, variant)
    elif target == "effects":
        from grader.harness.effects import instrument_effects

        instrument_effects(recorder, variant)
    else:
        raise ValueError(f"unknown harness target {target!r}")
