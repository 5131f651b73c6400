"""Alembic environment: run by ``grader.instructor.gradebook.migrate`` on a connection it passes in
(``config.attributes["connection"]``); there is no alembic.ini."""

from __future__ import annotations

from alembic import context

from grader.instructor.gradebook.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
