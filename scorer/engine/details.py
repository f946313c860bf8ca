"""Explanations as data: every transfer's ``detail`` has a stable code and its numbers.

A :class:`Detail` is the Spanish text the ledger's ``detail`` has always said (the command line
prints it unchanged: ``5 por jugar + 20 solo = 25; a favor ×2 = 50``) and, alongside, the same
explanation as data, ``{"code": …, "params": {…}}``, written as the transfer's ``why``. A page
renders ``why`` in its reader's language through its catalogs (``scorer.web.explain``), as the
errors are (:mod:`scorer.engine.errors`, ``scorer.web.messages``).

Every rule set with money writes them: Tresillo's codes are bare, pozo y viuda's start ``pv_``,
Ombre's ``om_`` (the juego de bandos moves no tantos between people: its hands have no transfers).

``params`` are whole numbers, a lance's name, a few fixed words (``word`` of a condition, below), lists of
``[tantos, word]`` and, for a puesta, the nested explanation of how much it is (``puesta``).

Condition words (``CONDITION_WORDS``) name the parts of an amount: ``por jugar`` (R16's 5),
the lances (``entrada``, ``vuelta``, ``vuelta solera``, ``solo``), ``bola``, ``bola cortada``,
``estuches``, ``contraestuches``, ``primeras``.
"""

from __future__ import annotations

from typing import Any, Final

JSON = dict[str, Any]

TEMPLATES: Final[dict[str, str]] = {
    "dar": "el que da pone {amount}",  # R5
    "enchilada": "enchilada de {amount}",  # R6
    "plato": "se lleva el plato: {amount}",  # R17
    "puesta_reservada": "puesta reservada de la mano {hand} al plato: {amount}",  # R18
    "plato_entero": "lo que hay en el plato: {plato}",  # R21, case 2
    "plato_mas": "plato {plato} + {extra} = {total}",  # R21, case 1
    "plato_mas_favor": "plato {plato} + {extra} a favor = {total}",  # R21, case 1 a favor
    "codillo": "codillo: paga la puesta ({puesta})",  # R23
    "defensor_gana": "el defensor gana: cobra la puesta ({puesta})",  # R28 (a)
    "codillo_pobre": "codillo del pobre: el defensor paga la puesta ({puesta})",  # R28 (d)
    "devolucion": "se devuelve lo que puso en el plato: {amount}",  # R30 devolver
    "reparto": "reparto del plato: {total} entre {seats} = {share}",  # R30 repartir
    "reparto_resto": "reparto del plato: {total} entre {seats} = {share} + 1 de resto",
    "ajuste_cada": "ajuste: {amount} a cada uno",  # R32
    "ajuste_plato": "ajuste: {amount} al plato",
    "ajuste": "ajuste: {amount}",
    # pozo y viuda (rules/pozo-viuda.md)
    "pv_pozo_inicial": "pozo inicial: cada jugador pone {amount}",  # P1
    "pv_viuda_inicial": "viuda inicial: cada jugador pone {amount}",  # P1
    "pv_pozo_nuevo": "pozo vacío: cada jugador pone {amount}",  # P2
    "pv_pase": "todos pasan: cada jugador pone {amount} al pozo",  # P3
    "pv_pozo": "se lleva el pozo: {amount}",  # P5
    "pv_viuda": "se lleva la viuda: {amount}",  # P5
    "pv_viuda_nueva": "viuda nueva: cada jugador pone {amount}",  # P5
    "pv_matadores": "{matadores} matadores",  # M
    "pv_matadores_favor": "{matadores} matadores ×2 a favor",
    "pv_premio": "premio {lance} {amount}",
    "pv_premio_favor": "premio {lance} a favor {amount}",
    "pv_dulces": "{mat} = {m} + {premio} = {amount}",  # P5
    "pv_dulces_primeras": "{mat} = {m} + {premio} + 1 primeras = {amount}",
    "pv_bola": "{mat} = {m} + 1 primeras + {premio} bola = {amount}",  # P8
    "pv_declarada": "{mat} = {m} + {premio} {lance} = {amount}",  # P9
    "pv_cortada_viuda": "bola cortada: dobla la viuda, pone {amount}",  # P10
    "pv_cortada_paga": "bola cortada: paga {amount}",  # P10
    "pv_puesta": "puesta: dobla el pozo, pone {amount}",  # P6
    "pv_roben_favor": "roben a favor perdido: dobla la viuda, pone {amount}",
    "pv_matadores_viuda": "{mat} a la viuda = {m}",
    "pv_paga_premio": "premio {lance}: {amount}",
    "pv_paga_premio_favor": "premio {lance} a favor: {amount}",
    "pv_codillo": "codillo: paga lo que tenía el pozo, {amount}",  # P7
    "pv_perdida_pozo": "{lance} perdida: dobla el pozo, pone {amount}",  # P9
    "pv_perdida_viuda": "{lance} perdida: dobla la viuda, pone {amount}",
    "pv_perdida_paga": "{lance} perdida: paga {amount}",
    "pv_reparto": "reparto: {total} entre {seats} = {share}",  # P11
    "pv_reparto_resto": "reparto: {total} entre {seats} = {share} + 1 de resto",
    # Ombre (rules/ombre.md)
    "om_matadores": "matadores: cobra {amount} del bote",  # O5
    "om_sacada": "sacada: {lance} {stake}",  # O2
    "om_sacada_vole": "sacada: {lance} {stake} + {vole} vole = {amount}",
    "om_bote": "se lleva el bote: {amount}",
    "om_puesta": "puesta: 2 × {lance} {stake} = {amount} al bote",  # O3
    "om_codille_sacada": "codille: 2 × sacada (2 × {lance} {stake}) = {amount}",  # O4
    "om_codille": "codille: 2 × {lance} {stake} = {amount}",
    "om_reparto": "reparto del bote: {total} entre {seats} = {share}",  # O7
    "om_reparto_resto": "reparto del bote: {total} entre {seats} = {share} + 1 de resto",
}
CONDITION_WORDS: Final[tuple[str, ...]] = (
    "por jugar",
    "entrada",
    "vuelta",
    "vuelta solera",
    "solo",
    "bola",
    "bola cortada",
    "estuches",
    "contraestuches",
    "primeras",
)


class Detail(str):
    """The Spanish explanation (a ``str``: the ledger's ``detail``) carrying its code and numbers."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> Detail:
        text = TEMPLATES[code].format(**{k: str(v) for k, v in params.items()})
        made = super().__new__(cls, text)
        made.code = code
        made.params = params
        return made

    def data(self) -> JSON:
        """``{"code", "params"}``: plain JSON, a nested explanation as its own data."""
        return {"code": self.code, "params": {k: _data(v) for k, v in self.params.items()}}


class Conditions(Detail):
    """R14–R15: the conditions added, rounded up and doubled a favor, e.g.
    ``5 por jugar + 3 estuches + 1 primeras = 9 → 10; a favor ×2 = 20``.

    ``parts``: ``[tantos, word]``; ``total`` their sum; ``rounded`` (when rounding changed it);
    ``favor``: the doubled amount before rounding; ``favor_rounded`` (when rounding changed that).
    """

    def __new__(
        cls,
        parts: tuple[tuple[int, str], ...],
        total: int,
        rounded: int | None = None,
        favor: int | None = None,
        favor_rounded: int | None = None,
    ) -> Conditions:
        made = str.__new__(cls, conditions_text(parts, total, rounded, favor, favor_rounded, lambda w: w))
        made.code = "condiciones"
        made.params = {
            "parts": [[v, w] for v, w in parts],
            "total": total,
            "rounded": rounded,
            "favor": favor,
            "favor_rounded": favor_rounded,
        }
        return made


def conditions_text(
    parts: Any, total: int, rounded: int | None, favor: int | None, favor_rounded: int | None, word: Any
) -> str:
    """The arithmetic of an amount of conditions; ``word`` spells each condition word (a page: translated)."""
    shown = [(int(v), str(w)) for v, w in parts if v]
    text = " + ".join(f"{v} {word(w)}" for v, w in shown) or "0"
    if len(shown) > 1:
        text += f" = {total}"
    if rounded is not None:
        text += f" → {rounded}"
    if favor is not None:
        text += f"; {word('a favor')} ×2 = {favor}"
        if favor_rounded is not None:
            text += f" → {favor_rounded}"
    return text


def _data(value: Any) -> Any:
    if isinstance(value, Detail):
        return value.data()
    return value


def why(detail: str) -> JSON | None:
    """The data of an explanation, or None for plain text (another rule set's words)."""
    return detail.data() if isinstance(detail, Detail) else None
