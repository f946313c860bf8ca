"""Explanations as data: every transfer's ``detail`` has a stable code and its numbers.

A :class:`Detail` is the Spanish text the ledger's ``detail`` has always said (the command line
prints it unchanged: ``5 por jugar + 20 solo = 25; a favor ×2 = 50``) and, alongside, the same
explanation as data, ``{"code": …, "params": {…}}``, written as the transfer's ``why``. A page
renders ``why`` in its reader's language through its catalogs (``scorer.games.explain``), as the
errors are (:mod:`scorer.engine.errors`, ``scorer.web.common.messages``).

Every rule set with money writes them: Tresillo's codes are bare, pozo y viuda's start ``pv_``,
Ombre's ``om_`` (the juego de bandos moves no tantos between people: its hands have no transfers).

``params`` are whole numbers, a lance's name, a few fixed words (``word`` of a condition, below), lists of
``[tantos, word]`` and, for a puesta, the nested explanation of how much it is (``puesta``).

Condition words (``CONDITION_WORDS``) name the parts of an amount: ``por jugar`` (R16's 5),
the lances (``entrada``, ``vuelta``, ``vuelta solera``, ``solo``), ``bola``, ``bola cortada``,
``estuches``, ``contraestuches``, ``primeras``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
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


class Detail:
    """An explanation, written when it is read: its code and numbers now, its words on first use.

    Settling a hand only records ``code`` and ``params`` (cheap); ``str(detail)`` formats the Spanish
    text the ledger's ``detail`` has always said, once, and :meth:`data` gives ``{"code", "params"}``.
    A Detail cannot be changed from outside: ``code`` and ``params`` are read-only (``params`` a
    read-only view), :meth:`data` gives a new dict each time.
    """

    __slots__ = ("_code", "_params", "_text")

    def __init__(self, code: str, **params: Any) -> None:
        self._code = code
        self._params = params
        self._text: str | None = None

    def __copy__(self) -> Detail:
        return self

    def __deepcopy__(self, memo: object) -> Detail:
        return self  # immutable: a copy is itself

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuilt, (type(self), self._code, self._params))

    @property
    def code(self) -> str:
        return self._code

    @property
    def params(self) -> Mapping[str, Any]:
        return MappingProxyType(self._params)

    @property
    def built(self) -> bool:
        """Whether the words were written already (read once)."""
        return self._text is not None

    def _written(self) -> str:
        return TEMPLATES[self._code].format_map(self._params)  # a number or a nested Detail formats as str()

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._written()
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._code!r}, {str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Detail):
            return self._code == other._code and self._params == other._params
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def data(self) -> JSON:
        """``{"code", "params"}``: plain JSON, a nested explanation as its own data (a new dict each time)."""
        return {
            "code": self._code,
            "params": {k: v.data() if isinstance(v, Detail) else v for k, v in self._params.items()},
        }


def _rebuilt(cls: type[Detail], code: str, params: dict[str, Any]) -> Detail:
    """A pickled Detail back (its words are written again when read)."""
    made = object.__new__(cls)
    made._code, made._params, made._text = code, params, None
    return made


class Conditions(Detail):
    """R14–R15: the conditions added, rounded up and doubled a favor, e.g.
    ``5 por jugar + 3 estuches + 1 primeras = 9 → 10; a favor ×2 = 20``.

    ``parts``: ``[tantos, word]``; ``total`` their sum; ``rounded`` (when rounding changed it);
    ``favor``: the doubled amount before rounding; ``favor_rounded`` (when rounding changed that).
    """

    __slots__ = ()

    def __init__(
        self,
        parts: tuple[tuple[int, str], ...],
        total: int,
        rounded: int | None = None,
        favor: int | None = None,
        favor_rounded: int | None = None,
    ) -> None:
        super().__init__(
            "condiciones", parts=parts, total=total, rounded=rounded, favor=favor, favor_rounded=favor_rounded
        )

    def _written(self) -> str:
        p = self._params
        return conditions_text(p["parts"], p["total"], p["rounded"], p["favor"], p["favor_rounded"], lambda w: w)

    def data(self) -> JSON:
        p = self._params
        return {
            "code": "condiciones",
            "params": {
                "parts": [[v, w] for v, w in p["parts"]],
                "total": p["total"],
                "rounded": p["rounded"],
                "favor": p["favor"],
                "favor_rounded": p["favor_rounded"],
            },
        }


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


def why(detail: str | Detail) -> JSON | None:
    """The data of an explanation, or None for plain text (another rule set's words)."""
    return detail.data() if isinstance(detail, Detail) else None


_set = dict.__setitem__


class Moved(dict[str, Any]):
    """A transfer of the ledger whose explanation is written when it is first read.

    It holds ``from``, ``to``, ``amount`` and ``concept`` from the start and its :class:`Detail`
    aside; any read (a key, ``in``, iteration, ``items()``, ``==``, ``json.dumps``, a copy, …)
    first adds ``detail`` (the Spanish text) and ``why`` (its data), in that order, so it reads
    and serialises exactly as the dict it stands for. orjson reads a dict's storage directly:
    :func:`written` fills every transfer of a ledger before handing it over.
    """

    __slots__ = ("_detail",)

    _detail: Detail | None

    @classmethod
    def of(cls, source: int | str, target: int | str, amount: int, concept: str, detail: Detail) -> Moved:
        """The transfer, its explanation still to be written."""
        made = cls({"from": source, "to": target, "amount": amount, "concept": concept})
        made._detail = detail
        return made

    def fill(self) -> Moved:
        """Write the explanation now (once); return self."""
        detail = self._detail
        if detail is not None:
            self._detail = None
            text = detail._text
            if text is None:
                text = detail._text = detail._written()
            _set(self, "detail", text)
            _set(self, "why", detail.data())
        return self

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Moved):
            other.fill()
        return dict.__eq__(self.fill(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (list(dict.items(self.fill())),))  # a copy or a pickle is the plain dict it stands for

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return self.__reduce__()

    @property
    def pending(self) -> bool:
        """Whether the explanation is still to be written (nothing read it yet)."""
        return self._detail is not None


def _filling(name: str) -> Any:
    plain = getattr(dict, name)

    def method(self: Moved, *args: Any, **kwargs: Any) -> Any:
        if self._detail is not None:
            self.fill()
        return plain(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = plain.__doc__
    return method


for _name in (
    "__getitem__", "__contains__", "__iter__", "__len__", "__repr__", "__or__", "__ror__",
    "__ior__", "__setitem__", "__delitem__", "__reversed__", "get", "keys", "values", "items", "copy", "pop",
    "popitem", "setdefault", "update", "clear",
):  # fmt: skip
    setattr(Moved, _name, _filling(_name))


def written(ledger: JSON) -> JSON:
    """Write the explanation of every transfer of a ledger still unread, in place; return the ledger.

    For writers that read a dict's storage without asking it (orjson). Transfers live in the
    entries of ``hands`` only (format.md)."""
    for entry in ledger.get("hands", ()):
        for moved in dict.get(entry, "transfers", ()):
            if type(moved) is Moved and moved._detail is not None:
                moved.fill()
    return ledger
