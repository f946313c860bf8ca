"""The games' words without Flask: said in the language being spoken (:func:`scorer.words.speaking`).

``_`` and ``ngettext`` translate at once, as Flask-Babel's ``gettext`` does; ``_l`` keeps a Spanish
msgid and translates it each time it is read (a form's label, a choice, a game's help line), as
Flask-Babel's ``lazy_gettext`` does. The web app speaks the page's language while a request is
served (``scorer.web.common.i18n``), so these follow the page; the scripts/i18n extractor reads all three.
"""

from __future__ import annotations

from typing import Any

from scorer.words import translate, translate_plural


def _(message: str, **params: Any) -> str:
    """``message`` in the language being spoken, its ``%(name)s`` filled in."""
    return translate(message, **params)


def ngettext(singular: str, plural: str, num: int, **params: Any) -> str:
    """The singular or plural of a message for ``num`` (``%(num)s``), in the language being spoken."""
    return translate_plural(singular, plural, num, **params)


class Lazy:
    """A Spanish msgid translated when it is read: ``str()``, in a template, compared, joined."""

    __slots__ = ("_message", "_params")

    def __init__(self, message: str, **params: Any) -> None:
        self._message = message
        self._params = params

    def __str__(self) -> str:
        return translate(self._message, **self._params)

    def __html__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"l'{self}'"

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return getattr(str(self), attr)

    def __len__(self) -> int:
        return len(str(self))

    def __getitem__(self, key: Any) -> str:
        return str(self)[key]

    def __contains__(self, item: str) -> bool:
        return item in str(self)

    def __add__(self, other: str) -> str:
        return str(self) + other

    def __radd__(self, other: str) -> str:
        return other + str(self)

    def __mod__(self, other: Any) -> str:
        said: str = str(self) % other
        return said

    def __eq__(self, other: object) -> bool:
        return str(self) == other

    def __lt__(self, other: str) -> bool:
        return str(self) < other

    def __hash__(self) -> int:
        return hash(str(self))


Text = str | Lazy  # a word said now, or one said when read


def _l(message: str, **params: Any) -> Lazy:
    """``message`` translated each time it is read (Flask-Babel's ``lazy_gettext``, without Flask)."""
    return Lazy(message, **params)


# The values of the rule options (format.md), as the new-table form words them: the refusals
# (scorer.web.messages) and the CSV's rules rows (scorer.games.exports) say them alike.
CHOICE_WORDS: dict[str, Lazy] = {
    "double_rounded": _l("redondear y doblar"),
    "round_doubled": _l("doblar y redondear"),
    "codillo_only": _l("solo el codillo"),
    "codillo_and_conditions": _l("codillo y condiciones"),
    "pays_bola": _l("paga la bola"),
    "free": _l("no paga"),
    "majority_five": _l("5 bazas"),
    "most_tricks": _l("más bazas que cada defensor"),
    "double_sacada": _l("el doble de la sacada (4 × pago)"),
    "double_stake": _l("el doble del pago (2 × pago)"),
    "first_to_three": _l("el primer equipo que llega a tres bazas"),
    "first_three_tricks": _l("las tres primeras bazas"),
}
