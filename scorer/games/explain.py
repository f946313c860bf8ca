"""A transfer's explanation in the reader's language.

The engine writes each transfer's explanation (Tresillo, pozo y viuda, Ombre) twice: ``detail``,
its Spanish text (what the command line prints), and ``why``, the same as data: a code and its numbers
(:mod:`scorer.engine.details`). A page says ``why`` through the catalogs; a transfer without it
(an old ledger) keeps its ``detail``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scorer.engine.details import conditions_text
from scorer.games.text import _, _l
from scorer.words import lance_word

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
    # pozo y viuda
    "pv_pozo_inicial": lambda p: _("pozo inicial: cada jugador pone %(amount)s", amount=p["amount"]),
    "pv_viuda_inicial": lambda p: _("viuda inicial: cada jugador pone %(amount)s", amount=p["amount"]),
    "pv_pozo_nuevo": lambda p: _("pozo vacío: cada jugador pone %(amount)s", amount=p["amount"]),
    "pv_pase": lambda p: _("todos pasan: cada jugador pone %(amount)s al pozo", amount=p["amount"]),
    "pv_pozo": lambda p: _("se lleva el pozo: %(amount)s", amount=p["amount"]),
    "pv_viuda": lambda p: _("se lleva la viuda: %(amount)s", amount=p["amount"]),
    "pv_viuda_nueva": lambda p: _("viuda nueva: cada jugador pone %(amount)s", amount=p["amount"]),
    "pv_matadores": lambda p: _("%(matadores)s matadores", matadores=p["matadores"]),
    "pv_matadores_favor": lambda p: _("%(matadores)s matadores ×2 a favor", matadores=p["matadores"]),
    "pv_premio": lambda p: _("premio %(lance)s %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]),
    "pv_premio_favor": lambda p: _(
        "premio %(lance)s a favor %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]
    ),
    "pv_dulces": lambda p: _(
        "%(mat)s = %(m)s + %(premio)s = %(amount)s",
        mat=explain_why(p["mat"]),
        m=p["m"],
        premio=explain_why(p["premio"]),
        amount=p["amount"],
    ),
    "pv_dulces_primeras": lambda p: _(
        "%(mat)s = %(m)s + %(premio)s + 1 primeras = %(amount)s",
        mat=explain_why(p["mat"]),
        m=p["m"],
        premio=explain_why(p["premio"]),
        amount=p["amount"],
    ),
    "pv_bola": lambda p: _(
        "%(mat)s = %(m)s + 1 primeras + %(premio)s bola = %(amount)s",
        mat=explain_why(p["mat"]),
        m=p["m"],
        premio=p["premio"],
        amount=p["amount"],
    ),
    "pv_declarada": lambda p: _(
        "%(mat)s = %(m)s + %(premio)s %(lance)s = %(amount)s",
        mat=explain_why(p["mat"]),
        m=p["m"],
        premio=p["premio"],
        lance=lance_word(p["lance"]),
        amount=p["amount"],
    ),
    "pv_cortada_viuda": lambda p: _("bola cortada: dobla la viuda, pone %(amount)s", amount=p["amount"]),
    "pv_cortada_paga": lambda p: _("bola cortada: paga %(amount)s", amount=p["amount"]),
    "pv_puesta": lambda p: _("puesta: dobla el pozo, pone %(amount)s", amount=p["amount"]),
    "pv_roben_favor": lambda p: _("roben a favor perdido: dobla la viuda, pone %(amount)s", amount=p["amount"]),
    "pv_matadores_viuda": lambda p: _("%(mat)s a la viuda = %(m)s", mat=explain_why(p["mat"]), m=p["m"]),
    "pv_paga_premio": lambda p: _("premio %(lance)s: %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]),
    "pv_paga_premio_favor": lambda p: _(
        "premio %(lance)s a favor: %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]
    ),
    "pv_codillo": lambda p: _("codillo: paga lo que tenía el pozo, %(amount)s", amount=p["amount"]),
    "pv_perdida_pozo": lambda p: _(
        "%(lance)s perdida: dobla el pozo, pone %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]
    ),
    "pv_perdida_viuda": lambda p: _(
        "%(lance)s perdida: dobla la viuda, pone %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]
    ),
    "pv_perdida_paga": lambda p: _(
        "%(lance)s perdida: paga %(amount)s", lance=lance_word(p["lance"]), amount=p["amount"]
    ),
    "pv_reparto": lambda p: _(
        "reparto: %(total)s entre %(seats)s = %(share)s", total=p["total"], seats=p["seats"], share=p["share"]
    ),
    "pv_reparto_resto": lambda p: _(
        "reparto: %(total)s entre %(seats)s = %(share)s + 1 de resto",
        total=p["total"],
        seats=p["seats"],
        share=p["share"],
    ),
    # Ombre
    "om_matadores": lambda p: _("matadores: cobra %(amount)s del bote", amount=p["amount"]),
    "om_sacada": lambda p: _("sacada: %(lance)s %(stake)s", lance=lance_word(p["lance"]), stake=p["stake"]),
    "om_sacada_vole": lambda p: _(
        "sacada: %(lance)s %(stake)s + %(vole)s vole = %(amount)s",
        lance=lance_word(p["lance"]),
        stake=p["stake"],
        vole=p["vole"],
        amount=p["amount"],
    ),
    "om_bote": lambda p: _("se lleva el bote: %(amount)s", amount=p["amount"]),
    "om_puesta": lambda p: _(
        "puesta: 2 × %(lance)s %(stake)s = %(amount)s al bote",
        lance=lance_word(p["lance"]),
        stake=p["stake"],
        amount=p["amount"],
    ),
    "om_codille_sacada": lambda p: _(
        "codille: 2 × sacada (2 × %(lance)s %(stake)s) = %(amount)s",
        lance=lance_word(p["lance"]),
        stake=p["stake"],
        amount=p["amount"],
    ),
    "om_codille": lambda p: _(
        "codille: 2 × %(lance)s %(stake)s = %(amount)s",
        lance=lance_word(p["lance"]),
        stake=p["stake"],
        amount=p["amount"],
    ),
    "om_reparto": lambda p: _(
        "reparto del bote: %(total)s entre %(seats)s = %(share)s", total=p["total"], seats=p["seats"], share=p["share"]
    ),
    "om_reparto_resto": lambda p: _(
        "reparto del bote: %(total)s entre %(seats)s = %(share)s + 1 de resto",
        total=p["total"],
        seats=p["seats"],
        share=p["share"],
    ),
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
