"""Engine and session factories, built on call (never at import).

``TICKETFLOW_DATABASE_URL`` selects the database; without it we use one in-memory SQLite
database shared by every session of the engine (``StaticPool``: with the default pool each
connection of ``sqlite://`` would be a separate, empty database).

For SQLite we apply SQLAlchemy's documented pysqlite workaround: Python's ``sqlite3``
driver otherwise issues ``BEGIN`` lazily and breaks SAVEPOINT semantics.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from ticketflow.db.base import Base

if TYPE_CHECKING:
    import sqlite3

DEFAULT_DATABASE_URL = "sqlite://"
DATABASE_URL_ENV = "TICKETFLOW_DATABASE_URL"


def database_url(url: str | None = None) -> str:
    """The explicit ``url``, else ``$TICKETFLOW_DATABASE_URL``, else in-memory SQLite."""
    return url or os.environ.get(DATABASE_URL_ENV) or DEFAULT_DATABASE_URL


def _is_memory_sqlite(url: str) -> bool:
    return url in ("sqlite://", "sqlite:///:memory:", "sqlite+pysqlite://") or (
        url.startswith("sqlite") and "mode=memory" in url
    )


def create_engine_from_url(url: str | None = None, **kwargs: Any) -> Engine:
    """Create an engine for ``url`` (see ``database_url``) with the course's settings."""
    resolved = database_url(url)
    if resolved.startswith("postgresql://"):
        resolved = "postgresql+psycopg://" + resolved.removeprefix("postgresql://")
    if resolved.startswith("sqlite"):
        if _is_memory_sqlite(resolved):
            kwargs.setdefault("poolclass", StaticPool)
        connect_args = dict(kwargs.pop("connect_args", {}))
        connect_args.setdefault("check_same_thread", False)
        connect_args.setdefault("timeout", 30)
        engine = create_engine(resolved, connect_args=connect_args, **kwargs)
        _enable_sqlite_transactions(engine)
        return engine
    return create_engine(resolved, **kwargs)


def _enable_sqlite_transactions(engine: Engine) -> None:
    """SQLAlchemy's pysqlite recipe: let SQLAlchemy emit BEGIN itself."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")


def create_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def create_schema(engine: Engine) -> None:
    """Create every ticketflow table that does not exist yet."""
    Base.metadata.create_all(engine)
