"""The tables this browser keeps (the signed session cookie): what the home page lists, the names
the new-table form suggests, and a table imported from a session file (also used by the peña's page)."""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask import session as browser
from flask_babel import gettext as _

from scorer import store
from scorer.engine.errors import MESSAGES as ENGINE_CODES
from scorer.store.models import Table
from scorer.web.common import messages

REMEMBERED_TABLES = 30  # edit tokens kept in the cookie: ~35 bytes each, far below the 4 KB a cookie may hold


def kept_tokens(key: str = "tables", most: int = REMEMBERED_TABLES) -> list[str]:
    """The edit tokens this browser keeps under ``key`` of the signed cookie ("tables", or the peña
    pages' "penas"); anything else in it is ignored (D2)."""
    kept = browser.get(key)
    if not isinstance(kept, list):
        return []
    return [t for t in kept[:most] if store.token_shaped(t)]


def keep_first(token: str, key: str = "tables", most: int = REMEMBERED_TABLES) -> None:
    """List ``token`` first under ``key`` of the cookie, at most ``most`` kept."""
    tokens = kept_tokens(key, most)
    if tokens[:1] != [token]:
        browser[key] = [token, *(t for t in tokens if t != token)][:most]
    if not browser.permanent:  # setting it again would count as a change and rewrite the cookie
        browser.permanent = True


def remember(table: Any) -> None:
    """This browser created, imported or opened the table with its edit link: list it on its home page."""
    keep_first(table.edit_token)


def my_tables() -> list[store.TableSummary]:
    """The tables of the home page: this browser's (most recent first in the cookie), or all of them."""
    if current_app.config.get("CARTULINA_HOME_LISTS_ALL"):
        return store.list_tables()
    tokens = kept_tokens()
    return _still_here(tokens, store.list_tables(tokens)) if tokens else []


def _still_here(tokens: list[str], tables: list[store.TableSummary]) -> list[store.TableSummary]:
    """The tables found; the cookie forgets the others (tables no longer here: another database)."""
    found = {t.edit_token for t in tables}
    if len(found) < len(tokens):
        browser["tables"] = [t for t in tokens if t in found]
    return tables


def known_names() -> list[str]:
    """Names seen at this browser's earlier tables, for the new-table form's suggestions."""
    seen: dict[str, str] = {}
    for summary in my_tables():
        for name in summary.players:
            seen.setdefault(name.casefold(), name)
    return sorted(seen.values(), key=str.casefold)


def import_text(text: str) -> tuple[Table | None, str | None]:
    """A new table from a session file, remembered by this browser; or why nothing was imported."""
    try:
        table = store.import_session(text)
    except store.Invalid as exc:
        return None, _("No se ha importado nada: %(reason)s", reason=explain_import(exc))
    remember(table)  # listed on this browser's home page
    return table, None


def explain_import(exc: store.Invalid) -> str:
    """An import refusal in Spanish, naming the hand when one is wrong."""
    if exc.hand is not None and exc.code in ENGINE_CODES:
        return _("la mano %(n)s no es posible. %(reason)s", n=exc.hand, reason=messages.message(exc))
    if exc.hand is not None:  # the limits
        return _("la mano %(n)s: %(reason)s", n=exc.hand, reason=messages.message(exc))
    return messages.message(exc)
