"""A new table made from a peña's roster: the hooks the new-table page (``/nueva``) calls.

``GET /nueva?pena=<edit token>&player1=…`` fills the form and remembers the peña in this browser's
session; the table, once created, becomes an evening of that peña.
"""

from __future__ import annotations

import time
from typing import Any

from flask import flash, request
from flask import session as browser
from flask_babel import gettext as _

from scorer import store
from scorer.pena import stats
from scorer.store import penas as ps
from scorer.store.models import Pena, Table
from scorer.web.common import messages
from scorer.web.common.forms import GAME_LABELS

SEATS = 6
PREFILL_KEY = "pena_nueva"  # the peña a new table made from its roster goes to
PREFILL_SECONDS = 3 * 3600


def new_table_prefill() -> dict[str, Any] | None:
    """For ``/nueva``: on ``GET /nueva?pena=<edit token>&player1=…`` the form's data, remembering the peña.

    A plain ``GET /nueva`` forgets it: only the form opened from the peña adds its table to it.
    """
    if request.method != "GET":
        return None
    token = request.args.get("pena")
    pena = _keepers_pena(token) if token else None
    if pena is None:
        browser.pop(PREFILL_KEY, None)
        return None
    browser[PREFILL_KEY] = {"token": pena.edit_token, "at": int(time.time())}
    return _prefill(pena)


def _keepers_pena(token: str) -> Pena | None:
    """The peña of an edit link; None for a view link or an unknown one."""
    try:
        return ps.require_edit(token)
    except store.ServiceError:
        return None


def _prefill(pena: Pena) -> dict[str, Any]:
    """The new-table form's data from the peña's pick: its name, the game, the players seat by seat."""
    data: dict[str, Any] = {"name": pena.name}
    game = request.args.get("game")
    if game in GAME_LABELS:
        data["game"] = game
    for n in range(1, SEATS + 1):
        name = request.args.get(f"player{n}")
        if name:
            data[f"player{n}"] = name[: ps.NAME_MAX]
    return data


def pena_names() -> list[str]:
    """The roster of the peña the new table is for (suggestions for the name fields)."""
    kept = browser.get(PREFILL_KEY)
    if not isinstance(kept, dict):
        return []
    try:
        pena, _ = ps.open_pena(str(kept.get("token")))
    except store.ServiceError:
        return []
    return [p.name for p in pena.people]


def after_table_created(table: Table) -> None:
    """The new table was made from a peña's form: it becomes an evening of the peña (new names become people)."""
    kept = browser.pop(PREFILL_KEY, None)
    if not isinstance(kept, dict) or int(kept.get("at") or 0) < time.time() - PREFILL_SECONDS:
        return
    pena = _keepers_pena(str(kept.get("token")))
    if pena is not None:
        _attach(pena, table)


def _attach(pena: Pena, table: Table) -> None:
    """The table becomes an evening of the peña: the names it does not know surely become new people."""
    session = store.read(table).session_copy()
    choices = {n: ps.NEW for n in stats.names_that_sat(session) if not ps.match_name(pena, n).sure}
    try:
        ps.attach_checked(pena, table, choices)
    except store.ServiceError as exc:
        flash(_("La partida no se ha añadido a la peña: %(reason)s", reason=messages.message(exc)), "error")
        return
    flash(_("Partida añadida a la peña %(pena)s.", pena=pena.name))
