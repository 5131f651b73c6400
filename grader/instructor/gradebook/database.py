"""Where the gradebook lives: the URL (``--db``, ``$GRADER_DB_URL``, else
``sqlite:///gradebook.db`` in the current folder) and an engine suited to many writers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from grader.errors import UsageError

DB_ENV = "GRADER_DB_URL"
DEFAULT_URL = "sqlite:///gradebook.db"
#: Seconds a SQLite writer waits for another's lock before giving up.
SQLITE_BUSY_SECONDS = 60


def resolve_url(given: str | None = None) -> URL:
    """The gradebook URL, checked; a relative SQLite path is made absolute (workers in other
    folders, and the sandbox's hidden-path list, must name the same file)."""
    text = (given or os.environ.get(DB_ENV, "") or DEFAULT_URL).strip()
    try:
        url = make_url(text)
    except ArgumentError:
        raise UsageError("error.db_url", url=_shown(text)) from None
    backend = url.get_backend_name()
    if backend == "postgresql" and url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    elif backend == "sqlite":
        if url.database in (None, "", ":memory:"):
            raise UsageError("error.db_url", url=_shown(text))
        url = url.set(database=str(Path(url.database).expanduser().absolute()))
    elif backend != "postgresql":
        raise UsageError("error.db_url", url=_shown(text))
    return url


def _shown(text: str) -> str:
    try:
        return make_url(text).render_as_string(hide_password=True)[:200]
    except ArgumentError:
        return text[:200]


def create_gradebook_engine(url: URL) -> Engine:
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(url, pool_pre_ping=True, pool_size=2, max_overflow=2)
    except (ArgumentError, NoSuchModuleError, ImportError) as error:
        raise UsageError("error.db_url", url=url.render_as_string(hide_password=True)) from error


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL lets readers go on while one process writes; foreign keys are off by default."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
    cursor.close()


def database_files(url: URL) -> tuple[Path, ...]:
    """The files of a SQLite gradebook (to hide from every run); none for a server."""
    if url.get_backend_name() != "sqlite" or not url.database:
        return ()
    base = Path(url.database)
    return (base, *(base.with_name(base.name + suffix) for suffix in ("-wal", "-shm", "-journal")))
