"""The inbox: each roster student's hand-in token, and every hand-in it accepted
(version, sha256, size, the server's received time, the manifest's file hashes).

Revision ID: 0003_inbox
Revises: 0002_term
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_inbox"
down_revision = "0002_term"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "inbox_tokens",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("token", sa.String(100), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.PrimaryKeyConstraint("student", name="pk_inbox_tokens"),
    )
    op.create_table(
        "handins",
        sa.Column("student", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("received_at", TZ, nullable=False),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("student", "version", name="pk_handins"),
    )


def downgrade() -> None:
    op.drop_table("handins")
    op.drop_table("inbox_tokens")
