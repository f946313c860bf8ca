"""A hand remembers the hash of the body its Idempotency-Key came with.

Revision ID: 0003_hostile
Revises: 0002_evening
Create Date: 2026-12-01 00:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003_hostile"
down_revision = "0002_evening"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("request_hash", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("request_hash")
