"""The table of a request, resolved once from the ``<token>`` of its address (I Hate Money's
``pull_project``): a blueprint of table pages calls :func:`resolve_tables`, and before each of its
views the table of the link is in ``g.table`` and ``g.keeper`` says whether the link is the
keeper's (the edit link) or a player's (the view link).

The views take it with :func:`linked_table` (either link) or :func:`keepers_table` (a write: the
view link is refused). An unknown link is refused there, not before the view, so that each view
still says it its own way (a page, a JSON error, a refused entry of the offline queue)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g

from scorer import store
from scorer.store.models import Table


def pull_table(_endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Before the view: the table of ``values["token"]`` into ``g.table`` (None for an unknown link,
    whose refusal waits in ``g.table_refusal``) and whether the link may change it into ``g.keeper``."""
    g.table, g.keeper, g.table_refusal = None, False, None
    token = (values or {}).get("token")
    if token is None:
        return
    try:
        g.table, g.keeper = store.open_table(token)
    except store.NotFound as exc:
        g.table_refusal = exc


def resolve_tables(bp: Blueprint) -> None:
    """Every view of ``bp`` with a ``<token>`` in its address finds its table in ``g``."""
    bp.url_value_preprocessor(pull_table)


def linked_table() -> Table:
    """The request's table, by either of its links; NotFound for an unknown link."""
    found: Table | None = g.get("table")
    if found is None:
        raise g.get("table_refusal") or store.NotFound("unknown table: check the link")
    return found


def is_keeper() -> bool:
    """Whether the request came by the table's edit link (its keeper's)."""
    return bool(g.get("keeper"))


def keepers_table() -> Table:
    """The request's table for a write: Forbidden for its view link, NotFound for an unknown link."""
    found = linked_table()
    if not is_keeper():
        raise store.Forbidden("this is the view link: it cannot change the table")
    return found
