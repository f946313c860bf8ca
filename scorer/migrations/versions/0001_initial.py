"""Initial schema: tables, hands, hand_events.

Revision ID: 0001_initial
Revises:
Create Date: 2025-01-01 00:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("header", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
        sa.UniqueConstraint("edit_token", name=op.f("uq_tables_edit_token")),
        sa.UniqueConstraint("view_token", name=op.f("uq_tables_view_token")),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=100), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("deleted_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_hands_table_id_tables"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("table_id", "request_id", name="uq_hands_table_request"),
        sa.UniqueConstraint("table_id", "seq", name="uq_hands_table_seq"),
    )
    op.create_index(op.f("ix_hands_table_id"), "hands", ["table_id"], unique=False)
    op.create_table(
        "hand_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_hand_events_hand_id_hands"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_hand_events_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_events")),
    )
    op.create_index(op.f("ix_hand_events_hand_id"), "hand_events", ["hand_id"], unique=False)
    op.create_index(op.f("ix_hand_events_table_id"), "hand_events", ["table_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_hand_events_table_id"), table_name="hand_events")
    op.drop_index(op.f("ix_hand_events_hand_id"), table_name="hand_events")
    op.drop_table("hand_events")
    op.drop_index(op.f("ix_hands_table_id"), table_name="hands")
    op.drop_table("hands")
    op.drop_table("tables")
