"""The student's end of the oracle conversation: ask, then do what the oracle asks.

The implementation under test does not exist in this process. ``Conversation.call(facts)``
sends the facts of one call and serves the oracle until it answers: each operation the
implementation performs on an object of the student (its transaction, session,
connection, a result) arrives as ``getattr``/``call``/``enter``/``exit``/``bool`` on a
handle (or ``callattr``: a getattr and a call of its answer, in one frame), is performed
HERE on the student's real object, and its result (a scalar, or a new handle) or the
exception it raised (kept here as a handle) goes back. The answer is
``return`` (a value) or ``raise``: the student's own exception object is re-raised as
itself; an exception of the implementation's own is rebuilt from its built-in type.

The code in this module is the same in every run, whoever answers: what differs is
only the conversation, i.e. behaviour. A call made while the oracle waits for an
operation (a probe's event listener calling the function again) nests naturally.

``pure`` (the target's declaration, ``grader.variants.targets``): the answer to facts
already asked about in this run is reused, not asked again. Only facts that are plain data
(no handle: the key is their wire form, taken at the time of the call, so a list mutated
since is other facts) and answers the oracle gave without a single operation, that are
plain data too; the memo keeps the answer's wire form and decodes it anew each time (a
fresh value, a fresh exception, as a second round trip would give). It lives in this
object, made in each run: it never outlives the run nor reaches another.
"""

from __future__ import annotations

import builtins
import datetime as _datetime
import os
import socket
import threading
from collections.abc import Callable, Mapping
from typing import Any

from grader.proxy import wire

MAX_ITEMS = 10_000
MAX_NESTING = 16
#: Answers one run keeps at most (``pure``); later ones are asked for every time.
MAX_MEMO = 4096


class GraderConnectionLost(RuntimeError):
    """The grader's side of the code under test stopped answering (never the probe's fault
    when the grader is healthy; a probe that writes to the conversation's socket causes it)."""


Rebuilders = Mapping[str, Callable[[Any, "Conversation"], Any]]
#: What the run was handed (``grader.runner.passed``): a descriptor, or a connected socket
#: (the portable mode, where no descriptor can be passed).
Channel = int | socket.socket


def _endpoints(channel: Channel) -> tuple[Callable[[int], bytes], Callable[[Any], int]]:
    """Read and write of the channel, bound now: a probe that later replaces ``os.read``
    or ``socket.socket.recv`` changes nothing here."""
    if isinstance(channel, socket.socket):
        return channel.recv, channel.send
    read, write = os.read, os.write
    return (lambda size: read(channel, size)), (lambda data: write(channel, data))


class Conversation(wire.Codec):
    """``rebuild`` maps ``$stmt``/``$model``/``$new`` to functions that make the object here."""

    max_items = MAX_ITEMS
    max_str = 65536
    malformed = GraderConnectionLost

    def __init__(
        self, channel: Channel, rebuild: Rebuilders | None = None, *, pure: bool = False
    ) -> None:
        self._read, self._write = _endpoints(channel)
        self._getpid, self._pid = os.getpid, os.getpid()
        self._lock = threading.RLock()
        self._rebuild = dict(rebuild or {})
        self._objects: list[Any] = []
        self._handles: dict[int, int] = {}
        self._built: dict[int, Any] = {}
        self._nesting = 0
        self._memo: dict[str, Any] | None = {} if pure else None
        self._performed = 0

    # -- one call ---------------------------------------------------------------------
    def call(self, facts: Mapping[str, Any]) -> Any:
        if self._getpid() != self._pid:
            raise RuntimeError("the function under test can only be called in the probe's process")
        with self._lock:
            if self._nesting >= MAX_NESTING:
                raise RecursionError("the function under test was re-entered too deeply")
            self._nesting += 1
            try:
                asked = self.encode(dict(facts))
                key = self._memo_key(asked)
                if key is not None and key in self._memo_or_empty():
                    return self._answer(self._memo_or_empty()[key])
                performed = self._performed
                self._send({"call": asked})
                reply = self._serve()
                if key is not None and self._performed == performed:
                    self._remember(key, reply)
                return self._answer(reply)
            finally:
                self._nesting -= 1
                if not self._nesting:
                    self._objects.clear()
                    self._handles.clear()
                    self._built.clear()

    def _serve(self) -> dict[str, Any]:
        """The oracle's answer (``return`` or ``raise``), its operations performed."""
        while True:
            message = self._receive()
            op = message.get("op") if type(message) is dict else None
            if op in ("return", "raise"):
                return message  # type: ignore[no-any-return]
            self._performed += 1
            self._send(self._perform(op, message))

    def _answer(self, message: dict[str, Any]) -> Any:
        if message.get("op") == "return":
            return self.decode(message.get("value"))
        raise self._exception(message.get("exc"))

    def _memo_or_empty(self) -> dict[str, Any]:
        return {} if self._memo is None else self._memo

    def _memo_key(self, asked: Any) -> str | None:
        """The memo's key for these facts (their wire form), or None: not memoised."""
        if self._memo is None or self._nesting != 1:
            return None
        text = wire.encode_text(asked)
        return None if '"$h"' in text else text

    def _remember(self, key: str, reply: dict[str, Any]) -> None:
        plain = '"$h"' not in wire.encode_text(reply)  # plain data only
        if self._memo is not None and len(self._memo) < MAX_MEMO and plain:
            self._memo[key] = reply

    def _perform(self, op: object, message: dict[str, Any]) -> dict[str, Any]:
        target = self._object(message.get("h"))
        if op == "callattr":
            return self._call_attribute(target, message)
        if op == "call":
            args = self.decode(message.get("args"))
            kwargs = self.decode(message.get("kwargs"))
            if type(args) is not list or type(kwargs) is not dict:
                raise GraderConnectionLost("malformed call")
        elif op == "exit":
            exc = self._exception(message.get("exc")) if message.get("exc") is not None else None
        elif op == "getattr" and type(message.get("name")) is not str:
            raise GraderConnectionLost("malformed getattr")
        elif op not in ("getattr", "enter", "bool"):
            raise GraderConnectionLost(f"unknown operation {op!r}")
        try:
            if op == "getattr":
                value = getattr(target, message["name"])
            elif op == "call":
                value = target(*args, **kwargs)
            elif op == "enter":
                value = type(target).__enter__(target)
            elif op == "exit":
                kind = None if exc is None else type(exc)
                trace = None if exc is None else exc.__traceback__
                value = bool(type(target).__exit__(target, kind, exc, trace))
            else:
                value = bool(target)
        except BaseException as raised:  # the student's (or SQLAlchemy's): it stays here
            return {"raised": {"h": self.handle(raised), "kind": exception_kind(raised)}}
        return {"ok": self.encode(value)}

    def _call_attribute(self, target: Any, message: dict[str, Any]) -> dict[str, Any]:
        """``getattr`` then ``call`` in one frame, exactly as the two operations would go:
        the attribute is named by a handle as a getattr's answer would be (same numbers,
        same lifetime); one that is plain data goes back uncalled (``got``: the oracle calls
        it, as it would have called a getattr's answer); then the arguments are decoded."""
        if type(message.get("name")) is not str:
            raise GraderConnectionLost("malformed getattr")
        try:
            value = getattr(target, message["name"])
        except BaseException as raised:
            return {"raised": {"h": self.handle(raised), "kind": exception_kind(raised)}}
        found = self.encode(value)
        if type(found) is not dict or set(found) != {"$h"}:
            return {"got": found}
        return self._perform("call", {**message, "h": found["$h"]})

    # -- values -------------------------------------------------------------------------
    def handle(self, value: object) -> int:
        number = self._handles.get(id(value))
        if number is None:
            number = self._handles[id(value)] = len(self._objects)
            self._objects.append(value)
        return number

    def _object(self, number: object) -> Any:
        if type(number) is not int or not 0 <= number < len(self._objects):
            raise GraderConnectionLost("unknown handle")
        return self._objects[number]

    def other(self, value: Any, depth: int) -> Any:
        return {"$h": self.handle(value)}  # not plain data: it stays here, named by a handle

    def decode_tag(self, tag: str, value: dict[str, Any], depth: int) -> Any:
        inner = value[tag]
        if tag == "$h":
            return self._object(inner)
        if tag == "$dt" and type(inner) is str:
            return _datetime.datetime.fromisoformat(inner)
        if tag in self._rebuild:
            return self._rebuild[tag](value, self)
        raise GraderConnectionLost(f"cannot rebuild {tag}")

    def built(self, key: object, make: Callable[[], Any]) -> Any:
        """The object made for ``key`` in this call (the same one every time it is named)."""
        if type(key) is not int:
            raise GraderConnectionLost("malformed $new")
        if key not in self._built:
            self._built[key] = make()
        return self._built[key]

    def _exception(self, description: object) -> BaseException:
        if type(description) is dict and "h" in description:
            found = self._object(description["h"])
            if isinstance(found, BaseException):
                return found
        if type(description) is dict:
            kind = getattr(builtins, str(description.get("type")), None)
            message = str(description.get("message", ""))
            if isinstance(kind, type) and issubclass(kind, BaseException):
                try:
                    return kind(message)
                except Exception:
                    pass
            return RuntimeError(f"{description.get('type')}: {message}")
        raise GraderConnectionLost("malformed exception")

    # -- frames --------------------------------------------------------------------------
    def _send(self, message: Any) -> None:
        try:
            data = memoryview(wire.frame(message))
            while data:
                data = data[self._write(data) :]
        except (OSError, wire.WireError) as exc:
            raise GraderConnectionLost(f"cannot reach the grader: {exc}") from None

    def _receive(self) -> Any:
        try:
            size = wire.frame_size(self._exactly(wire.HEADER.size))
            return wire.parse(self._exactly(size))
        except (OSError, wire.WireError) as exc:
            raise GraderConnectionLost(f"the grader stopped answering: {exc}") from None

    def _exactly(self, size: int) -> bytes:
        chunks, missing = [], size
        while missing:
            chunk = self._read(min(missing, 1 << 20))
            if not chunk:
                raise OSError("end of conversation")
            chunks.append(chunk)
            missing -= len(chunk)
        return b"".join(chunks)


def exception_kind(exc: BaseException) -> str:
    """The nearest class of ``exc`` the oracle can mirror: a built-in one or SQLAlchemy's."""
    for cls in type(exc).__mro__:
        module = getattr(cls, "__module__", "")
        if module in ("builtins", "sqlalchemy.exc"):
            return f"{module}.{cls.__qualname__}"
    return "builtins.BaseException"
