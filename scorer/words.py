"""The Spanish words of Cartulina, shared by the pages (``scorer.games.views``) and the sheet (``scorer.sheet``).

Standard library and Babel (no Flask). One word per thing, so that the sheet and the pages say the same:
results, lances, suits, the plato and the cartulina, the games; numbers, money and dates are
written by Babel in the language being spoken (:func:`speaking`, Spanish by default): es 1.234,50 €
and 14/03/2025, en €1,234.50 and 03/14/2025, always with the typographic minus.

Whoever shows these words says in which language, for a stretch of code: ``with speaking(tongue):``
(the web app for each of its app contexts, reading Flask-Babel's locale; the sheet and the command
line with the catalog of the language asked for). Nothing outside this module assigns into it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gettext
import re
import zoneinfo
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Protocol

from babel import Locale
from babel.dates import format_date, format_time
from babel.numbers import format_decimal

MINUS = "\u2212"  # typographic minus: clearer than a hyphen on a small screen and on paper
NBSP = "\u00a0"  # between an amount and its currency sign: never split over two lines

# ------------------------------------------------------------------ the language spoken


class Tongue(Protocol):
    """A language and its translations of the Spanish msgids (``gettext.NullTranslations`` says them as they are)."""

    @property
    def language(self) -> str: ...

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


@dataclass(frozen=True)
class Catalog:
    """A fixed language with its compiled catalog (the sheet, the command line)."""

    language: str
    translations: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)


SPANISH = Catalog("es", gettext.NullTranslations())  # the msgids are the Spanish text
_spoken: ContextVar[Tongue] = ContextVar("cartulina_tongue", default=SPANISH)


@contextlib.contextmanager
def speaking(tongue: Tongue) -> Iterator[Tongue]:
    """Say the interface words, numbers, money and dates in ``tongue`` within the ``with`` block (this thread)."""
    token = _spoken.set(tongue)
    try:
        yield tongue
    finally:
        _spoken.reset(token)


def tongue() -> Tongue:
    """The language being spoken: the innermost :func:`speaking`, else Spanish."""
    return _spoken.get()


def translate(message: str, **params: Any) -> str:
    """``message`` (a Spanish msgid) in the language being spoken, with its ``%(name)s`` filled in."""
    text = _spoken.get().gettext(message)
    return text % params if params else text


def translate_plural(singular: str, plural: str, n: int, **params: Any) -> str:
    """The singular or plural of a message for ``n``, in the language being spoken (``%(num)s`` is ``n``)."""
    text = _spoken.get().ngettext(singular, plural, n)
    return text % {"num": n, **params}


def N_(text: str) -> str:
    """Mark ``text`` for extraction (scripts/i18n); it is translated when read (:class:`UIWords`)."""
    return text


class UIWords(dict[str, str]):
    """A dict of Spanish words read in the page's language (``[key]`` and ``get``); game words stay as they are."""

    def __getitem__(self, key: str) -> str:
        return _spoken.get().gettext(super().__getitem__(key))

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401  (self.get is this method)


# ------------------------------------------------------------------ games

GAME_NAMES = {
    "tresillo": "Tresillo",
    "pozo_viuda": "Pozo y viuda",
    "ombre": "Ombre sencillo",
    "bandos": "Juego de bandos",
}
GAME_SHORT_NAMES = {"tresillo": "Tresillo", "pozo_viuda": "Pozo y viuda", "ombre": "Ombre", "bandos": "Bandos"}

# ------------------------------------------------------------ suits, lances

SUITS = ("oros", "copas", "espadas", "bastos")
SUIT_SYMBOLS = {"oros": "\u2666", "copas": "\u2665", "espadas": "\u2660", "bastos": "\u2663"}
RED_SUITS = ("oros", "copas")
LANCE_WORDS = {"entrada": "entrada", "vuelta": "vuelta", "vuelta_solera": "vuelta solera", "solo": "solo"}
# the lances of every rule set (pozo y viuda: juego, volteo, roben, bola, contrabola)
ALL_LANCE_WORDS = {
    **LANCE_WORDS,
    "juego": "juego",
    "volteo": "volteo",
    "roben": "roben",
    "bola": "bola",
    "contrabola": "contrabola",
}


def suit_text(suit: object) -> str:
    """ "oros ♦"; an unknown suit as given, "" for none."""
    if not isinstance(suit, str) or not suit:
        return ""
    return f"{suit} {SUIT_SYMBOLS.get(suit, '')}".rstrip()


def lance_word(lance: object) -> str:
    return ALL_LANCE_WORDS.get(str(lance), str(lance).replace("_", " ")) if lance is not None else ""


# ---------------------------------------------------------------- results

RESULT_WORDS = UIWords(
    {
        "paso": N_("todos pasan"),
        "ganada": N_("ganada"),
        "bola": N_("bola hecha"),  # R19
        "bola_cortada": N_("bola cortada"),  # R19
        "puesta": "puesta",
        "codillo": "codillo",
        "rendida": "rendida",
        "defendida_ganada": N_("defendida, gana el defensor"),  # R28 (a)
        "defendida_puesta": N_("defendida, puestas gemelas"),  # R28 (b)
        "defendida_codillo": N_("defendida, puesta del defensor"),  # R28 (c)
        "defendida_codillo_pobre": N_("defendida, gana la mano pobre"),  # R28 (d)
        "cierre": N_("cierre"),
        "ajuste": "ajuste",  # R32
        "sienta": N_("cambio de jugador"),  # R33
        "contrabola": "contrabola",
        "perdida": N_("perdida"),
        "mano": "mano",
        "fin": N_("fin del juego"),
    }
)


def result_word(result: object, ruleset: str = "tresillo") -> str:
    """The word of a ledger result; Ombre says *sacada* for a won hand."""
    if ruleset == "ombre" and result == "ganada":
        return "sacada"
    text = str(result or "")
    return str(RESULT_WORDS.get(text, text.replace("_", " ")))


FALTA_WORDS = {"fuera_de_turno": "fuera de turno", "renuncio": "renuncio"}

# ------------------------------------------------- plato, pots, cartulina

PLATO_WORDS = UIWords(
    {"sin_puesta": N_("sin puesta"), "primera": N_("con puesta primera"), "reservada": N_("con puesta reservada")}
)
PLATO_MARKS = {"sin_puesta": "", "primera": "p", "reservada": "r"}  # after the amount in a narrow column
POT_WORDS = UIWords({"plato": N_("el plato"), "pozo": N_("el pozo"), "viuda": N_("la viuda"), "bote": N_("el bote")})
GAME_POT_WORDS = UIWords({"tresillo": N_("el plato"), "pozo_viuda": N_("el pozo y la viuda"), "ombre": N_("el bote")})
CARTULINA_WORDS = UIWords(
    {
        "pendiente": N_("pendiente"),
        "en_plato": N_("en el plato"),
        "cobrada": N_("cobrada"),
        "anulada": N_("anulada"),
        "devuelta": N_("devuelta"),
        "repartida": N_("repartida"),  # R30 repartir
    }
)
CONCEPT_WORDS = UIWords(
    {
        "dar": N_("por dar"),
        "enchilada": "enchilada",
        "juego": N_("por jugar"),
        "plato": N_("el plato"),
        "puesta": "puesta",
        "puesta_reservada": N_("puesta reservada"),  # English: "reserved puesta" (the word stays, not the adjective)
        "condiciones": N_("condiciones"),
        "codillo": "codillo",
        "bola_cortada": N_("bola cortada"),
        "puesta_defendida": "puesta defendida",
        "devolucion": N_("devolución"),
        "ajuste": "ajuste",  # R32
        # pozo y viuda
        "pozo_inicial": N_("pozo inicial"),
        "viuda_inicial": N_("viuda inicial"),
        "pase": N_("todos pasan"),
        "pozo_nuevo": N_("pozo nuevo"),
        "dulces": "dulces",
        "pozo": N_("el pozo"),
        "viuda": N_("la viuda"),
        "viuda_nueva": N_("viuda nueva"),
        "bola": "bola",
        "viuda_doble": N_("dobla la viuda"),
        "matadores": "matadores",
        "premio": N_("premio"),
        "reparto": N_("reparto"),
        # ombre
        "sacada": "sacada",
        "bote": N_("el bote"),
    }
)

# ------------------------------------------------ events of the evening

# R32: the quick reasons of an ajuste (stored as the start of its note)
AJUSTE_REASONS = ("renuncio", "mal reparto", "corrección")
# their chips in the page's language (the stored note keeps the Spanish key); renuncio is a game word
AJUSTE_REASON_WORDS = UIWords(
    {"renuncio": "renuncio", "mal reparto": N_("mal reparto"), "corrección": N_("corrección")}
)
# R30: the two closings of Tresillo, as a keeper reads them
CLOSE_WORDS = UIWords({"devolver": N_("se devuelve el plato"), "repartir": N_("se reparte el plato")})


# ---------------------------------------------------------------- numbers


def language() -> str:
    """The language to format in: the one being spoken (:func:`speaking`), else Spanish."""
    return _spoken.get().language or "es"


def _grouped(value: int | Decimal, places: int = 0) -> str:
    """A non-negative number with the locale's grouping and decimal signs (es 1.234,50; en 1,234.50)."""
    # a sheet writes the same few numbers thousands of times; a Decimal by its text (1.5 and 1.50 differ)
    return _formatted(value if isinstance(value, int) else str(value), places, language())


@lru_cache(maxsize=4096)
def _formatted(value: int | str, places: int, locale: str) -> str:
    pattern = "#,##0" + ("." + "0" * places if places else "")
    number = value if isinstance(value, int) else Decimal(value)
    return format_decimal(number, format=pattern, locale=locale, decimal_quantization=False)


def plain(tantos: int) -> str:
    """Tantos: "1.215", "−65", "0"."""
    return (MINUS if tantos < 0 else "") + _grouped(abs(tantos))


def signed(tantos: int) -> str:
    """Tantos with their sign: "+215", "−1.065", "0"."""
    if tantos == 0:
        return "0"
    return ("+" if tantos > 0 else MINUS) + _grouped(abs(tantos))


def parse_decimal(value: object) -> Decimal | None:
    """ "0,05", "0.05", "1.234,5", 5 or Decimal("0.05") as a Decimal; None for blank or not a number."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    cleaned = str(value).strip().replace(" ", "").replace(NBSP, "")
    if not cleaned:
        return None
    if "," in cleaned:
        cleaned = cleaned.replace(".", "").replace(",", ".")  # "1.234,5" → "1234.5"
    try:
        number = Decimal(cleaned)
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


TANTO_SANE = (Decimal("0.000001"), Decimal(10) ** 6)  # beyond, money cannot be shown exactly (D4)


def tanto_value(value: object) -> Decimal | None:
    """A table's tanto value (the app key, a decimal string): None unless a positive amount.

    New tables take 0.01 to 1000 (scorer/limits.py); one stored earlier outside
    TANTO_SANE, or with more than six decimals, shows tantos only instead of failing.
    """
    number = parse_decimal(value)
    if number is None or not TANTO_SANE[0] <= number <= TANTO_SANE[1]:
        return None
    return number if number == number.quantize(TANTO_SANE[0]) else None


def decimal_text(value: Decimal) -> str:
    """A Decimal with the decimal comma and no exponent ("0,05")."""
    text = format(value, "f")
    places = len(text.partition(".")[2].rstrip("0"))
    return format_decimal(value, format="0." + "#" * places if places else "0", locale=language())


CURRENCY_SIGNS = {"EUR": "€", "USD": "$", "GBP": "£"}


def currency_sign(currency: object) -> str:
    """The sign of a currency code ("EUR" → "€"); anything else as given, "" for none."""
    if currency is None:
        return ""
    text = str(currency).strip()
    return CURRENCY_SIGNS.get(text.upper(), text)


def money_text(tantos: int, value: Decimal, currency: str = "", *, sign: bool = False) -> str:
    """Tantos × the tanto value, exact: "1.234,50 €", "−3,25 €", "+7,50 €" with ``sign``.

    As many decimals as the tanto value has, at least two, so a column of one table aligns.
    """
    amount = value * tantos
    exponent = value.normalize().as_tuple().exponent
    places = max(2, -exponent if isinstance(exponent, int) else 2)
    quantum = Decimal(1).scaleb(-places)
    text = _grouped(abs(amount).quantize(quantum, rounding=ROUND_HALF_UP), places)  # half up, to the cent
    prefix = "" if amount == 0 else MINUS if amount < 0 else "+" if sign else ""
    symbol = currency_sign(currency)
    if not symbol:
        return f"{prefix}{text}"
    # where the locale puts the sign: after a no-break space (es "1.234,50 €"), or before (en "€1,234.50")
    if Locale.parse(language()).currency_formats["standard"].pattern.lstrip("'").startswith("\u00a4"):
        return f"{prefix}{symbol}{NBSP if len(symbol) > 1 else ''}{text}"
    return f"{prefix}{text}{NBSP}{symbol}"


# ------------------------------------------------------------ dates, times


def date_text(value: object) -> str:
    """An ISO date (or date-time) as the page writes it ('2025-03-14' → '14/03/2025', English '14 Mar 2025');
    anything else as given."""
    if value is None or value == "":
        return ""
    if isinstance(value, dt.date):
        return _date(value)
    text = str(value).strip()
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    return _date(moment)


def _widened(pattern: str) -> str:
    """A CLDR short pattern with two-digit day, month and 24-hour and a four-digit year (d/M/yy → dd/MM/yyyy)."""
    return re.sub(r"(?<![dMH])([dMH])(?!\1)", r"\1\1", re.sub(r"y+", "yyyy", pattern))


# English writes the month's name: "03/14/2025" reads as 3 December to half the world, "14 Mar 2025" to nobody
UNAMBIGUOUS_DATES = {"en": "d MMM yyyy"}


def _date(value: dt.date) -> str:
    """A date as the page's language writes it plainly: es 14/03/2025 (dd/mm/aaaa), en 14 Mar 2025."""
    locale = Locale.parse(language())
    pattern = UNAMBIGUOUS_DATES.get(locale.language) or _widened(locale.date_formats["short"].pattern)
    return format_date(value, pattern, locale=locale)


def _clock(value: dt.datetime) -> str:
    """A time of day as the locale writes it (es 23:30, en 11:30 PM)."""
    locale = Locale.parse(language())
    return format_time(value, _widened(locale.time_formats["short"].pattern), locale=locale)


def known_timezone(name: object) -> bool:
    """Whether ``name`` is an IANA time zone this system knows ("Europe/Madrid")."""
    if not isinstance(name, str) or not 0 < len(name) <= 64:
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def time_text(moment: dt.datetime, timezone: object = None) -> str:
    """A stored time (naive UTC) as dd/mm/aaaa hh:mm in the table's time zone, or labelled "UTC" when unknown."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    if isinstance(timezone, str) and known_timezone(timezone):
        local = moment.astimezone(zoneinfo.ZoneInfo(timezone))
        return f"{_date(local)} {_clock(local)}"
    moment = moment.astimezone(dt.UTC)
    return f"{_date(moment)} {_clock(moment)} UTC"
