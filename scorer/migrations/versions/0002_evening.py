"""The evening is ending: play on until the plato is won, then close (R30).

Revision ID: 0002_evening
Revises: 0001_initial
Create Date: 2026-11-30 00:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002_evening"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("ending_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("ending_at")
