"""Stand-ins for ``apply_notification_once`` (EX-12-01 and EX-13-01).

They run with ``ticketflow.notifications.effects``'s globals and use the same building
blocks as the real function (``insert_receipt``, then an ``INSERT INTO business_tasks`` in
the same session), so a probe's failure injection (an engine ``before_cursor_execute``
listener, a wrapped transaction) reaches them exactly as it reaches the real one.

TWINS commit the receipt and the business task together, like the real function, but are
written differently (a SAVEPOINT around the effect; the effect as an ORM object): a probe
that checks behaviour passes on them. MUTANTS are the wrong implementations the exercises
name.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert

from ticketflow.db.models import BusinessTask
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications.effects import _business_task_row, insert_receipt

TWINS = ("savepoint_effect", "orm_effect")
MUTANTS = (
    "no_dedupe",
    "receipt_without_task",
    "always_true",
    "task_twice",
    "returns_none",
    "dedupe_without_receipt",
    "receipt_committed_first",
    "effect_committed_first",
    "effect_error_swallowed",
)


# -- twins ---------------------------------------------------------------------------------
def savepoint_effect(envelope: Any, transaction: Any) -> Any:
    """Receipt, then the business task inside a SAVEPOINT of the same transaction."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        session = uow.session
        if not insert_receipt(session, envelope):
            return False
        with session.begin_nested():
            session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
        return True


def orm_effect(envelope: Any, transaction: Any) -> Any:
    """Receipt, then the business task as an ORM object flushed in the same transaction."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.add(BusinessTask(**_business_task_row(envelope)))
            uow.session.flush()
            uow.commit()
        return applied


# -- mutants: EX-12-01, the second delivery ------------------------------------------
def no_dedupe(envelope: Any, transaction: Any) -> Any:
    """Ignores insert_receipt's answer: every delivery writes a business task."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        insert_receipt(uow.session, envelope)
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
        return True


def receipt_without_task(envelope: Any, transaction: Any) -> Any:
    """Commits the receipt and forgets the business task."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return False
        uow.commit()
        return True


def always_true(envelope: Any, transaction: Any) -> Any:
    """Dedupes correctly but reports every delivery as applied."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return True
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
        return True


def task_twice(envelope: Any, transaction: Any) -> Any:
    """Writes the business task twice on the first delivery."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return False
        for _ in range(2):
            uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
        return True


def returns_none(envelope: Any, transaction: Any) -> Any:
    """Does the right thing and forgets to say so (returns None)."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return None
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
    return None


def dedupe_without_receipt(envelope: Any, transaction: Any) -> Any:
    """Dedupes by looking for an existing business task; never writes a receipt."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        seen = uow.session.query(BusinessTask).filter_by(event_id=envelope.event_id).first()
        if seen is not None:
            return False
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
        return True


# -- mutants: EX-13-01, atomicity of receipt + effect -------------------------------------
def receipt_committed_first(envelope: Any, transaction: Any) -> Any:
    """Receipt in one transaction, business task in a second one."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return False
        uow.commit()
    with transaction as uow:
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
    return True


def effect_committed_first(envelope: Any, transaction: Any) -> Any:
    """Business task in one transaction, receipt in a second one."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
        uow.commit()
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return False
        uow.commit()
    return True


def effect_error_swallowed(envelope: Any, transaction: Any) -> Any:
    """Receipt first; a failing effect is caught and the receipt committed anyway."""
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        if not insert_receipt(uow.session, envelope):
            return False
        uow.commit()
    try:
        with transaction as uow:
            uow.session.connection().execute(insert(BusinessTask), _business_task_row(envelope))
            uow.commit()
    except Exception:
        return True
    return True
