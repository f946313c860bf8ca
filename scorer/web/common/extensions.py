"""The web app's Flask extensions, created unbound here and bound to the app in ``create_app``: CSRF
protection, the creation rate limit and the migrations (the database's ``db`` is the store's)."""

from __future__ import annotations

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect

migrate = Migrate()
csrf = CSRFProtect()
# Table creation and import per client address (create_app: RATELIMIT_* and CARTULINA_CREATE_LIMIT).
limiter = Limiter(key_func=get_remote_address)


def _create_limit() -> str:
    return str(current_app.config["CARTULINA_CREATE_LIMIT"])


# One budget for every way of making a table: the new-table form, the import and POST /api/tables.
create_limit = limiter.shared_limit(_create_limit, scope="create-table", methods=["POST"])
