"""A transfer's explanation in the reader's language (issue 25).

The engine writes each Tresillo transfer's explanation twice: ``detail``, its Spanish text (what
the command line prints), and ``why``, the same as data: a code and its numbers
(:mod:`scorer.engine.details`). A page says ``why`` through the catalogs; a transfer without it
(another rule set, an old ledger) keeps its ``detail``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorer.engine.details import conditions_text

SAY: dict[str, Callable[..., str]] = {
    "dar": lambda p: _("el que da pone %(amount)s", amount=p["amount"]),
    "enchilada": lambda p: _("enchilada de %(amount)s", amount=p["amount"]),
    "plato": lambda p: _("se lleva el plato: %(amount)s", amount=p["amount"]),
    "puesta_reservada": lambda p: _(
        "puesta reservada de la mano %(hand)s al plato: %(amount)s", hand=p["hand"], amount=p["amount"]
    ),
    "plato_entero": lambda p: _("lo que hay en el plato: %(plato)s", plato=p["plato"]),
    "plato_mas": lambda p: _(
        "plato %(plato)s + %(extra)s = %(total)s", plato=p["plato"], extra=p["extra"], total=p["total"]
    ),
    "plato_mas_favor": lambda p: _(
        "plato %(plato)s + %(extra)s a favor = %(total)s", plato=p["plato"], extra=p["extra"], total=p["total"]
    ),
    "codillo": lambda p: _("codillo: paga la puesta (%(puesta)s)", puesta=explain_why(p["puesta"])),
    "defensor_gana": lambda p: _("el defensor gana: cobra la puesta (%(puesta)s)", puesta=explain_why(p["puesta"])),
    "codillo_pobre": lambda p: _(
        "codillo del pobre: el defensor paga la puesta (%(puesta)s)", puesta=explain_why(p["puesta"])
    ),
    "devolucion": lambda p: _("se devuelve lo que puso en el plato: %(amount)s", amount=p["amount"]),
    "reparto": lambda p: _(
        "reparto del plato: %(total)s entre %(seats)s = %(share)s", total=p["total"], seats=p["seats"], share=p["share"]
    ),
    "reparto_resto": lambda p: _(
        "reparto del plato: %(total)s entre %(seats)s = %(share)s + 1 de resto",
        total=p["total"],
        seats=p["seats"],
        share=p["share"],
    ),
    "ajuste_cada": lambda p: _("ajuste: %(amount)s a cada uno", amount=p["amount"]),
    "ajuste_plato": lambda p: _("ajuste: %(amount)s al plato", amount=p["amount"]),
    "ajuste": lambda p: _("ajuste: %(amount)s", amount=p["amount"]),
}
# the words of an amount's conditions: game words stay, the rest is said in the page's language
WORDS = {"por jugar": _l("por jugar"), "bola cortada": _l("bola cortada")}


def _word(word: str) -> str:
    return str(WORDS.get(word, word))


def explain_why(why: Any) -> str:
    """An explanation's data (``{"code", "params"}``) in the page's language."""
    if not isinstance(why, Mapping):
        return str(why or "")
    code, params = str(why.get("code", "")), why.get("params") or {}
    if code == "condiciones":
        return conditions_text(
            params.get("parts") or [],
            int(params.get("total", 0)),
            params.get("rounded"),
            params.get("favor"),
            params.get("favor_rounded"),
            _word,
        )
    say = SAY.get(code)
    try:
        return say(params) if say else ""
    except (KeyError, TypeError):
        return ""


def explain(transfer: Mapping[str, Any]) -> str:
    """A transfer's explanation for the reader: its ``why`` through the catalogs, else its ``detail``."""
    said = explain_why(transfer.get("why")) if transfer.get("why") else ""
    return said or str(transfer.get("detail", ""))
