"""Instrument any plain function under test (a target without a dedicated wrapper).

The function becomes a recording proxy to the grader's oracle: the call's arguments go
there (plain values as themselves, the student's objects as handles the oracle operates on
through the conversation), and its value or exception comes back. Each call is recorded as
``{"function": <qualified name>, "args": [...], "kwargs": {...}, "result": ...}``, every
value described by ``describe.plain`` (exact built-in scalars as themselves, anything else
as its type name), so the records never call the student's code. Works for a module-level
function (``"name"``) or a method (``"Class.name"``).
"""

from __future__ import annotations

import importlib
from typing import Any

from grader.proxy.child.conversation import Channel, Conversation
from grader.proxy.child.describe import plain, type_name
from grader.proxy.child.disguise import disguise


def instrument_function(
    recorder: Any, channel: Channel, *, module: str, function: str, pure: bool = False
) -> None:
    owner: Any = importlib.import_module(module)
    *path, name = function.split(".")
    for part in path:
        owner = getattr(owner, part)
    real = owner.__dict__[name]
    call = Conversation(channel, pure=pure).call

    def asked(*args: Any, **kwargs: Any) -> Any:
        return call({"args": list(args), "kwargs": dict(kwargs)})

    wrapper = _recording(asked, recorder.record, function)
    setattr(owner, name, disguise(wrapper, like=real))


def _recording(impl: Any, record: Any, qualified: str) -> Any:
    describe, name_of = plain, type_name

    def recorded(*args: Any, **kwargs: Any) -> Any:
        facts = {
            "function": qualified,
            "args": [describe(value) for value in args],
            "kwargs": {str(k): describe(v) for k, v in kwargs.items()},
        }
        try:
            result = impl(*args, **kwargs)
        except BaseException as exc:
            record("call", raised=name_of(exc), **facts)
            raise
        record("call", result=describe(result), **facts)
        return result

    return recorded
