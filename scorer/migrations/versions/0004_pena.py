"""Peñas: a roster of people and the tables (evenings) that belong to it.

Revision ID: 0004_pena
Revises: 0003_hostile
Create Date: 2026-12-01 00:00:00

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004_pena"
down_revision = "0003_hostile"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "penas",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edit_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penas")),
        sa.UniqueConstraint("edit_token", name=op.f("uq_penas_edit_token")),
        sa.UniqueConstraint("view_token", name=op.f("uq_penas_view_token")),
    )
    op.create_table(
        "pena_people",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pena_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("nickname", sa.String(length=80), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name=op.f("fk_pena_people_pena_id_penas"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pena_people")),
    )
    op.create_index(op.f("ix_pena_people_pena_id"), "pena_people", ["pena_id"], unique=False)
    op.create_table(
        "pena_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pena_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("attached_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["pena_id"], ["penas.id"], name=op.f("fk_pena_tables_pena_id_penas"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_pena_tables_table_id_tables"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pena_tables")),
        sa.UniqueConstraint("table_id", name="uq_pena_tables_table"),
    )
    op.create_index(op.f("ix_pena_tables_pena_id"), "pena_tables", ["pena_id"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_pena_tables_pena_id"), table_name="pena_tables")
    op.drop_table("pena_tables")
    op.drop_index(op.f("ix_pena_people_pena_id"), table_name="pena_people")
    op.drop_table("pena_people")
    op.drop_table("penas")
