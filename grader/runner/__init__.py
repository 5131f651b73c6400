"""Run untrusted student Python code in a sandboxed child process and report what was observed.

The runner knows nothing about exercises. See ``sandbox`` for the security model, ``child``
for the exit-status contract and ``channel`` for how the prelude's records travel.

Import chain is deliberately light (stdlib only; no celery/sqlalchemy/rich), and this
package's names load on first use: ``grader check`` starts its master process
(``grader.runner.spare``) before the rest of the runner is imported, so the master's
start-up overlaps those imports instead of following them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grader.runner.channel import Recorder
    from grader.runner.client import ForkServer, run_once
    from grader.runner.master import Master
    from grader.runner.model import (
        LIMIT_KINDS,
        Limits,
        Observations,
        PreludeError,
        RunnerError,
        RunRequest,
    )

#: Where each public name lives.
_HOMES = {
    "Recorder": "channel",
    "ForkServer": "client",
    "run_once": "client",
    "Master": "master",
    **dict.fromkeys(
        ("LIMIT_KINDS", "Limits", "Observations", "PreludeError", "RunnerError", "RunRequest"),
        "model",
    ),
}

__all__ = [
    "LIMIT_KINDS",
    "ForkServer",
    "Limits",
    "Master",
    "Observations",
    "PreludeError",
    "Recorder",
    "RunRequest",
    "RunnerError",
    "run_once",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:  # a submodule not imported yet: ``from grader.runner import host`` works
        raise AttributeError(f"module 'grader.runner' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"grader.runner.{home}"), name)
    globals()[name] = value
    return value
