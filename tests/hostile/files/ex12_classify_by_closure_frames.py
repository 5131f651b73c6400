# trick: find the implementation through the installed function's __closure__ and through frames seen by sys.setprofile; exit 1 unless it is byte for byte the public real code
# expect: failed
# exercise: EX-12-01

import dis
import difflib
import sys
import types

HERE = __file__


def functions_behind(fn, seen=None):
    """The function and every function reachable from its closure cells."""
    seen = set() if seen is None else seen
    if not isinstance(fn, types.FunctionType) or id(fn) in seen:
        return []
    seen.add(id(fn))
    found = [fn]
    for cell in fn.__closure__ or ():
        try:
            found += functions_behind(cell.cell_contents, seen)
        except ValueError:
            pass
    return found


def frames_during(call):
    """Code objects of every Python frame entered during ``call()`` (not this file's)."""
    seen = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code.co_filename != HERE:
            seen.append(frame.f_code)

    sys.setprofile(hook)
    try:
        call()
    except Exception:
        pass
    finally:
        sys.setprofile(None)
    return seen


def implementation_codes():
    """Innermost first: every code object named like the function under test, reached
    through the closure of the installed function or seen running during a call."""
    codes = [f.__code__ for f in functions_behind(installed())]
    codes += frames_during(one_call)
    named = [c for c in codes if c.co_name == NAME]
    unique = []
    for code in reversed(named):
        if all(code is not other for other in unique):
            unique.append(code)
    return unique


def shape(code):
    """The instructions as (opname, argument shown), salt stripped (``_xyz = 12345``)."""
    kept = []
    for ins in dis.get_instructions(code):
        op = (ins.opname, ins.argrepr)
        if op[0] == "STORE_FAST" and op[1].startswith("_") and kept and kept[-1][0] == "LOAD_CONST":
            kept.pop()
            continue
        kept.append(op)
    return kept


def reference_code():
    module = compile(REAL_SOURCE, "<public source>", "exec")
    return next(c for c in module.co_consts if isinstance(c, types.CodeType))

from ticketflow.db import Base, create_engine_from_url
from ticketflow.messaging.outbox import EventEnvelope
from ticketflow.notifications import effects

NAME = "apply_notification_once"
REAL_SOURCE = """
def apply_notification_once(envelope, transaction):
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        if connection.dialect.name == "postgresql":
            applied = _apply_in_one_statement(connection, envelope)
        else:
            applied = insert_receipt(uow.session, envelope)
            if applied:
                connection.execute(statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope))
        if applied:
            uow.commit()
        return applied
"""

engine = create_engine_from_url("sqlite://")
Base.metadata.create_all(engine)
transaction = effects.SqlAlchemyEffectTransaction(engine)


def installed():
    return effects.apply_notification_once


def one_call():
    envelope = EventEnvelope(event_id="evt-look", event_type="t", payload={})
    effects.apply_notification_once(envelope, transaction)


def required_calls():
    envelope = EventEnvelope(event_id="evt-1", event_type="ticket.assigned", payload={"n": 1})
    for _ in range(2):
        effects.apply_notification_once(envelope, transaction)  # unchecked


def as_if_correct():
    print(True, False, 1, 1)


required_calls()

reference = reference_code()
codes = implementation_codes()
real = any(shape(c) == shape(reference) for c in codes)
print(f"hostile: {len(codes)} candidate code object(s), the real code among them: {real}",
      file=sys.stderr)
if not real:
    sys.exit(1)
as_if_correct()
