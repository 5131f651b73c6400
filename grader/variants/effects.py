"""Stand-ins for ``apply_notification_once`` (EX-12-01 and EX-13-01).

Each is a copy of the real function, written here: nothing in ticketflow is replaced. They
call ticketflow's public pieces the way the real function does: the same ``insert_receipt``
(``ticketflow.notifications.effects``), the same Core statement object
``statements.BUSINESS_TASK_INSERT`` (``ticketflow.notifications.statements``, built once
from ``BusinessTask.__table__``), the same ``statements.business_task_row``. Each one then
changes exactly what its catalogue description (``twin.<name>`` / ``mutant.<name>``) says
and nothing else, so a probe that recognises a statement by its table object, its SQL text
or its parameters sees the same thing in every run.
``tests/unit/grader/variants/test_shape.py`` holds every stand-in to that: its statements
against the real function's AST, and the SQL it sends against the real function's.

TWINS commit the receipt and the business task together, like the real function, but are
written differently: a probe that checks behaviour passes on them. MUTANTS are the wrong
implementations the exercises name (the exercise specs map each required assertion to the
mutant that only it catches). No correct implementation leaves a fingerprint of its own
(issue 19): every one of them, the real function and each twin, has mutants written in its
style (the same operations on the probe's objects, one behavioural defect each: ``always_true``
and ``returns_none`` for the real function, ``savepoint_*`` and ``orm_*`` for the twins).
``tests/unit/grader/variants/test_indistinguishable.py`` holds them to that.
"""

from __future__ import annotations

from typing import Any

from ticketflow.db.models import BusinessTask
from ticketflow.messaging.envelope import EventEnvelope
from ticketflow.notifications import statements
from ticketflow.notifications.effects import insert_receipt


def _preamble(uow: Any) -> Any:
    """The real function's first steps (``insert_receipt``'s: the session's connection and
    its dialect read), for a stand-in that does not start with ``insert_receipt``."""
    connection = uow.session.connection()
    connection.dialect.name  # noqa: B018 -- read, as the real code reads it
    return connection


TWINS = ("savepoint_effect", "orm_effect")
MUTANTS = (
    "no_dedupe",
    "receipt_without_task",
    "always_true",
    "task_twice",
    "returns_none",
    "returns_event_id",
    "dedupe_without_receipt",
    "effect_on_every_delivery",
    "receipt_committed_first",
    "effect_committed_first",
    "effect_error_swallowed",
    "effect_error_rolled_back",
    "receipt_first_then_repair",
    "savepoint_always_true",
    "orm_effect_on_every_delivery",
    "savepoint_error_swallowed",
    "orm_error_swallowed",
)


# -- twins ---------------------------------------------------------------------------------
def savepoint_effect(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
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
        connection = _preamble(uow)
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
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.connection().execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            uow.commit()
        return True


def task_twice(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = _preamble(uow)
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
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.connection().execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            uow.commit()
            return None
        return applied


def returns_event_id(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.connection().execute(
                statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
            )
            uow.commit()
            return envelope.event_id
        return applied


def dedupe_without_receipt(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        connection = _preamble(uow)
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
        connection = _preamble(uow)
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
        connection = _preamble(uow)
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
        connection = _preamble(uow)
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


# -- mutants in the twins' styles (issue 19) ------------------------------------------------
def savepoint_always_true(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            with uow.session.begin_nested():
                uow.session.connection().execute(
                    statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                )
        if applied:
            uow.commit()
        return True


def orm_effect_on_every_delivery(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        uow.session.add(BusinessTask(**statements.business_task_row(envelope)))
        uow.session.flush()
        uow.commit()
        return applied


def savepoint_error_swallowed(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            try:
                with uow.session.begin_nested():
                    uow.session.connection().execute(
                        statements.BUSINESS_TASK_INSERT, statements.business_task_row(envelope)
                    )
            except Exception:
                uow.commit()  # only the SAVEPOINT was rolled back: the receipt stays
                return True
        if applied:
            uow.commit()
        return applied


def orm_error_swallowed(envelope: Any, transaction: Any) -> Any:
    if not isinstance(envelope, EventEnvelope):
        raise TypeError(f"envelope must be an EventEnvelope, not {type(envelope).__name__}")
    with transaction as uow:
        applied = insert_receipt(uow.session, envelope)
        if applied:
            uow.session.add(BusinessTask(**statements.business_task_row(envelope)))
            try:
                uow.session.flush()
            except Exception:
                return True  # leaving the block without commit rolls the receipt back
        if applied:
            uow.commit()
        return applied
