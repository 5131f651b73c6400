"""A student's method, looked up and called in ONE operation of the conversation.

In an implementation's ``remote.name(args)``, Python looks ``name`` up (the ``Remote``'s
``__getattr__``), evaluates the arguments, then calls. When the bytecode shows that only
loads of locals and constants stand between the lookup and the call
(``called_at_once``), nothing can run in between, so the lookup may wait for the call and
travel with it (``Method``): the student's process sees the same operations in the same
order, and an exception of the lookup surfaces at the same line of the implementation.
A lookup left uncalled all the same (a local that is unbound raises first) is performed
on its own before anything else the link does, and at the end of the call at the latest.
"""

from __future__ import annotations

import dis
import sys
from types import CodeType
from typing import Any, Protocol


class Link(Protocol):
    """What a ``Method`` needs of ``grader.proxy.oracle.link.Link`` (named here, not
    imported: that module imports this one)."""

    pending: Any

    def getattr(self, handle: int, name: str) -> Any: ...

    def encode(self, value: Any) -> Any: ...

    def operate(self, message: dict[str, Any]) -> Any: ...


class Method:
    """``remote.name`` about to be called at once: the getattr waits for the call, to go
    with it in one frame. Anything else the link does first performs the getattr alone."""

    __slots__ = ("_handle", "_link", "_name", "_read")

    def __init__(self, link: Link, handle: int, name: str) -> None:
        self._link, self._handle, self._name = link, handle, name
        self._read: tuple[Any] | None = None

    def read(self) -> Any:
        """The attribute, read now with its own getattr (if it was not yet)."""
        if self._read is None:
            self._read = (self._link.getattr(self._handle, self._name),)
        return self._read[0]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        link = self._link
        if self._read is not None or link.pending is not self:
            return self.read()(*args, **kwargs)
        link.pending = None
        message = {"op": "callattr", "h": self._handle, "name": self._name}
        message["args"] = link.encode(list(args))
        message["kwargs"] = link.encode(kwargs)
        got = link.operate(message)
        if isinstance(got, Got):  # plain data: called here, as a getattr's answer would be
            self._read = (got.value,)
            return got.value(*args, **kwargs)
        return got


class Got:
    """A ``callattr`` whose attribute was plain data (not called in the student's process)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


#: Instructions that may stand between a method's lookup and its call while running no
#: code: loads of locals and constants, tuples and lists of them, keyword names.
_QUIET = frozenset(
    {"LOAD_FAST", "LOAD_CONST", "LOAD_DEREF", "BUILD_TUPLE", "BUILD_LIST", "KW_NAMES", "NOP"}
)
_CALLS = frozenset({"PRECALL", "CALL"})
_called_at: dict[CodeType, frozenset[int]] = {}


def called_at_once(code: CodeType) -> frozenset[int]:
    """Offsets of ``code``'s method lookups followed by their call with only ``_QUIET``
    instructions in between: a lookup there is certainly called, before anything else runs
    (an implementation's code objects: a bounded set, cached)."""
    found = _called_at.get(code)
    if found is None:
        offsets = set()
        instructions = list(dis.get_instructions(code))
        for index, instruction in enumerate(instructions):
            method = instruction.opname == "LOAD_METHOD" or (
                instruction.opname == "LOAD_ATTR"
                and sys.version_info >= (3, 12)
                and (instruction.arg or 0) & 1
            )
            for after in instructions[index + 1 :] if method else ():
                if after.opname in _CALLS:
                    offsets.add(instruction.offset)
                if after.opname not in _QUIET:
                    break
        found = frozenset(offsets)
        if len(_called_at) < 4096:
            _called_at[code] = found
    return found
