"""The Spanish words of Cartulina, shared by the pages (``scorer.web.present``) and the sheet (``scorer.sheet``).

Pure: standard library only. One word per thing, so that the sheet and the pages say the same:
results, lances, suits, the plato and the cartulina, the games, numbers and money (decimal
comma, dot for thousands, typographic minus, currency sign after a no-break space) and dates
(dd/mm/aaaa).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal, InvalidOperation

MINUS = "\u2212"  # typographic minus: clearer than a hyphen on a small screen and on paper
NBSP = "\u00a0"  # between an amount and its currency sign: never split over two lines

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

RESULT_WORDS = {
    "paso": "todos pasan",
    "ganada": "ganada",
    "bola": "bola hecha",  # R19
    "bola_cortada": "bola cortada",  # R19
    "puesta": "puesta",
    "codillo": "codillo",
    "rendida": "rendida",
    "defendida_ganada": "defendida, gana el defensor",  # R28 (a)
    "defendida_puesta": "defendida, puestas gemelas",  # R28 (b)
    "defendida_codillo": "defendida, puesta del defensor",  # R28 (c)
    "defendida_codillo_pobre": "defendida, gana la mano pobre",  # R28 (d)
    "cierre": "cierre",
    "ajuste": "ajuste",  # R32
    "sienta": "cambio de jugador",  # R33
    "contrabola": "contrabola",
    "perdida": "perdida",
    "mano": "mano",
    "fin": "fin del juego",
}


def result_word(result: object, ruleset: str = "tresillo") -> str:
    """The word of a ledger result; Ombre says *sacada* for a won hand."""
    if ruleset == "ombre" and result == "ganada":
        return "sacada"
    text = str(result or "")
    return RESULT_WORDS.get(text, text.replace("_", " "))


FALTA_WORDS = {"fuera_de_turno": "fuera de turno", "renuncio": "renuncio"}

# ------------------------------------------------- plato, pots, cartulina

PLATO_WORDS = {"sin_puesta": "sin puesta", "primera": "con puesta primera", "reservada": "con puesta reservada"}
PLATO_MARKS = {"sin_puesta": "", "primera": "p", "reservada": "r"}  # after the amount in a narrow column
POT_WORDS = {"plato": "el plato", "pozo": "el pozo", "viuda": "la viuda", "bote": "el bote"}
GAME_POT_WORDS = {"tresillo": "el plato", "pozo_viuda": "el pozo y la viuda", "ombre": "el bote"}
CARTULINA_WORDS = {
    "pendiente": "pendiente",
    "en_plato": "en el plato",
    "cobrada": "cobrada",
    "anulada": "anulada",
    "devuelta": "devuelta",
    "repartida": "repartida",  # R30 repartir
}
CONCEPT_WORDS = {
    "dar": "por dar",
    "enchilada": "enchilada",
    "juego": "juego",
    "plato": "el plato",
    "puesta": "puesta",
    "puesta_reservada": "puesta reservada",
    "condiciones": "condiciones",
    "codillo": "codillo",
    "bola_cortada": "bola cortada",
    "puesta_defendida": "puesta defendida",
    "devolucion": "devolución",
    "ajuste": "ajuste",  # R32
    # pozo y viuda
    "pozo_inicial": "pozo inicial",
    "viuda_inicial": "viuda inicial",
    "pase": "todos pasan",
    "pozo_nuevo": "pozo nuevo",
    "dulces": "dulces",
    "pozo": "el pozo",
    "viuda": "la viuda",
    "viuda_nueva": "viuda nueva",
    "bola": "bola",
    "viuda_doble": "dobla la viuda",
    "matadores": "matadores",
    "premio": "premio",
    "reparto": "reparto",
    # ombre
    "sacada": "sacada",
    "bote": "el bote",
}

# ------------------------------------------------ events of the evening

# R32: the quick reasons of an ajuste (stored as the start of its note)
AJUSTE_REASONS = ("renuncio", "mal reparto", "corrección")
# R30: the two closings of Tresillo, as a keeper reads them
CLOSE_WORDS = {"devolver": "se devuelve el plato", "repartir": "se reparte el plato"}


# ---------------------------------------------------------------- numbers


def _grouped(value: int) -> str:
    return f"{value:,}".replace(",", ".")


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


TANTO_SANE = (Decimal("0.000001"), Decimal(10) ** 6)  # beyond, money cannot be shown exactly (issue 12, D4)


def tanto_value(value: object) -> Decimal | None:
    """A table's tanto value (the app key, a decimal string): None unless a positive amount.

    New tables take 0.01 to 1000 (scorer/web/limits.py); one stored earlier outside
    TANTO_SANE, or with more than six decimals, shows tantos only instead of failing.
    """
    number = parse_decimal(value)
    if number is None or not TANTO_SANE[0] <= number <= TANTO_SANE[1]:
        return None
    return number if number == number.quantize(TANTO_SANE[0]) else None


def decimal_text(value: Decimal) -> str:
    """A Decimal with the decimal comma and no exponent ("0,05")."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", ",")


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
    whole, _, cents = format(abs(amount).quantize(quantum), "f").partition(".")
    text = f"{_grouped(int(whole))},{cents}"
    prefix = "" if amount == 0 else MINUS if amount < 0 else "+" if sign else ""
    symbol = currency_sign(currency)
    return f"{prefix}{text}{NBSP}{symbol}" if symbol else f"{prefix}{text}"


# ------------------------------------------------------------ dates, times


def date_text(value: object) -> str:
    """An ISO date (or date-time) as dd/mm/aaaa: '2025-03-14' → '14/03/2025'; anything else as given."""
    if value is None or value == "":
        return ""
    if isinstance(value, dt.date):
        return value.strftime("%d/%m/%Y")
    text = str(value).strip()
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    return moment.strftime("%d/%m/%Y")


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
        return moment.astimezone(zoneinfo.ZoneInfo(timezone)).strftime("%d/%m/%Y %H:%M")
    return moment.astimezone(dt.UTC).strftime("%d/%m/%Y %H:%M UTC")
