"""The prelude the runner calls in the child: ``install(recorder, target=...)``.

``target`` names what to instrument (``policy`` or ``effects``). Every run installs the
same recording proxy, talking to the grader's oracle over the descriptor the runner passed
(``PASSED_FD``): which implementation answers (the real one or another) is decided on the
grader's side and is never sent here, so runs differ only in behaviour.
"""

from __future__ import annotations

from typing import Any

from grader.runner.passfd import PASSED_FD


def install(recorder: Any, *, target: str) -> None:
    if target == "policy":
        from grader.harness.policy import instrument_policy

        instrument_policy(recorder, PASSED_FD)
    elif target == "effects":
        from grader.harness.effects import instrument_effects

        instrument_effects(recorder, PASSED_FD)
    else:
        raise ValueError(f"unknown harness target {target!r}")
