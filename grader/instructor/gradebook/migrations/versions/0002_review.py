"""Decisions bound to what was read: the grading a review was made on, a version for
optimistic concurrency (two reviewers), and the answer group a decision came from.

Answer groups themselves are not stored: they are computed from the gradebook's current
texts and rubric results on every read (``grader.instructor.gradebook.groups``).

Revision ID: 0002_review
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_review"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("reviews") as table:
        table.add_column(sa.Column("grading_id", sa.Integer(), nullable=True))
        table.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))
        table.add_column(sa.Column("group_key", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reviews") as table:
        table.drop_column("group_key")
        table.drop_column("version")
        table.drop_column("grading_id")
