"""At the table with no network: the service worker's route and the hand forms it keeps.

- ``/sw.js``: ``static/sw.js`` served from the root with ``Service-Worker-Allowed: /``, so its
  scope is the whole app (a worker's scope may not be wider than its own folder otherwise).
- ``/t/<token>/mano/tras/<k>``: the new-hand form as it will be after ``k`` more deals, for the
  phone to keep (the dealer moves on with every deal, and with four players the alcalde is not
  offered). The dealer is the engine's: ``k`` deals are played on a copy of the table's settled
  state as passes (a pass deals like any hand; nothing is saved). The page is the very form of
  ``/t/<token>/mano``; ``static/offline.js`` queues what is saved on it while offline.
- ``forms_cycle``: the form addresses the table page offers to keep (one per seat: the dealers
  come round again).

The queued entries are sent to ``POST /api/tables/<token>/entries/form`` (scorer/web/api/entries.py), which
reads the form's fields with the same code as the form's own POST.
"""

from __future__ import annotations

import ast
import datetime as dt
import functools
import pathlib
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, g, request, send_from_directory, url_for
from markupsafe import Markup

from scorer import hand_fields, store, words
from scorer.engine import SessionError
from scorer.games import game_of
from scorer.games import views as present
from scorer.games.views import names_at
from scorer.web.common.hand_form import hand_form
from scorer.web.common.i18n import translations
from scorer.web.common.pages import refusals_as_pages
from scorer.web.common.table import keepers_table, resolve_tables
from scorer.web.tables.forms import hand_page

bp = Blueprint("offline", __name__)
resolve_tables(bp)  # the table of the link, once per request: g.table
refusals_as_pages(bp)  # the same Spanish pages as the table's

MAX_AHEAD = 12  # the most deals a phone keeps forms for (a cycle is the number of seats, 3 to 6)


@bp.get("/sw.js")
def service_worker() -> Response:
    response = send_from_directory(current_app.static_folder or "static", "sw.js", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    return response


def dealers_ahead(table: Any, deals: int) -> list[int]:
    """The seats that deal the next ``deals`` deals, by the engine (deals played as passes on a copy
    of the settled state; nothing saved). A rule set with no passed hand (bandos) keeps the last
    dealer found: its form offers every seat."""
    settlement = store.read(table).page_settlement  # the page's: no settle of the whole table on a cold worker
    dealer = settlement.next_dealer
    dealers = [dealer]
    while len(dealers) < deals:
        try:
            settlement = settlement.add({"pass": True})
            dealer = settlement.next_dealer
        except SessionError:
            pass
        dealers.append(dealer)
    return dealers


def dealer_after(table: Any, ahead: int) -> int:
    """The seat that deals ``ahead`` deals after the next one (:func:`dealers_ahead`)."""
    return dealers_ahead(table, ahead + 1)[ahead]


def forms_cycle(table: Any) -> list[str]:
    """The addresses of the new-hand form for the next deals, one per seat (then they repeat);
    none when no more hands are entered (closed, or a game over by itself: Ombre O6, bandos B4)."""
    if table.closed or store.read(table).totals.get("over"):
        return []
    return store.read(  # the same addresses until the table changes (the table page asks twice)
        table
    ).kept(
        "offline_forms",
        lambda: [
            url_for("offline.hand_form_ahead", token=table.edit_token, ahead=k) for k in range(len(table.players))
        ],
    )


def pages_to_keep(table: Any) -> list[str]:
    """Other forms the table page has the phone keep for offline (those the queue takes)."""
    if table.closed or not game_of(table.ruleset).evening:  # R32: the ajuste is Tresillo's
        return []
    # R32, R33: an ajuste and a cambio de jugador take no deal; one copy of each
    return [
        url_for("evening.ajuste", token=table.edit_token),
        url_for("evening.cambio", token=table.edit_token),
        url_for("evening.favor", token=table.edit_token),  # R34
    ]


KEEP_HEADER = "X-Cartulina-Keep"


def is_kept_copy() -> bool:
    """Whether this page is fetched by the service worker to be kept for offline (static/sw.js sends
    ``X-Cartulina-Keep: 1``), not opened by a person: such a copy must not take the flashed messages
    meant for the page the person is opening at the same moment (the save message after a POST)."""
    return request.headers.get(KEEP_HEADER) == "1"


@bp.before_app_request
def quiet_kept_copies() -> None:
    """A page fetched to be kept never rewrites the session cookie (scorer/web/common/pages.py QuietSessions)."""
    if is_kept_copy():
        g.quiet_session = True


@bp.app_context_processor
def offline_context() -> dict[str, Any]:
    """For the pages: when this copy was made (shown when it is opened offline), the forms to keep."""
    # to the millisecond: static/offline.js tells the phone's copy of a page from a new one by it
    rendered = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {
        "rendered_at": rendered,
        "kept_copy": is_kept_copy(),
        "offline_forms": forms_cycle,
        "offline_pages": pages_to_keep,
        "offline_place": offline_place,
        "offline_ahead": offline_ahead,
        "offline_words": offline_words,
    }


@functools.lru_cache(maxsize=1)
def reader_messages() -> tuple[str, ...]:
    """What ``scorer/hand_fields.py`` can say about a form (the Spanish text of each ``_(...)`` in it)."""
    tree = ast.parse(pathlib.Path(hand_fields.__file__).read_text(encoding="utf-8"))
    found = {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }
    return tuple(sorted(found))


_words_cache = store.page_cache(16)  # (rule set, language) → the words below


def offline_words(ruleset: str) -> dict[str, dict[str, str]]:
    """The words the phone's engine needs to speak the page's language offline (a hand form's
    ``data-offline-words``): ``reader``, the form reader's messages translated (none in Spanish,
    their own language), and ``results``, each result's word as the pages say it."""
    language = words.language()

    def make() -> dict[str, dict[str, str]]:
        spoken = translations()
        reader = {} if language == "es" else {m: spoken.gettext(m) for m in reader_messages()}
        return {"reader": reader, "results": {code: words.result_word(code, ruleset) for code in words.RESULT_WORDS}}

    return dict(_words_cache.made((ruleset, language), make))


@dataclass(frozen=True)
class Ahead:
    """The table's next turn ``k`` deals after the one it shows (the table page offline)."""

    k: int
    deal: int
    turn: present.Turn | None
    roles: present.Roles | None


def offline_ahead(table: Any, view: Any, game: Any) -> list[Ahead]:
    """Who deals and plays each of the next deals (one per seat, then they repeat), as the table page
    shows the next one (``view.roles``, ``game.turn``): static/offline.js shows the one after the
    entries waiting on the phone. None when the page shows no turn or no hand can follow."""
    if not forms_cycle(table) or not (view.roles or game.turn) or game.over:
        return []
    names = view_names(table)
    count = store.read(table).page_settlement.count
    ahead = []
    for k, dealer in enumerate(dealers_ahead(table, len(names))[1:], 1):
        ahead.append(
            Ahead(
                k,
                count + 1 + k,
                present.turn(names, dealer) if game.turn else None,
                present.roles(names, dealer) if view.roles else None,
            )
        )
    return ahead


def view_names(table: Any) -> list[str]:
    """The people seated for the next hand (R33: a change of player moves them)."""
    if not game_of(table.ruleset).evening:
        return list(table.players)
    return store.read(table).derived("view_names", _names_next)  # once per revision, no copy of the ledger


def _names_next(session: dict[str, Any], ledger: dict[str, Any]) -> list[str]:
    return list(names_at(session, ledger, len(ledger.get("hands") or []) + 1))


def offline_place(table: Any) -> Markup:
    """A queueable form's attributes: the entry it takes and the table's revision (scorer/web/api/queue.py)."""
    deal = store.read(table).page_settlement.count + 1
    return Markup('data-deal="%d" data-table-revision="%d"') % (deal, table.revision)


@bp.get("/t/<token>/mano/tras/<int:ahead>")
def hand_form_ahead(token: str, ahead: int) -> Any:
    table = keepers_table()
    if ahead > MAX_AHEAD or not forms_cycle(table):
        raise store.NotFound(f"no form {ahead} deals ahead")
    # the deal it is for, and the state it was made against: the queue sends both (api/queue.py)
    deal = store.read(table).page_settlement.count + 1 + ahead
    form = hand_form(table, dealer_after(table, ahead), deal=deal, table_revision=table.revision)
    page, status = hand_page(table, token, form, None, None, 200)
    response = current_app.make_response((page, status))
    response.headers["Cache-Control"] = "no-cache"
    return response
