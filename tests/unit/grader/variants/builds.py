"""Stand-ins as a run gets them: salted by codegen, loaded by the harness with the real globals."""

from __future__ import annotations

import random
from typing import Any

from grader.codegen import stand_in_code
from grader.harness.standin import stand_in
from ticketflow.notifications import effects
from ticketflow.workers.policy import BoundedRetryPolicy


def built(target: str, name: str, seed: int = 0) -> Any:
    """``name`` compiled exactly as for a run, installed like the harness installs it."""
    if target == "policy":
        real = BoundedRetryPolicy.__dict__["decision"]
    else:
        real = effects.__dict__["apply_notification_once"]
    if name == "real":
        return real
    return stand_in(stand_in_code(target, name, random.Random(seed)), like=real)
