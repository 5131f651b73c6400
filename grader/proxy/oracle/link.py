"""The oracle's end of one conversation: frames, values, and ``Remote`` stand-ins.

``Link.serve(answer)`` waits for calls; for each one it runs ``answer(facts, link)`` (the
implementation) and sends back its value or exception. While the implementation runs, a
``Remote`` (a student's object) turns every attribute read, call, ``with`` and truth test
into one operation the student's process performs; a call arriving while an operation is
pending (the probe re-entered the function from a listener) is served in place.

``remote.name(args)``, where the bytecode proves nothing runs between the lookup and the
call (``called_at_once``), is ONE operation, ``callattr``: the student's process performs
the getattr and then the call, exactly as the two operations would (see the child's
``_call_attribute``), and it counts as two towards ``MAX_OPERATIONS``.
"""

from __future__ import annotations

import builtins
import contextlib
import datetime
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, cast

from grader.proxy import wire
from grader.proxy.oracle.methods import Got, Method, called_at_once

MAX_NESTING = 16
MAX_CALLS = 100_000
MAX_OPERATIONS = 1_000_000
#: Bytes one conversation may send to the oracle: what it sends can end up kept by the
#: implementation (the real code caches per dialect name), so this bounds the oracle's memory.
MAX_RECEIVED = 32 << 20


class ConversationBroken(BaseException):
    """The student's side sent something that is not part of the conversation (or nothing,
    in time). A BaseException: no ``except Exception`` of an implementation swallows it."""


class OracleBug(BaseException):
    """The implementation used something the conversation cannot carry: a grader bug."""


class Ended(BaseException):
    """The student's process went away in the middle of a call (its own choice: os._exit,
    a kill); not a protocol fault: the conversation just ends."""


class Mirrored:
    """Marks the oracle's copy of an exception raised in the student's process."""

    remote_handle: int | None = None


class Remote:
    """An object that lives in the student's process; every use is an operation there."""

    __slots__ = ("__weakref__", "_handle", "_link")

    def __init__(self, link: Link, handle: int) -> None:
        self._link, self._handle = link, handle

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        caller = sys._getframe(1)
        if caller.f_lasti in called_at_once(caller.f_code):
            return self._link.method(self._handle, name)
        return self._link.operate({"op": "getattr", "h": self._handle, "name": name})

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        encode = self._link.encode
        message = {"op": "call", "h": self._handle, "args": encode(list(args))}
        message["kwargs"] = encode(kwargs)
        return self._link.operate(message)

    def __enter__(self) -> Any:
        return self._link.operate({"op": "enter", "h": self._handle})

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> bool:
        if isinstance(exc, ConversationBroken | OracleBug | Ended):
            return False
        described = None if exc is None else self._link.describe(exc)
        return bool(self._link.operate({"op": "exit", "h": self._handle, "exc": described}))

    def __bool__(self) -> bool:
        return bool(self._link.operate({"op": "bool", "h": self._handle}))


Answer = Callable[[Any, "Link"], Any]
#: Sends a value the conversation does not know by itself (an SQLAlchemy statement): its
#: tagged form, or ``NOT_MINE``. Registered per implementation (``encoders_for``).
Encoder = Callable[[Any, "Link", int], Any]
NOT_MINE = object()


class Link(wire.Codec):
    sequences = (list, tuple)
    malformed = ConversationBroken

    def __init__(
        self, sock: socket.socket, answer: Answer, encoders: Sequence[Encoder] = ()
    ) -> None:
        self._sock, self._answer = sock, answer
        self._encoders = tuple(encoders)
        self._remotes: dict[int, Remote] = {}
        self._new: dict[int, tuple[int, object]] = {}
        self._nesting = 0
        self.pending: Method | None = None
        self.calls = 0
        self.operations = 0
        self.received = 0

    # -- serving calls ------------------------------------------------------------------
    def serve(self) -> None:
        """Answer calls until the student's end closes (between calls: a normal end)."""
        while True:
            message = self._receive(at_boundary=True)
            if message is None:
                return
            self._serve_call(message)

    def _serve_call(self, message: Any) -> None:
        if type(message) is not dict or set(message) != {"call"}:
            raise ConversationBroken("expected a call")
        self.calls += 1
        if self.calls > MAX_CALLS or self._nesting >= MAX_NESTING:
            raise ConversationBroken("too many calls")
        facts = self.decode(message["call"])
        self._nesting += 1
        try:
            try:
                value = self._answer(facts, self)
            except (ConversationBroken, OracleBug, Ended):
                raise
            except BaseException as exc:  # the implementation's answer is this exception
                reply = {"op": "raise", "exc": self.describe(exc)}
            else:
                reply = {"op": "return", "value": self.encode(value)}
            with contextlib.suppress(Exception):  # unreachable: see ``methods``
                self.flush()
        finally:
            self._nesting -= 1
            if not self._nesting:
                self._remotes.clear()
                self._new.clear()
        self._send(reply)

    # -- operations on the student's objects ----------------------------------------------
    def remote(self, handle: int) -> Remote:
        found = self._remotes.get(handle)
        if found is None:
            found = self._remotes[handle] = Remote(self, handle)
        return found

    def new_object_id(self, value: object) -> int:
        """A number for an object the implementation made (kept alive for the call)."""
        found = self._new.get(id(value))
        if found is None:
            found = self._new[id(value)] = (len(self._new), value)
        return found[0]

    def method(self, handle: int, name: str) -> Method:
        self.flush()
        self.pending = Method(self, handle, name)
        return self.pending

    def flush(self) -> None:
        """A lookup that was not called at once after all: its getattr, now."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.read()

    def getattr(self, handle: int, name: str) -> Any:
        return self.operate({"op": "getattr", "h": handle, "name": name})

    def operate(self, message: dict[str, Any]) -> Any:
        self.flush()
        self.operations += 2 if message["op"] == "callattr" else 1
        if self.operations > MAX_OPERATIONS:
            raise ConversationBroken("too many operations")
        self._send(message)
        while True:
            reply = self._receive(at_boundary=False)
            if type(reply) is dict and set(reply) == {"call"}:
                self._serve_call(reply)  # the probe re-entered the function: answer it first
                continue
            if type(reply) is dict and set(reply) == {"ok"}:
                return self.decode(reply["ok"])
            if type(reply) is dict and set(reply) == {"got"} and message["op"] == "callattr":
                return Got(self.decode(reply["got"]))
            if type(reply) is dict and set(reply) == {"raised"}:
                raise self._mirror(reply["raised"])
            raise ConversationBroken("expected the result of an operation")

    def _mirror(self, raised: object) -> BaseException:
        """The student's exception, as an instance of its nearest built-in/SQLAlchemy class
        (so ``except IntegrityError`` and ``except Exception`` behave as in-process); it
        carries the handle, so the proxy re-raises the student's own object."""
        if type(raised) is not dict or type(raised.get("h")) is not int:
            raise ConversationBroken("malformed exception")
        cls = mirror_class(raised.get("kind"))
        try:
            exc: Any = BaseException.__new__(cls)
        except Exception:
            exc = BaseException.__new__(mirror_class("builtins.Exception"))
        exc.remote_handle = raised["h"]
        return cast(BaseException, exc)

    def describe(self, exc: BaseException) -> dict[str, Any]:
        handle = exc.remote_handle if isinstance(exc, Mirrored) else None
        if type(handle) is int:
            return {"h": handle}
        try:
            message = str(exc)[:4096]
        except Exception:
            message = ""
        return {"type": type(exc).__name__, "message": message}

    # -- values ---------------------------------------------------------------------------
    def encode(self, value: Any, depth: int = 0) -> Any:
        if depth > wire.MAX_DEPTH - 2:  # the student's own nested value, sent back
            raise ConversationBroken("a value nested too deeply to send back")
        return super().encode(value, depth)

    def other(self, value: Any, depth: int) -> Any:
        if isinstance(value, Remote):
            return {"$h": value._handle}
        if type(value) is datetime.datetime:
            return {"$dt": value.isoformat()}
        for encoder in self._encoders:
            encoded = encoder(value, self, depth)
            if encoded is not NOT_MINE:
                return encoded
        raise OracleBug(f"cannot send a {type(value).__name__} to the student's process")

    def decode(self, value: Any, depth: int = 0) -> Any:
        try:
            return super().decode(value, depth)
        except wire.WireError as exc:
            raise ConversationBroken(str(exc)) from None

    def decode_tag(self, tag: str, value: dict[str, Any], depth: int) -> Any:
        inner = value[tag]
        if tag == "$h" and type(inner) is int and 0 <= inner < 10 * MAX_OPERATIONS:
            return self.remote(inner)
        raise ConversationBroken("a value the student's side may not send")

    # -- frames -----------------------------------------------------------------------------
    def _send(self, message: Any) -> None:
        try:
            self._sock.sendall(wire.frame(message))
        except wire.WireError as exc:  # the student's data, sent back, is too big to carry
            raise ConversationBroken(f"an answer too large to send back: {exc}") from None
        except OSError as exc:
            raise ConversationBroken(f"the student's side is gone: {exc}") from None

    def _receive(self, *, at_boundary: bool) -> Any:
        header = self._exactly(wire.HEADER.size, at_boundary)
        if header is None:
            return None
        try:
            body = self._exactly(wire.frame_size(header), False)
            assert body is not None
            return wire.parse(body)
        except wire.WireError as exc:
            raise ConversationBroken(str(exc)) from None

    def _exactly(self, size: int, at_boundary: bool) -> bytes | None:
        chunks: list[bytes] = []
        missing = size
        while missing:
            try:
                chunk = self._sock.recv(min(missing, 1 << 20))
            except TimeoutError:
                raise ConversationBroken("the student's side went silent") from None
            except OSError:
                chunk = b""
            if not chunk:
                if at_boundary and missing == size:
                    return None
                raise Ended
            self.received += len(chunk)
            if self.received > MAX_RECEIVED:
                raise ConversationBroken(f"more than {MAX_RECEIVED} bytes sent to the oracle")
            chunks.append(chunk)
            missing -= len(chunk)
        return b"".join(chunks)


_MIRRORS: dict[str, type[BaseException]] = {}


def mirror_class(kind: object) -> type[Any]:
    """A subclass of the named built-in or SQLAlchemy exception class (cached)."""
    key = kind if type(kind) is str else "builtins.Exception"
    found = _MIRRORS.get(key)
    if found is not None:
        return found
    module, _, name = key.rpartition(".")
    base: object = None
    if module == "builtins":
        base = getattr(builtins, name, None)
    elif module == "sqlalchemy.exc":
        import sqlalchemy.exc

        base = getattr(sqlalchemy.exc, name, None)
    if not (isinstance(base, type) and issubclass(base, BaseException)):
        base = Exception
    try:
        made = type(base.__name__, (base, Mirrored), {})
    except TypeError:  # a base whose layout forbids a second base
        made = type("Exception", (Exception, Mirrored), {})
    if len(_MIRRORS) < 512:
        _MIRRORS[key] = made
    return made
