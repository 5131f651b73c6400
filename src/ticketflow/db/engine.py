"""Engine and session factories, built on call (never at import).

``TICKETFLOW_DATABASE_URL`` selects the database; without it we use one in-memory SQLite
database shared by every session of the engine (``StaticPool``: with the default pool each
connection of ``sqlite://`` would be a separate, empty database).

For SQLite we apply SQLAlchemy's documented pysqlite workaround: Python's ``sqlite3``
driver otherwise issues ``BEGIN`` lazily and breaks SAVEPOINT semantics.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from ticketflow.db.base import Base

DEFAULT_DATABASE_URL = "sqlite://"
DATABASE_URL_ENV = "TICKETFLOW_DATABASE_URL"


def database_url(url: str | None = None) -> str:
    """The explicit ``url``, else ``$TICKETFLOW_DATABASE_URL``, else in-memory SQLite."""
    return url or os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL


def _is_memory_sqlite(url: str) -> bool:
    return url in ("sqlite://", "sqlite:///:memory:", "sqlite+pysqlite://") or (
        url.startswith("sqlite") and "mode=memory" in url
    )


def create_engine_from_url(
    url: str | None = None,
    *,
    connect_args: Mapping[str, object] | None = None,
    **kwargs: object,
) -> Engine:
    """Create an engine for ``url`` (see ``database_url``) with the course's settings.

    ``kwargs`` are ``sqlalchemy.create_engine``'s (for example ``echo=True``).
    """
    resolved = database_url(url)
    if resolved.startswith("postgresql://"):
        resolved = "postgresql+psycopg://" + resolved.removeprefix("postgresql://")
    if resolved.startswith("sqlite"):
        if _is_memory_sqlite(resolved):
            kwargs.setdefault("poolclass", StaticPool)
        sqlite_args = {"check_same_thread": False, "timeout": 30, **(connect_args or {})}
        engine = create_engine(resolved, connect_args=sqlite_args, **kwargs)
        _enable_sqlite_transactions(engine)
        return engine
    if connect_args is not None:
        kwargs["connect_args"] = dict(connect_args)
    return create_engine(resolved, **kwargs)


def _enable_sqlite_transactions(engine: Engine) -> None:
    """SQLAlchemy's pysqlite recipe: let SQLAlchemy emit BEGIN itself."""
    event.listen(engine, "connect", _no_implicit_transactions)
    event.listen(engine, "begin", _begin_explicitly)


def _no_implicit_transactions(
    dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry
) -> None:
    dbapi_connection.isolation_level = None


def _begin_explicitly(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN")


def create_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def create_schema(engine: Engine) -> None:
    """Create every ticketflow table that does not exist yet."""
    Base.metadata.create_all(engine)
