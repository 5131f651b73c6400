"""The shipped migrations create exactly the models' schema, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from grader.instructor.gradebook import Gradebook
from grader.instructor.gradebook.migrate import current_revision, head_revision
from grader.instructor.gradebook.models import Base


def _assert_schema_matches_models(book: Gradebook) -> None:
    with book.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        assert current_revision(connection) == head_revision()


def test_sqlite_schema_matches_models(tmp_path: Path) -> None:
    with Gradebook(f"sqlite:///{tmp_path / 'g.db'}") as book:
        _assert_schema_matches_models(book)
        uniques = inspect(book.engine).get_unique_constraints("gradings")
        assert {"name": "uq_gradings_key"}.items() <= uniques[0].items()
        assert uniques[0]["column_names"] == [
            "student",
            "exercise",
            "content_sha256",
            "verdict_fingerprint",
        ]


def test_postgresql_schema_matches_models(postgres_url: str) -> None:
    with Gradebook(postgres_url) as book:
        _assert_schema_matches_models(book)
    with Gradebook(postgres_url) as again:  # a second open is a no-op
        _assert_schema_matches_models(again)


def test_a_0001_gradebook_upgrades_to_0002_term_keeping_its_rows(tmp_path: Path) -> None:
    from alembic import command
    from sqlalchemy import create_engine

    from grader.instructor.gradebook.migrate import alembic_config
    from tests.unit.grader.instructor.gradebook.factories import code_entry

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Gradebook(url) as book:
        book.record(code_entry("alice"))
        with book.engine.begin() as connection:
            command.downgrade(alembic_config(connection), "0001")  # type: ignore[arg-type]
    engine = create_engine(url)
    with engine.connect() as connection:
        assert current_revision(connection) == "0001"
        assert "roster" not in inspect(connection).get_table_names()
    engine.dispose()
    with Gradebook(url) as book:  # opening upgrades
        _assert_schema_matches_models(book)
        assert [r.student for r in book.results()] == ["alice"]
