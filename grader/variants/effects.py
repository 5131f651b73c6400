"""Stand-ins for ``apply_notification_once`` (EX-12-01 and EX-13-01).

They run with ``ticketflow.notifications.effects``'s globals and are written as copies of
the real function's SQLite path: the same ``connection = uow.session.connection()``, the
same ``insert_receipt``, the same Core statement object ``statements.BUSINESS_TASK_INSERT``
(``ticketflow.notifications.statements``, built from ``BusinessTask.__table__``), the same
``statements.business_task_row``. Each one then changes
exactly what its catalogue description (``twin.<name>`` / ``mutant.<name>``) says and
nothing else, so a probe that recognises a statement by its table object, its SQL text or
its parameters sees the same thing in every run. ``tests/unit/grader/variants/test_shape.py``
holds every stand-in to that: its statements against the real function's AST, and the SQL
it sends against the real function's.

Common to every stand-in: only the SQLite path (the real function sends one combined
statement on PostgreSQL; the grader's sandbox has no network, so a probe can only use
SQLite there).

TWINS commit the receipt and the business task together, like the real function, but are
written differently: a probe that checks behaviour passes on them. MUTANTS are the wrong
implementations the exercises name (the exercise specs map each required assertion to the
mutant that only it catches).
"""

from __future__ import annotations

from typing import Any

from ticketflow.db.models import BusinessTask
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import statements
from ticketflow.notifications.effects import insert_receipt

TWINS = ("savepoint_effect", "orm_effect")
MUTANTS = (
    "no_dedupe",
    "receipt_without_task",
    "always_true",
    "task_twice",
    "returns_none",
    "dedupe_without_receipt",
    "effect_on_every_delivery",
    "receipt_committed_first",
    "effect_committed_first",
    "effect_error_swallowed",
    "effect_error_rolled_back",
    "receipt_first_then_repair",
)


# -- twins ---------------------------------------------------------------------------------
def savepoint_effect(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            with uow.session.begin_nested():
                # the session's connection (not one fetched earlier) runs inside the SAVEPOINT
                uow.session.connection().execute(
                    statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                )
        if applied:
            uow.commit()
        return applied


def orm_effect(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.add(BusinessTask(**statements.business_task_row(envelope)))
            uow.session.flush()
        if applied:
            uow.commit()
        return applied


# -- mutants: EX-12-01, the second delivery ------------------------------------------
def no_dedupe(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        insert_receipt(uow.session, envelope)
        connection.execute(statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope))
        uow.commit()
        return True


def receipt_without_task(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.commit()
        return applied


def always_true(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
        if applied:
            uow.commit()
        return True


def task_twice(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
        if applied:
            uow.commit()
        return applied


def returns_none(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
        if applied:
            uow.commit()
            return None
        return applied


def dedupe_without_receipt(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        seen = uow.session.query(BusinessTask).filter_by(event_id=envelope.event_id).first()
        applied = seen is None
        if applied:
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
        if applied:
            uow.commit()
        return applied


def effect_on_every_delivery(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        connection.execute(statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope))
        uow.commit()
        return applied


# -- mutants: EX-13-01, atomicity of receipt + effect -------------------------------------
def receipt_committed_first(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.commit()
    if applied:
        with transaction as uow:
            connection = uow.session.connection()
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            uow.commit()
    return applied


def effect_committed_first(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        connection.execute(statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope))
        uow.commit()
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.commit()
        return applied


def effect_error_swallowed(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.commit()
    if applied:
        try:
            with transaction as uow:
                connection = uow.session.connection()
                connection.execute(
                    statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                )
                uow.commit()
        except Exception:
            return True
    return applied


def effect_error_rolled_back(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = uow.session.connection()
        applied = insert_receipt(uow.session, envelope)
        if applied:
            try:
                connection.execute(
                    statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                )
            except Exception:
                return True  # leaving the block without commit rolls the receipt back
        if applied:
            uow.commit()
        return applied


def receipt_first_then_repair(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        insert_receipt(uow.session, envelope)
        uow.commit()
    with transaction as uow:
        connection = uow.session.connection()
        seen = uow.session.query(BusinessTask).filter_by(event_id=envelope.event_id).first()
        applied = seen is None
        if applied:
            connection.execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
        if applied:
            uow.commit()
        return applied
