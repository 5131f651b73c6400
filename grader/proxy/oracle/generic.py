"""Any other function under test, on the oracle's side: its arguments in, its value out.

The proxy (``grader.proxy.child.generic``) sends the call's positional and keyword arguments;
plain values arrive as themselves and the student's objects as ``Remote`` handles, so the
implementation sees what it would see in-process, and its value or exception goes back.
"""

from __future__ import annotations

from typing import Any

from grader.proxy.oracle.link import ConversationBroken, Link


def generic_answer(implementation: Any) -> Any:
    def answer(facts: Any, link: Link) -> Any:
        if type(facts) is not dict or set(facts) != {"args", "kwargs"}:
            raise ConversationBroken("malformed call")
        args, kwargs = facts["args"], facts["kwargs"]
        if type(args) is not list or type(kwargs) is not dict:
            raise ConversationBroken("malformed call")
        if any(type(key) is not str for key in kwargs):
            raise ConversationBroken("malformed call")
        return implementation(*args, **kwargs)

    return answer
