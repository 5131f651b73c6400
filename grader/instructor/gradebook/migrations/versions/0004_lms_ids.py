"""The roster keeps each student's LMS identities: Canvas's user id (its gradebook's ``ID``,
the number in its download's file names) and Moodle's participant number.

Revision ID: 0004_lms_ids
Revises: 0003_inbox
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_lms_ids"
down_revision = "0003_inbox"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("roster") as batch:
        batch.add_column(sa.Column("canvas_id", sa.String(100), nullable=False, server_default=""))
        batch.add_column(
            sa.Column("moodle_participant", sa.String(100), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("roster") as batch:
        batch.drop_column("moodle_participant")
        batch.drop_column("canvas_id")
