"""Hand-built inputs for the grader's pure layers (no processes)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from grader.runner import Observations

TABLE = (
    "RetryableTaskError 0 True 5 False\n"
    "RetryableTaskError 1 True 10 False\n"
    "RetryableTaskError 2 False None True\n"
    "ValueError 0 False None True\n"
)


def observations(
    *,
    exit_code: int | None = 0,
    stdout: str = "",
    stderr: str = "",
    records: Sequence[Mapping[str, Any]] = (),
    uncaught: Mapping[str, Any] | None = None,
    signal: int | None = None,
    timed_out: bool = False,
    limit_hit: str | None = None,
    wall_seconds: float = 0.05,
) -> Observations:
    return Observations(
        exit_code=exit_code,
        signal=signal,
        timed_out=timed_out,
        limit_hit=limit_hit,
        stdout=stdout,
        stderr=stderr,
        stdout_truncated=False,
        stderr_truncated=False,
        records=tuple(records),
        uncaught=uncaught,
        wall_seconds=wall_seconds,
        isolation="namespaces",
    )


def failed_run(kind: str = "AssertionError", message: str = "boom", line: int = 7) -> Observations:
    traceback = (
        f'Traceback (most recent call last):\n  File "probe.py", line {line}\n{kind}: {message}\n'
    )
    return observations(
        exit_code=1,
        stderr=traceback,
        uncaught={"type": kind, "message": message, "traceback": traceback, "line": line},
    )


def policy_call(
    error: str, retries: int, result: list[Any], *, max_retries: int = 2
) -> dict[str, Any]:
    return {
        "kind": "call",
        "function": "BoundedRetryPolicy.decision",
        "max_retries": max_retries,
        "base_delay_seconds": 5,
        "error_type": error,
        "retries_so_far": retries,
        "result": result,
    }


POLICY_CALLS = (
    policy_call("RetryableTaskError", 0, [True, 5, False]),
    policy_call("RetryableTaskError", 1, [True, 10, False]),
    policy_call("RetryableTaskError", 2, [False, None, True]),
    policy_call("ValueError", 0, [False, None, True]),
)


def apply_call(
    result: Any = None, *, event_id: str = "evt-1", raised: str | None = None
) -> dict[str, Any]:
    call: dict[str, Any] = {
        "kind": "call",
        "function": "apply_notification_once",
        "event_id": event_id,
        "envelope_type": "EventEnvelope",
        "transaction_type": "SqlAlchemyUnitOfWork",
    }
    if raised is None:
        call["result"] = result
    else:
        call["raised"] = raised
    return call
