"""Flask extensions, created unbound here and bound to the app in ``create_app``."""

from __future__ import annotations

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

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
migrate = Migrate()
csrf = CSRFProtect()
# Table creation and import per client address (create_app: RATELIMIT_* and CARTULINA_CREATE_LIMIT).
limiter = Limiter(key_func=get_remote_address)


def _create_limit() -> str:
    return str(current_app.config["CARTULINA_CREATE_LIMIT"])


# One budget for every way of making a table: the new-table form, the import and POST /api/tables.
create_limit = limiter.shared_limit(_create_limit, scope="create-table", methods=["POST"])
