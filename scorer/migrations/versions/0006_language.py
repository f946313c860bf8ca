"""The language a table's sheet prints in: "es" or "en", Spanish for the tables before.

Revision ID: 0006_language
Revises: 0005_perf
Create Date: 2026-12-01 01:30:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006_language"
down_revision = "0005_perf"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=False, server_default="es"))


def downgrade():
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("language")
