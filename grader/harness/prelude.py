"""The prelude the runner calls in the child: ``install(recorder, target=..., code=...)``.

``target`` names what to instrument (``policy`` or ``effects``); ``code`` is empty for the
run on the real implementation, else the bytecode of the stand-in to run instead (see
``grader.codegen``). Every run installs the same recording wrapper, so runs differ only in
the behaviour behind it.
"""

from __future__ import annotations

from typing import Any


def install(recorder: Any, *, target: str, code: str) -> None:
    if target == "policy":
        from grader.harness.policy import instrument_policy

        instrument_policy(recorder, code)
    elif target == "effects":
        from grader.harness.effects import instrument_effects

        instrument_effects(recorder, code)
    else:
        raise ValueError(f"unknown harness target {target!r}")
