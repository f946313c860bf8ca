"""Snapshots of settled tables (derived data, rebuilt when missing or stale).

Revision ID: 0005_perf
Revises: 0004_pena
Create Date: 2026-12-01 00:40:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005_perf"
down_revision = "0004_pena"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "snapshots",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("checksum", sa.String(length=64), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_snapshots_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_snapshots")),
        sa.UniqueConstraint("table_id", "count", name="uq_snapshots_table_count"),
    )
    op.create_index(op.f("ix_snapshots_table_id"), "snapshots", ["table_id"], unique=False)
    # the live hands of a table in order, and its deleted ones, without reading the others
    op.create_index("ix_hands_table_deleted_seq", "hands", ["table_id", "deleted_at", "seq"], unique=False)


def downgrade():
    op.drop_index("ix_hands_table_deleted_seq", table_name="hands")
    op.drop_index(op.f("ix_snapshots_table_id"), table_name="snapshots")
    op.drop_table("snapshots")
