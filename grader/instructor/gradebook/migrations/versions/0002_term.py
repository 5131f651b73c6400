"""A real term: the roster, received times with lateness and penalty (receipts),
extensions, and the runs that recorded each grading (for undo-run).

Revision ID: 0002_term
Revises: 0002_review (re-chained after issue 21 merged)
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_term"
down_revision = "0002_review"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("gradings") as batch:
        batch.add_column(sa.Column("run_id", sa.Integer(), nullable=True))
    op.create_table(
        "roster",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("email", sa.String(200), nullable=False),
        sa.Column("sis_user_id", sa.String(100), nullable=False),
        sa.Column("sis_login_id", sa.String(100), nullable=False),
        sa.Column("section", sa.String(100), nullable=False),
        sa.Column("imported_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("student", name="pk_roster"),
    )
    op.create_table(
        "receipts",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.Column("received_at", TZ, nullable=False),
        sa.Column("source", sa.String(8), nullable=False),
        sa.Column("due_at", TZ, nullable=True),
        sa.Column("late_by_seconds", sa.Float(), nullable=False),
        sa.Column("penalty", sa.Float(), nullable=False),
        sa.Column("manifest_student", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("student", "exercise", "content_sha256", name="pk_receipts"),
    )
    op.create_table(
        "extensions",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("until", TZ, nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("granted_by", sa.String(120), nullable=False),
        sa.Column("granted_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("student", "exercise", name="pk_extensions"),
    )
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("started_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("description", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_runs"),
    )


def downgrade() -> None:
    op.drop_table("runs")
    op.drop_table("extensions")
    op.drop_table("receipts")
    op.drop_table("roster")
    # not batch mode: on SQLite that copies gradings, and dropping the old table trips the
    # foreign keys of grading_checks/current_results; SQLite >= 3.35 drops a column itself
    op.execute("ALTER TABLE gradings DROP COLUMN run_id")
