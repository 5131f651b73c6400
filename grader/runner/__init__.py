"""Run untrusted student Python code in a sandboxed child process and report what was observed.

The runner knows nothing about exercises. See ``sandbox`` for the security model, ``child``
for the exit-status contract and ``channel`` for how the prelude's records travel.

Import chain is deliberately light (stdlib only; no celery/sqlalchemy/rich).
"""

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
