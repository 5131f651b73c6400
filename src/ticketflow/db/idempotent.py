"""Idempotency, the one way ticketflow does it: insert under a unique key; the conflict decides.

A message can arrive twice: a late-ACK redelivery, a retry, the outbox relaying again,
two workers at once. Asking first ("is the receipt there?") and then writing is a race:
two deliveries can both read "no" and both write. So ticketflow never asks. It INSERTs the
row under a UNIQUE key with ``ON CONFLICT (key) DO NOTHING RETURNING <primary key>``:

* the insert won: the statement returns the new row's key, and the caller goes on;
* the row was there already (or a concurrent transaction inserted it first): the
  database's unique index decides, the statement returns no row, and nothing else happens.

One statement: no exception to catch, and on PostgreSQL no aborted transaction (an
``IntegrityError`` would abort it). A concurrent insert of the same key waits for the
other transaction and then conflicts, so exactly one of them wins.

Used for notification receipts (``ticketflow.notifications.effects``: the conflict means
"already applied") and for dead letters (``ticketflow.notifications.dead_letters``: the
conflict means "already recorded", and the sink reads the winner's id).
"""

from __future__ import annotations

import functools

from sqlalchemy import Insert, Table
from sqlalchemy.dialects import postgresql, sqlite

__all__ = ["SUPPORTED_DIALECTS", "insert_once"]

#: The databases ticketflow runs on: both have ``INSERT ... ON CONFLICT DO NOTHING``.
SUPPORTED_DIALECTS = ("sqlite", "postgresql")


@functools.cache
def insert_once(table: Table, key: str, dialect: str) -> Insert:
    """``INSERT INTO table ... ON CONFLICT (key) DO NOTHING RETURNING <primary key>``.

    Built once per table, key and dialect (the same object every call). Executed with a
    row's values, ``.scalar_one_or_none()`` is the new row's primary key, or None when a
    row with that key already exists.
    """
    statement: sqlite.Insert | postgresql.Insert
    if dialect == "sqlite":
        statement = sqlite.insert(table)
    elif dialect == "postgresql":
        statement = postgresql.insert(table)
    else:
        raise ValueError(f"ticketflow runs on {' and '.join(SUPPORTED_DIALECTS)}, not {dialect!r}")
    return statement.on_conflict_do_nothing(index_elements=[key]).returning(
        *table.primary_key.columns
    )
