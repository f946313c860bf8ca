"""The tables and peñas by their links: tokens, opening a link, whether a table may still change."""

from __future__ import annotations

import secrets
from typing import TypeVar

from sqlalchemy import select

from scorer.games import game_of
from scorer.store.db import db
from scorer.store.errors import Forbidden, NotFound
from scorer.store.models import Pena, Table

TOKEN_BYTES = 24  # 192 random bits, 32 URL-safe characters
MAX_TOKEN_LENGTH = 64


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_shaped(token: object) -> bool:
    """Whether a value can be a token (URL-safe base64, 1 to 64 characters): the cookie's, a URL's."""
    return (
        isinstance(token, str)
        and 0 < len(token) <= MAX_TOKEN_LENGTH
        and token.isascii()
        and all(c.isalnum() or c in "-_" for c in token)
    )


def check_open(table: Table) -> None:
    if table.closed:
        rule = game_of(table.ruleset).closing_rule
        raise Forbidden(f"this table is closed ({rule}): it can no longer be changed", code="table_closed", rule=rule)


Linked = TypeVar("Linked", Table, Pena)


def open_linked(model: type[Linked], token: object, unknown: str) -> tuple[Linked, bool]:
    """The table or peña of a token (its edit or view link) and whether the token may change it;
    NotFound, saying ``unknown``, otherwise."""
    found = None
    if token_shaped(token):
        query = select(model).where((model.edit_token == token) | (model.view_token == token))
        found = db.session.scalars(query).first()
    if found is None:
        raise NotFound(unknown)
    return found, secrets.compare_digest(found.edit_token, str(token))


def open_table(token: str) -> tuple[Table, bool]:
    """The table of a token and whether the token may change it; NotFound otherwise."""
    return open_linked(Table, token, "unknown table: check the link")


def require_edit(token: str) -> Table:
    """The table of an edit token; Forbidden for its view token."""
    table, can_edit = open_table(token)
    if not can_edit:
        raise Forbidden("this is the view link: it cannot change the table")
    return table


def unchanged(table: Table) -> bool:
    """Whether the table's revision is still the one loaded.

    A writer may commit between reading the table and reading its hands: what was
    read is cached only when the revision did not move, so a cached value is always
    its revision's.
    """
    return db.session.scalar(select(Table.revision).where(Table.id == table.id)) == table.revision


def revision_is(table: Table, revision: int) -> bool:
    """Whether the table's stored revision is ``revision`` (nothing written since it was read)."""
    return db.session.scalar(select(Table.revision).where(Table.id == table.id)) == revision
