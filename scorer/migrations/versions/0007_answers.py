"""The players' answers to each hand: who, agrees or not, a note, and the version answered.

Revision ID: 0007_answers
Revises: 0006_language
Create Date: 2026-12-01 16:40:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007_answers"
down_revision = "0006_language"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("hand_revision", sa.Integer(), nullable=False),
        sa.Column("hand", sa.JSON(), nullable=False),
        sa.Column("person", sa.String(length=80), nullable=False),
        sa.Column("agrees", sa.Boolean(), nullable=False),
        sa.Column("note", sa.String(length=400), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_answers_table_id_tables"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_answers_hand_id_hands"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_answers")),
    )
    op.create_index(op.f("ix_answers_table_id"), "answers", ["table_id"], unique=False)
    op.create_index(op.f("ix_answers_hand_id"), "answers", ["hand_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_answers_hand_id"), table_name="answers")
    op.drop_index(op.f("ix_answers_table_id"), table_name="answers")
    op.drop_table("answers")
