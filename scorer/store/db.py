"""The SQLAlchemy ``db`` object every model and query of the store uses (bound to the app in ``create_app``)."""

from __future__ import annotations

import pathlib

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# The Alembic migrations of the stored tables (scorer/migrations).
MIGRATIONS = pathlib.Path(__file__).resolve().parent.parent / "migrations"

# Named constraints, so that Alembic migrations can refer to them on every backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base of every model."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
