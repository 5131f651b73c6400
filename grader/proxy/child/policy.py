"""EX-11-01: ``BoundedRetryPolicy.decision`` becomes a recording proxy to the oracle.

The proxy reads the call's facts the way the real method would (the policy's bounds, whether
the error is a ``RetryableTaskError``, ``retries_so_far``), sends them, and builds the
``RetryDecision`` from the oracle's answer, or raises the exception it names. The
implementation itself (whichever answers the run) never enters this process.

A wrong implementation may answer with a decision ``RetryDecision``'s constructor refuses
(for example ``retry=False, dead_letter=False``: the exercise asks a probe to check every
field). So the proxy builds every answer, the real code's too, past that check
(``unchecked_decision``): the same way in every run.
"""

from __future__ import annotations

from typing import Any, TypeVar

from grader.proxy.child.conversation import Channel, Conversation
from grader.proxy.child.describe import exact_int, instance_fields, plain, type_name
from grader.proxy.child.disguise import disguise

NUMBERS = (int, float, bool)
Decision = TypeVar("Decision")


def instrument_policy(recorder: Any, channel: Channel, *, pure: bool = False) -> None:
    from ticketflow.workers import policy as module

    cls = module.BoundedRetryPolicy
    real = cls.__dict__["decision"]
    conversation = Conversation(channel, pure=pure)
    ask = asking(conversation, module.RetryableTaskError, module.RetryDecision)
    wrapper = _recording_decision(ask, recorder.record, cls, module.RetryDecision)
    cls.decision = disguise(wrapper, like=real)  # type: ignore[method-assign]


def asking(conversation: Conversation, retryable: type, decision_cls: type) -> Any:
    """The proxy's implementation: facts out, ``RetryDecision`` (or an exception) back."""
    call, name_of = conversation.call, type_name

    def number(value: object, what: str) -> object:
        if type(value) not in NUMBERS:
            raise TypeError(f"{what} must be an int, not {name_of(value)}")
        return value

    def decision(self: Any, error: BaseException, *, retries_so_far: int) -> Any:
        facts = {
            "retries_so_far": number(retries_so_far, "retries_so_far"),
            "retryable": isinstance(error, retryable),
            "max_retries": number(self._max_retries, "max_retries"),
            "base_delay_seconds": number(self._base_delay_seconds, "base_delay_seconds"),
        }
        answer = call(facts)
        if type(answer) is not list or len(answer) != 3:
            raise RuntimeError("the grader sent a malformed decision")
        retry, countdown, dead_letter = answer
        return build(decision_cls, retry, countdown, dead_letter)

    build = unchecked_decision
    return decision


def unchecked_decision(
    decision_cls: type[Decision], retry: object, countdown_seconds: object, dead_letter: object
) -> Decision:
    """A ``decision_cls`` (``RetryDecision``) holding these fields, built past the consistency
    check of its constructor (a wrong implementation may answer with a contradiction)."""
    decision = object.__new__(decision_cls)
    object.__setattr__(decision, "retry", retry)
    object.__setattr__(decision, "countdown_seconds", countdown_seconds)
    object.__setattr__(decision, "dead_letter", dead_letter)
    return decision


def _recording_decision(impl: Any, record: Any, policy_cls: type, decision_cls: type) -> Any:
    """The wrapper, built so it needs nothing but its closure (it gets ticketflow's globals).

    It records its OWN view: the policy's bounds from the instance ``__dict__`` (only for
    an exact ``BoundedRetryPolicy``), ``retries_so_far`` only as an exact int, the answer's
    fields only from an exact ``RetryDecision`` returned by the implementation.
    """
    describe, as_int, name_of, fields = plain, exact_int, type_name, instance_fields

    def decision(self: Any, error: BaseException, *, retries_so_far: int) -> Any:
        bounds = fields(self) if type(self) is policy_cls else {}
        facts = {
            "function": "BoundedRetryPolicy.decision",
            "policy_type": name_of(self),
            "max_retries": as_int(bounds.get("_max_retries")),
            "base_delay_seconds": as_int(bounds.get("_base_delay_seconds")),
            "error_type": name_of(error),
            "retries_so_far": as_int(retries_so_far),
        }
        try:
            result = impl(self, error, retries_so_far=retries_so_far)
        except BaseException as exc:
            record("call", raised=name_of(exc), **facts)
            raise
        answer = fields(result) if type(result) is decision_cls else {}
        record(
            "call",
            result=[
                describe(answer.get("retry")),
                describe(answer.get("countdown_seconds")),
                describe(answer.get("dead_letter")),
            ],
            result_type=name_of(result),
            **facts,
        )
        return result

    return decision
