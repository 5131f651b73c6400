"""The gradebook: gradings (unique per key) with their checks, current pointers, reviews,
and the distributed runs' finished students.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "gradings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.Column("verdict_fingerprint", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("max_score", sa.Float(), nullable=False),
        sa.Column("isolation", sa.String(16), nullable=True),
        sa.Column("weak_isolation", sa.Boolean(), nullable=False),
        sa.Column("reason_id", sa.String(80), nullable=True),
        sa.Column("reason_params", sa.JSON(), nullable=True),
        sa.Column("summary_id", sa.String(80), nullable=True),
        sa.Column("summary_params", sa.JSON(), nullable=True),
        sa.Column("file_name", sa.String(255), nullable=True),
        sa.Column("content", sa.Text(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("graded_at", TZ, nullable=False),
        sa.Column("worker", sa.String(120), nullable=False),
        sa.Column("grader_version", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_gradings"),
        sa.UniqueConstraint(
            "student", "exercise", "content_sha256", "verdict_fingerprint", name="uq_gradings_key"
        ),
    )
    op.create_index("ix_gradings_student_exercise", "gradings", ["student", "exercise"])
    op.create_table(
        "grading_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("grading_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("category", sa.String(40), nullable=False),
        sa.Column("subject", sa.String(80), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
        sa.Column("max_points", sa.Float(), nullable=False),
        sa.Column("message_id", sa.String(80), nullable=False),
        sa.Column("message_params", sa.JSON(), nullable=False),
        sa.Column("hint_id", sa.String(80), nullable=True),
        sa.Column("hint_params", sa.JSON(), nullable=True),
        sa.Column("label_id", sa.String(80), nullable=True),
        sa.Column("label_params", sa.JSON(), nullable=True),
        sa.Column("evidence", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["grading_id"],
            ["gradings.id"],
            name="fk_grading_checks_grading_id_gradings",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_grading_checks"),
        sa.UniqueConstraint("grading_id", "name", name="uq_grading_checks_name"),
    )
    op.create_table(
        "current_results",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("grading_id", sa.Integer(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
        sa.ForeignKeyConstraint(
            ["grading_id"], ["gradings.id"], name="fk_current_results_grading_id_gradings"
        ),
        sa.PrimaryKeyConstraint("student", "exercise", name="pk_current_results"),
    )
    op.create_table(
        "reviews",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("exercise", sa.String(16), nullable=False),
        sa.Column("final_score", sa.Float(), nullable=True),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("reviewer", sa.String(120), nullable=False),
        sa.Column("reviewed_at", TZ, nullable=False),
        sa.Column("content_sha256", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("student", "exercise", name="pk_reviews"),
    )
    op.create_table(
        "batch_tasks",
        sa.Column("run_id", sa.String(36), nullable=False),
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("finished_at", TZ, nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", "student", name="pk_batch_tasks"),
    )


def downgrade() -> None:
    op.drop_table("batch_tasks")
    op.drop_table("reviews")
    op.drop_table("current_results")
    op.drop_table("grading_checks")
    op.drop_index("ix_gradings_student_exercise", table_name="gradings")
    op.drop_table("gradings")
