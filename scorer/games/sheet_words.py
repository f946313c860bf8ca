"""What the printed sheet says of each game, without the web app: its name, its rules in words, its columns.

The sheet (:mod:`scorer.sheet`) and the command line take a :class:`GameWords` (``scorer.games.game_words``);
the sentences are Spanish msgids, said in the language being spoken (:func:`scorer.words.speaking`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scorer.words import GAME_NAMES, suit_text
from scorer.words import translate as _


@dataclass(frozen=True)
class GameWords:
    """One rule set's words on the sheet."""

    ruleset: str
    rules_lines: Callable[[Mapping[str, Any]], list[str]]  # the table's options as sentences (defaults included)
    extras_header: str = "Mat."  # the hand table's column of estuches (Tresillo) or matadores

    @property
    def name(self) -> str:
        return GAME_NAMES.get(self.ruleset, self.ruleset)


def present(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options the table set: a null one is its default (format.md, "Every rule set")."""
    return {key: value for key, value in rules.items() if value is not None}


def _tresillo_rules(rules: Mapping[str, Any]) -> list[str]:
    """The table's options as sentences in Spanish (defaults included, so the sheet is complete)."""
    r = present(rules)
    favor = r.get("favor_suit")
    lines = [
        _("Palo de favor: %(suit)s.", suit=suit_text(favor)) if favor else _("Sin palo de favor."),
        _("El que da pone %(stake)s en el plato cada mano.", stake=r.get("dealer_stake", 5)),
    ]
    enchilada = r.get("enchilada", 0)
    lines.append(_("Enchilada de %(amount)s.", amount=enchilada) if enchilada else _("Sin enchilada."))
    rounding = r.get("rounding", 5)
    lines.append(
        _("Se redondea al alza a múltiplos de %(rounding)s.", rounding=rounding)
        if rounding and rounding > 1
        else _("Sin redondeo.")
    )
    # said without a favour suit too: the table may name one during the evening (R34)
    lines.append(
        _("A favor se dobla lo ya redondeado.")
        if r.get("favor_doubling", "double_rounded") == "double_rounded"
        else _("A favor se redondea el doble.")
    )
    lines.append(
        _("Una vuelta al palo de favor es a favor.")
        if r.get("vuelta_at_favor", True)
        else _("Una vuelta al palo de favor no es a favor.")
    )
    lines.append(
        _("Se admite la vuelta solera.") if r.get("vuelta_solera", True) else _("No se admite la vuelta solera.")
    )
    lines.append(
        _("Solo o vuelta solera con codillo: paga el codillo y las condiciones.")
        if r.get("solo_codillo", "codillo_only") == "codillo_and_conditions"
        else _("Solo o vuelta solera con codillo: paga solo el codillo, sin puesta.")
    )
    lines.append(
        _("Bola cortada: el jugador paga la bola.")
        if r.get("failed_bola", "pays_bola") == "pays_bola"
        else _("Bola cortada: no se paga la bola.")
    )
    return lines


def _pozo_viuda_rules(rules: Mapping[str, Any]) -> list[str]:
    r = present(rules)
    favor = r.get("favor_suit") or "oros"  # null = absent = oros (P: always a favour suit)
    return [
        _("Palo de favor: %(suit)s.", suit=suit_text(favor)) if favor else _("Sin palo de favor."),
        _(
            "Cada jugador pone %(pozo)s en el pozo y %(viuda)s en la viuda.",
            pozo=r.get("pozo_stake", 5),
            viuda=r.get("viuda_stake", 25),
        ),
        _("El pozo tiene como máximo %(cap)s veces lo que ponen todos.", cap=r.get("pozo_cap", 4)),
        _("Se admite la contrabola.") if r.get("contrabola", False) else _("No se admite la contrabola."),
    ]


def _ombre_rules(rules: Mapping[str, Any]) -> list[str]:
    r = present(rules)
    lines = [
        _("Sacada: %(stake)s de cada uno (%(solo)s un solo).", stake=r.get("stake", 10), solo=r.get("solo_stake", 20)),
        _("Todas las bazas: %(bonus)s más de cada uno.", bonus=r.get("vole_bonus", 10)),
        _("Matadores: %(bonus)s del bote.", bonus=r.get("matador_bonus", 5)),
        _("Gana el hombre con más bazas que cada defensor (4-3-2 gana).")
        if r.get("outcome", "majority_five") == "most_tricks"
        else _("Gana el hombre con 5 bazas; 4-3-2 es puesta."),
        _("Codillo: el doble de la puesta de cada uno.")
        if r.get("codille", "double_sacada") == "double_stake"
        else _("Codillo: dos sacadas de cada uno (4 × la puesta)."),  # O4
    ]
    if r.get("deals"):
        lines.append(_("La partida dura %(deals)s manos.", deals=r["deals"]))
    if r.get("target"):
        lines.append(_("La partida acaba al llegar a %(target)s.", target=r["target"]))
    return lines


def _bandos_rules(rules: Mapping[str, Any]) -> list[str]:
    r = present(rules)
    return [
        _("Se juega a %(target)s tantos.", target=r.get("target", 12)),
        _(
            "Falta por jugar fuera de turno: %(fuera)s; renuncio: %(renuncio)s.",
            fuera=r.get("fuera_de_turno", 1),
            renuncio=r.get("renuncio", 1),
        ),
        _("Se apunta la mano quien gana las tres primeras bazas; si se reparten, nadie.")
        if r.get("scoring", "first_to_three") == "first_three_tricks"
        else _("Se apunta la mano el bando que llega antes a tres bazas."),  # B2, B5
    ]


def _other_rules(rules: Mapping[str, Any]) -> list[str]:
    return [f"{key}: {value}" for key, value in rules.items() if key != "ruleset"]


GAME_WORDS = {
    "tresillo": GameWords("tresillo", _tresillo_rules, extras_header="Est."),
    "pozo_viuda": GameWords("pozo_viuda", _pozo_viuda_rules),
    "ombre": GameWords("ombre", _ombre_rules),
    "bandos": GameWords("bandos", _bandos_rules),
}


def game_words(ruleset: object) -> GameWords:
    """The words of a rule set; an unknown one lists its options as they are (Tresillo when none is named)."""
    name = str(ruleset or "tresillo")
    return GAME_WORDS.get(name) or GameWords(name, _other_rules)
