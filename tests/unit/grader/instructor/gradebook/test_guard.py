"""A gradebook the grader did not create is refused (exit 2) before anything is written:
another tool's SQLite with its own ``alembic_version`` (nbgrader's layout), a ``gradings``
table of another schema, a text file; a read-only open of a missing path creates nothing.
Each file is byte-for-byte unchanged afterwards, and no -wal/-shm file appears."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from grader.errors import EXIT_USAGE, UsageError
from grader.instructor.gradebook import Gradebook


def nbgrader_like(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY);
            INSERT INTO alembic_version VALUES ('167914646830');
            CREATE TABLE assignment (id VARCHAR(32) PRIMARY KEY, name VARCHAR(128));
            CREATE TABLE student (id VARCHAR(128) PRIMARY KEY, first_name VARCHAR(128));
            CREATE TABLE grade (id VARCHAR(32) PRIMARY KEY, auto_score FLOAT);
            INSERT INTO student VALUES ('alice', 'Alice');
            """
        )
    sqlite3.connect(path).close()


def other_gradings(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE gradings (who TEXT, points REAL); INSERT INTO gradings VALUES ('a', 1);"
        )


def text_file(path: Path) -> None:
    path.write_text("student,score\nalice,3\n", encoding="utf-8")


def ours_beside_a_stranger(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE gradings (id INT, verdict_fingerprint TEXT);"
            "CREATE TABLE notebooks (id INT, name TEXT);"
        )


def a_stranger_with_our_revision(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY);"
            "INSERT INTO alembic_version VALUES ('0001');"
            "CREATE TABLE notebooks (id INT, name TEXT);"
        )


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "nbgrader": (nbgrader_like, "error.db_foreign_revision"),
    "gradings_other_schema": (other_gradings, "error.db_foreign_schema"),
    "text": (text_file, "error.db_not_database"),
    "ours_beside_a_stranger": (ours_beside_a_stranger, "error.db_foreign"),
    "a_stranger_with_our_revision": (a_stranger_with_our_revision, "error.db_foreign"),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("must_exist", [False, True])
def test_a_foreign_file_is_refused_and_left_unchanged(
    tmp_path: Path, case: str, must_exist: bool
) -> None:
    make, reason = CASES[case]
    path = tmp_path / "gradebook.db"
    make(path)
    before = path.read_bytes()
    with pytest.raises(UsageError) as raised:
        Gradebook(f"sqlite:///{path}", must_exist=must_exist)
    assert (raised.value.message_id, raised.value.exit_code) == (reason, EXIT_USAGE)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gradebook.db"]


def test_a_missing_path_is_refused_for_reading_and_created_for_grading(tmp_path: Path) -> None:
    path = tmp_path / "typo.db"
    with pytest.raises(UsageError) as raised:
        Gradebook(f"sqlite:///{path}", must_exist=True)
    assert raised.value.message_id == "error.db_missing"
    assert list(tmp_path.iterdir()) == []
    with Gradebook(f"sqlite:///{path}") as book:
        assert book.results() == []
    with Gradebook(f"sqlite:///{path}", must_exist=True) as again:  # ours now: accepted
        assert again.grading_count() == 0


def test_an_empty_file_is_a_new_gradebook(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    path.touch()
    with Gradebook(f"sqlite:///{path}") as book:
        assert book.results() == []


def test_a_foreign_postgresql_database_is_refused_before_writing(postgres_url: str) -> None:
    from sqlalchemy import create_engine, inspect, text

    engine = create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE gradings (who TEXT, points REAL)"))
    try:
        with pytest.raises(UsageError) as raised:
            Gradebook(postgres_url)
        assert raised.value.message_id == "error.db_foreign_schema"
        assert inspect(engine).get_table_names() == ["gradings"]  # no alembic_version added
    finally:
        engine.dispose()


def test_a_gradebook_another_process_is_creating_is_accepted(tmp_path: Path) -> None:
    """SQLite commits each CREATE TABLE alone: a worker opening the gradebook while the
    master migrates it sees some of our tables and no revision yet; that is not foreign."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from grader.instructor.gradebook.guard import check_gradebook
    from grader.instructor.gradebook.migrate import known_revisions

    path = tmp_path / "g.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE gradings (id INTEGER PRIMARY KEY, student VARCHAR(64))")
        db.execute("CREATE TABLE alembic_version (version_num VARCHAR(32))")
    url = make_url(f"sqlite:///{path}")
    engine = create_engine(url)
    check_gradebook(url, engine, known_revisions(), must_exist=True)  # no exception
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE gradings ADD COLUMN points REAL")  # not one of our columns
    with pytest.raises(UsageError) as raised:
        check_gradebook(url, engine, known_revisions(), must_exist=True)
    assert raised.value.message_id == "error.db_foreign_schema"
    engine.dispose()
