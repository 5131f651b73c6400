"""Everything a probe can observe of one implementation that is not its result (issue 19).

``observed(target, name, source)`` runs ``source`` (a delivery story or a probe file) with
the function under test answered by ``name`` through the oracle, as a run does, and writes
down per call of the function:

- ``record``: what a probe could see besides the answer: every operation the implementation
  performed on the probe's objects, in order (attribute reads, calls with their arguments,
  ``with`` enter/exit with the exception passed in, truth tests; which object, and whether
  the operation returned or raised), every SQL text and parameters the database was sent,
  every error the engine reported (type and message), and the call's timing class;
- ``behaviour``: the answer (value, or exception type and message) and the rows in the
  probe's database right after the call.

The operations are taken where the probe's process performs them (``Conversation._perform``):
that is every operation there is, whatever the probe wraps its objects in.
"""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event

from grader.proxy.child.conversation import Conversation
from grader.proxy.child.effects import applying
from grader.proxy.child.statements import rebuilders
from grader.proxy.oracle.session import Oracle
from tests.support.db import counts
from tests.unit.grader.proxy.oracle.stories import _plain, tell
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import effects

#: A call slower than this is in the "slow" timing class (no stand-in sleeps or loops).
SLOW_SECONDS = 2.0


@dataclass(frozen=True)
class Call:
    record: tuple[Any, ...]
    behaviour: tuple[Any, ...]


class RecordingConversation(Conversation):
    """The probe's end of the conversation, writing down each operation it performs."""

    def __init__(self, fd: int, log: list[Any]) -> None:
        super().__init__(fd, rebuilders())
        self.log = log

    def _perform(self, op: object, message: dict[str, Any]) -> dict[str, Any]:
        target = self._object(message.get("h"))
        entry: list[Any] = [op, message.get("h"), type(target).__name__]
        if op == "getattr":
            entry.append(message.get("name"))
        elif op == "call":
            args, kwargs = self.decode(message.get("args")), self.decode(message.get("kwargs"))
            entry += [described(args), described(kwargs)]
        elif op == "exit":
            entry.append(described(message.get("exc")))
        reply = super()._perform(op, message)
        entry.append(reply["raised"]["kind"] if "raised" in reply else "ok")
        self.log.append(tuple(entry))
        return reply


def described(value: Any) -> Any:
    """A value an implementation passed to the probe's objects, as a probe would compare it."""
    from sqlalchemy.sql import ClauseElement

    from ticketflow.db import Base

    if isinstance(value, ClauseElement):
        return ("statement", type(value).__name__, " ".join(str(value).split()))
    if isinstance(value, Base):
        columns = {k: v for k, v in vars(value).items() if not k.startswith("_")}
        return ("model", type(value).__name__, described(columns))
    if isinstance(value, type):
        return ("class", value.__name__)
    if isinstance(value, dict):
        return {k: described(v) for k, v in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [described(v) for v in value]
    plain = _plain(value)
    if plain is None or isinstance(plain, bool | int | float | str | list | dict | tuple):
        return plain
    return ("object", type(value).__name__)


@contextlib.contextmanager
def _engine_events(sql: list[Any], errors: list[Any], paused: list[bool]) -> Iterator[None]:
    """SQL and errors of every engine (the probe makes its own), while not paused."""

    def sent(conn: Any, cursor: Any, statement: str, params: Any, context: Any, many: Any) -> None:
        if not paused[0]:
            sql.append((" ".join(statement.split()), _plain(params)))

    def failed(context: Any) -> None:
        if not paused[0]:
            raised = context.original_exception
            errors.append((type(raised).__name__, str(raised)))

    event.listen(Engine, "before_cursor_execute", sent)
    event.listen(Engine, "handle_error", failed)
    try:
        yield
    finally:
        event.remove(Engine, "before_cursor_execute", sent)
        event.remove(Engine, "handle_error", failed)


def _rows(transaction: Any, paused: list[bool]) -> Any:
    """(receipts, business tasks) in the probe's database now (None if it cannot be told)."""
    try:
        engine = getattr(transaction, "_inner", transaction).bind
    except Exception:
        return None
    if not isinstance(engine, Engine):
        return None
    paused[0] = True
    try:
        seen = counts(engine)
    finally:
        paused[0] = False
    return seen["receipts"], seen["business_tasks"]


Source = Callable[[Callable[..., Any]], None]


def observed(name: str, source: Source) -> list[Call]:
    """``source(apply)`` told to the effects implementation ``name``, call by call."""
    ops: list[Any] = []
    sql: list[Any] = []
    errors: list[Any] = []
    paused = [False]
    calls: list[Call] = []
    oracle = Oracle("effects", name)
    try:
        apply = applying(RecordingConversation(oracle.student_fd, ops), EventEnvelope)

        def recorded(envelope: Any, transaction: Any) -> Any:
            marks = (len(ops), len(sql), len(errors))
            started = time.monotonic()
            try:
                value = apply(envelope, transaction)
            except Exception as exc:
                answer: tuple[Any, ...] = ("raised", type(exc).__name__, str(exc))
                raise
            else:
                answer = ("returned", _plain(value))
                return value
            finally:
                slow = time.monotonic() - started > SLOW_SECONDS
                record = (
                    tuple(ops[marks[0] :]),
                    tuple(sql[marks[1] :]),
                    tuple(errors[marks[2] :]),
                    "slow" if slow else "fast",
                )
                calls.append(Call(record, (answer, _rows(transaction, paused))))

        with _engine_events(sql, errors, paused):
            source(recorded)
    finally:
        outcome = oracle.close()
    assert outcome.broken is None and outcome.bug is None, outcome
    return calls


def story(name: str, url: str) -> Source:
    """One of the oracle fidelity tests' delivery stories, on ``url``."""

    def tell_it(apply: Callable[..., Any]) -> None:
        tell(apply, name, url=url)

    return tell_it


def probe(path: Path, workdir: Path) -> Source:
    """A probe file run as a student's probe is, with ``apply_notification_once`` installed."""

    def run(apply: Callable[..., Any]) -> None:
        original, here, argv = effects.apply_notification_once, Path.cwd(), sys.argv
        effects.apply_notification_once = apply
        os.chdir(workdir)
        sys.argv = [str(path)]  # unittest.main() reads it
        try:
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
                contextlib.suppress(SystemExit, AssertionError),
            ):
                runpy.run_path(str(path), run_name="__main__")
        finally:
            sys.argv = argv
            os.chdir(here)
            effects.apply_notification_once = original

    return run


def same_except_at_the_defect(correct: list[Call], mutant: list[Call]) -> tuple[bool, bool, str]:
    """(records equal up to the first call that behaves differently, it behaved differently,
    where they first differ). After the defect the two databases differ, so nothing after
    it is compared; before it, every observation must be the same."""
    for index, (mine, theirs) in enumerate(zip(correct, mutant, strict=False)):
        if mine.behaviour != theirs.behaviour:
            return True, True, f"call {index + 1} behaves differently"
        if mine.record != theirs.record:
            return False, False, f"call {index + 1}: {_first_difference(mine, theirs)}"
    if len(correct) != len(mutant):
        return False, False, f"{len(correct)} calls against {len(mutant)}"
    return True, False, "the same"


def _first_difference(mine: Call, theirs: Call) -> str:
    for part, a, b in zip(
        ("operations", "sql", "errors", "timing"), mine.record, theirs.record, strict=True
    ):
        if a != b:
            if isinstance(a, tuple) and isinstance(b, tuple):
                at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
                if at is None:
                    return f"{part}: {len(a)} against {len(b)}"
                return f"{part}[{at}]: {a[at]!r} against {b[at]!r}"
            return f"{part}: {a!r} against {b!r}"
    return "?"
