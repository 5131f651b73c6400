"""Is this a gradebook the grader made? Asked before anything is written to it.

A path given with ``--db`` may be anything: a new file (ours to create), a gradebook of
ours, or something else: another tool's database (nbgrader keeps its own
``alembic_version``), a database with a ``gradings`` table of another schema, a text file.
Opening it the usual way would already write to it (SQLite's WAL pragma rewrites the
header; Alembic creates ``alembic_version``), so a SQLite file is first inspected through
a read-only connection (``mode=ro``, no pragma), and a server database through a plain
connection that only reads the catalogue. Anything not ours is refused, exit 2, with a
message saying what was found and what to do; the file stays byte-for-byte as it was.

Read-only commands (``export``, ``stats``, ``review``, ``feedback``) pass
``must_exist=True``: a path that does not exist (a typo) is refused instead of created.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from grader.errors import UsageError

SQLITE_HEADER = b"SQLite format 3\x00"
#: The tables every gradebook of ours has (the first migration's), with a column each
#: that another tool's table of the same name would hardly have.
OUR_TABLES = {
    "gradings": "verdict_fingerprint",
    "current_results": "grading_id",
    "reviews": "content_sha256",
}
ALEMBIC_TABLE = "alembic_version"


def check_gradebook(url: URL, engine: Engine, known: frozenset[str], *, must_exist: bool) -> None:
    """Refuse (``UsageError``) a gradebook the grader did not create, before any write."""
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() == "sqlite":
        assert url.database is not None
        path = Path(url.database)
        if not path.exists():
            if must_exist:
                raise UsageError("error.db_missing", url=shown)
            return
        tables, revision = _sqlite_catalogue(path, shown)
    else:
        tables, revision = _server_catalogue(engine, shown)
        if must_exist and not tables:
            raise UsageError("error.db_missing", url=shown)
    _judge(tables, revision, known, shown)


def _judge(
    tables: dict[str, set[str]], revision: str | None, known: frozenset[str], shown: str
) -> None:
    if not tables:
        return  # empty: a new gradebook
    if revision is not None and revision not in known:
        raise UsageError("error.db_foreign_revision", url=shown, revision=revision[:40])
    if revision is None:
        _being_created(tables, shown)
        return
    if not any(name in tables for name in OUR_TABLES):
        found = ", ".join(sorted(tables)[:6])
        raise UsageError("error.db_foreign", url=shown, tables=found)
    for name, column in OUR_TABLES.items():
        if column not in tables.get(name, set()):
            raise UsageError("error.db_foreign_schema", url=shown, table=name)


def _being_created(tables: dict[str, set[str]], shown: str) -> None:
    """No revision recorded: only a gradebook another grader process is creating right
    now (SQLite runs each CREATE on its own) passes: every table one of ours, with no
    column the models do not have."""
    from grader.instructor.gradebook.models import Base

    ours = Base.metadata.tables
    strangers = sorted(name for name in tables if name not in ours and name != ALEMBIC_TABLE)
    if strangers:
        raise UsageError("error.db_foreign", url=shown, tables=", ".join(strangers[:6]))
    for name, columns in sorted(tables.items()):
        if name != ALEMBIC_TABLE and not columns <= {c.name for c in ours[name].columns}:
            raise UsageError("error.db_foreign_schema", url=shown, table=name)


def _sqlite_catalogue(path: Path, shown: str) -> tuple[dict[str, set[str]], str | None]:
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise UsageError("error.db_unreachable", url=shown, detail=str(error)[:200]) from None
    if not head:
        return {}, None  # an empty file is an empty database
    if head != SQLITE_HEADER:
        raise UsageError("error.db_not_database", url=shown)
    try:
        connection = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise UsageError("error.db_unreachable", url=shown, detail=str(error)[:200]) from None
    try:
        names = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        tables = {
            name: {row[1] for row in connection.execute(f'PRAGMA table_info("{name}")')}
            for name in names
        }
        revision = None
        if ALEMBIC_TABLE in tables:
            row = connection.execute(f"SELECT version_num FROM {ALEMBIC_TABLE}").fetchone()
            revision = None if row is None else str(row[0])
    except sqlite3.DatabaseError as error:
        raise UsageError("error.db_not_database", url=shown) from error
    finally:
        connection.close()
    return tables, revision


def _server_catalogue(engine: Engine, shown: str) -> tuple[dict[str, set[str]], str | None]:
    try:
        with engine.connect() as connection:
            inspector = inspect(connection)
            tables = {
                name: {column["name"] for column in inspector.get_columns(name)}
                for name in inspector.get_table_names()
            }
            revision = None
            if ALEMBIC_TABLE in tables:
                found = connection.execute(text(f"SELECT version_num FROM {ALEMBIC_TABLE}"))
                row = found.first()
                revision = None if row is None else str(row[0])
            connection.rollback()
    except SQLAlchemyError as error:
        detail = str(getattr(error, "orig", error) or error).strip().splitlines()[:1]
        raise UsageError(
            "error.db_unreachable", url=shown, detail=(detail[0] if detail else "")[:200]
        ) from None
    return tables, revision
