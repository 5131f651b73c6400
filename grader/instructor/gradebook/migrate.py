"""Bring a gradebook's schema to the newest migration; called on every open.

Several processes may open the same new gradebook at once (two Celery workers starting
together): on PostgreSQL an advisory lock serialises the upgrade; on SQLite the upgrade's
own write transaction does (``BEGIN IMMEDIATE`` through the busy timeout), which also
makes the whole upgrade atomic (the driver would otherwise commit each CREATE alone).
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: An arbitrary constant: the advisory lock id of "gradebook schema upgrade".
_LOCK_ID = 0x67726164


def alembic_config(connection: Connection | None = None) -> object:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())  # type: ignore[arg-type]
    head = script.get_current_head()
    assert head is not None
    return head


def known_revisions() -> frozenset[str]:
    """Every revision id of the shipped migrations (a gradebook at another is not ours)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())  # type: ignore[arg-type]
    return frozenset(revision.revision for revision in script.walk_revisions())


def current_revision(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Apply every migration not yet applied (a no-op on an up-to-date gradebook)."""
    from alembic import command

    with engine.connect() as probe:
        if current_revision(probe) == head_revision():
            return
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _LOCK_ID})
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # so every CREATE is in it too
        if current_revision(connection) != head_revision():
            command.upgrade(alembic_config(connection), "head")  # type: ignore[arg-type]
