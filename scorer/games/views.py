"""View-models: what the pages show, derived from a session and its ledger (never stored).

Pure functions over the session file and the engine's ledger (format.md): no request,
no database, no Flask. Words are said in the language being spoken (:mod:`scorer.games.text`; the
web app speaks the page's), each phrase a whole sentence with named placeholders; game terms stay Spanish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from scorer import evening
from scorer import tricks as read_tricks
from scorer.engine.tresillo import active_seats
from scorer.games.explain import explain
from scorer.games.text import _, _l
from scorer.words import (
    ALL_LANCE_WORDS,
    CARTULINA_WORDS,
    CONCEPT_WORDS,
    FALTA_WORDS,
    GAME_NAMES,
    GAME_SHORT_NAMES,
    LANCE_WORDS,
    MINUS,
    POT_WORDS,
    RESULT_WORDS,
    SUIT_SYMBOLS,
    date_text,
    decimal_text,
    lance_word,
    money_text,
    parse_decimal,
    result_word,
    signed,
    suit_text,
)
from scorer.words import tanto_value as parse_tanto_value

if TYPE_CHECKING:
    from scorer.games import Game

# the shared vocabulary (scorer.words), for the views and templates that reach it through this module
__all__ = [
    "ALL_LANCE_WORDS",
    "CARTULINA_WORDS",
    "CONCEPT_WORDS",
    "FALTA_WORDS",
    "GAME_NAMES",
    "GAME_SHORT_NAMES",
    "LANCE_WORDS",
    "MINUS",
    "POT_WORDS",
    "RESULT_WORDS",
    "SUIT_SYMBOLS",
    "date_text",
    "decimal_text",
    "parse_decimal",
    "signed",
]


def _game(ruleset: object) -> Game:
    """:func:`scorer.games.game_of`, read when asked (the list of games imports this module)."""
    from scorer.games import game_of

    return game_of(ruleset)


def money(tantos: int, value: Decimal | None, currency: str = "", *, sign: bool = True) -> str | None:
    """Tantos × tanto value with its sign, the decimal comma and the currency ("−3,25 €"); None without a value."""
    return None if value is None else money_text(tantos, value, currency, sign=sign)


# ------------------------------------------------------------------- people


def seat_names(players: Sequence[str]) -> dict[int, str]:
    """Seat number → name."""
    return {i: name for i, name in enumerate(players, 1)}


def names_at(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> list[str]:
    """The names seated, in seat order, for entry ``n`` (1-based; the next one or one already settled; R33)."""
    seats = evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    seating = seats[n - 1] if n <= len(ledger.get("hands") or []) else seats[-1]
    return [seating[s] for s in sorted(seating)]


def _who(target: Any, names: Mapping[int, str]) -> str:
    if isinstance(target, str) and target in POT_WORDS:
        return POT_WORDS[target]
    try:
        return names[int(target)]
    except (KeyError, TypeError, ValueError):
        return str(target)


@dataclass(frozen=True)
class Roles:
    """Who deals the next hand and who plays in which order."""

    dealer: str
    mano: str
    medio: str
    postre: str
    alcalde: str | None  # the dealer with four players, who sits out (R3)
    dealer_seat: int
    active: tuple[int, ...]


def roles(players: Sequence[str], dealer: int) -> Roles:
    """R1–R3: mano, medio and postre are the active seats in order of play from the dealer's right."""
    names = seat_names(players)
    active = active_seats(len(players), dealer)
    return Roles(
        dealer=names[dealer],
        mano=names[active[0]],
        medio=names[active[1]],
        postre=names[active[2]],
        alcalde=names[dealer] if len(players) == 4 else None,
        dealer_seat=dealer,
        active=active,
    )


BOLA_WORDS = {"hecha": _l("hecha"), "cortada": _l("cortada")}  # a hand's "bola" (R19, P8, P10)


# -------------------------------------------------------------------- hands


def tricks_order(hand: Mapping[str, Any], players_count: int) -> list[int]:
    """Seats of a hand's tricks, the Jugador first then the contra in order of play (scorer.tricks)."""
    return read_tricks.order(hand.get("tricks"), hand.get("jugador"), hand.get("dealer"), players_count)


def split_text(hand: Mapping[str, Any], players_count: int) -> str:
    """ "6-2-1": the Jugador's tricks first, read as the sheet reads them (scorer.tricks)."""
    if not hand.get("tricks") or (hand.get("rendida") and hand.get("defensor") is None):
        return ""
    return read_tricks.of_hand(hand, players_count)


def contract_text(hand: Mapping[str, Any]) -> str:
    """ "solo ♣", "entrada ♦ rendida"."""
    lance = lance_word(hand.get("lance"))
    trump = SUIT_SYMBOLS.get(str(hand.get("trump")), "")
    return f"{lance} {trump}".strip()


def delta(entry: Mapping[str, Any], previous: Mapping[str, int] | None, seat: int) -> int:
    """How much a seat's balance changed in this hand."""
    before = int((previous or {}).get(str(seat), 0))
    return int(entry.get("balances", {}).get(str(seat), 0)) - before


@dataclass(frozen=True)
class HandLine:
    n: int
    text: str
    result: str
    deleted: bool = False


def result_words(result: str, ruleset: str = "tresillo") -> str:
    """The Spanish word of a ledger result; Ombre says *sacada* for a won hand."""
    return result_word(result, ruleset)


def hand_line(
    hand: Mapping[str, Any],
    entry: Mapping[str, Any],
    previous: Mapping[str, int] | None,
    players: Sequence[str],
    ruleset: str = "tresillo",
) -> HandLine:
    """One line per hand: "12 · Carmen · solo ♣ · 6-2-1 · ganada · +180"."""
    game = _game(ruleset)
    own = game.line(hand, entry, players)
    if own is not None:
        return own
    n = int(entry["n"])
    result = str(entry.get("result", ""))
    names = seat_names(players)
    if result == "paso" or "pass" in hand:
        parts = [str(n), result_words("paso"), *_dealt_by(entry, names)]
    elif result == "cierre" or "close" in hand:
        parts = [str(n), evening.close_text(hand.get("close"), ruleset)]
    elif evening.is_event(hand):  # R32 ajuste, R33 cambio de jugador: their own lines, with their note
        parts = [str(n), evening.event_text(hand, names), *([str(hand["note"])] if hand.get("note") else [])]
    else:
        parts = _played_line(game, hand, entry, previous, players)
    return HandLine(n, " · ".join(p for p in parts if p), result)


def _dealt_by(entry: Mapping[str, Any], names: Mapping[int, str]) -> list[str]:
    dealer = entry.get("dealer")
    return [_("da %(name)s", name=_who(dealer, names))] if dealer is not None else []


def _played_line(
    game: Game,
    hand: Mapping[str, Any],
    entry: Mapping[str, Any],
    previous: Mapping[str, int] | None,
    players: Sequence[str],
) -> list[str]:
    """A played hand's line: number, jugador, contract, split of tricks, result, the jugador's change."""
    jugador = hand.get("jugador")
    words = result_words(str(entry.get("result", "")), game.ruleset)
    parts = [str(entry["n"]), _who(jugador, seat_names(players)), contract_text(hand), split_text(hand, len(players))]
    parts.append(game.result_text(hand, entry, players, words))
    if isinstance(jugador, int):
        parts.append(signed(delta(entry, previous, jugador)))
    return parts


@dataclass(frozen=True)
class TransferLine:
    source: str
    target: str
    amount: int
    concept: str
    detail: str


def transfer_lines(entry: Mapping[str, Any], players: Sequence[str]) -> list[TransferLine]:
    """Every movement of tantos in a hand, with its explanation."""
    names = seat_names(players)
    return [
        TransferLine(
            source=_who(t["from"], names),
            target=_who(t["to"], names),
            amount=int(t["amount"]),
            concept=CONCEPT_WORDS.get(str(t.get("concept")), str(t.get("concept", ""))),
            detail=explain(t),  # in the page's language
        )
        for t in entry.get("transfers", [])
    ]


def tanto_of(session: Mapping[str, Any]) -> tuple[Decimal | None, str]:
    """The session's tanto value (stored as a string) and currency."""
    return parse_tanto_value(session.get("tanto_value")), str(session.get("currency") or "")


def previous_balances(ledger: Mapping[str, Any], index: int) -> dict[str, int] | None:
    """Balances before hand ``index`` (0-based); None for the first."""
    hands = ledger.get("hands", [])
    return dict(hands[index - 1].get("balances", {})) if index > 0 else None


@dataclass(frozen=True)
class HandPage:
    """What every hand's page shows, whatever the game: its line, summary, facts, transfers and dealer."""

    n: int
    line: HandLine
    summary: str
    facts: list[tuple[str, str]]
    transfers: list[TransferLine]
    dealer: str | None


Fact = tuple[str, str]  # (label, value) on a hand's page


def hand_facts(hand: Mapping[str, Any], players: Sequence[str], ruleset: str = "tresillo") -> list[Fact]:
    """What was entered, as (label, value) lines."""
    names = seat_names(players)
    if "pass" in hand:
        return [(_("Mano"), _("todos pasan"))]
    if "close" in hand:
        return [*_closing_facts(hand, ruleset), *_note_fact(hand)]
    if evening.is_event(hand):  # R32, R33
        return [_event_fact(hand, names), *_note_fact(hand)]
    facts = [
        ("Jugador", _who(hand.get("jugador"), names)),
        ("Lance", lance_word(hand.get("lance"))),
        ("Triunfo", suit_text(hand.get("trump"))),
        *_tricks_fact(hand, names, len(players)),
    ]
    facts += [fact for say in PLAYED_FACTS if (fact := say(hand, names)) is not None]
    return [*facts, *_note_fact(hand)]


def _closing_facts(hand: Mapping[str, Any], ruleset: str) -> list[Fact]:
    how = _("devolver el plato") if hand.get("close") == "devolver" else _("repartir el plato")
    if ruleset in evening.CLOSE_SHARES:  # P11, O7: their own pots
        how = evening.close_text(hand.get("close"), ruleset).split(": ", 1)[-1]
    return [(_("Mano"), _("cierre de la partida")), (_("Cierre"), how)]


def _event_fact(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact:
    if "ajuste" in hand:
        label = "Ajuste"
    else:
        label = _("Cambio de palo de favor") if "favor" in hand else _("Cambio de jugador")
    return label, evening.event_text(hand, names).split(": ", 1)[-1]


def _tricks_fact(hand: Mapping[str, Any], names: Mapping[int, str], players_count: int) -> list[Fact]:
    tricks = hand.get("tricks") or {}
    if not tricks or (hand.get("rendida") and hand.get("defensor") is None):
        return []
    order = tricks_order(hand, players_count)
    return [(_("Bazas"), ", ".join(f"{names.get(s, s)} {tricks.get(str(s), 0)}" for s in order))]


def _matadores(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    return ("Matadores", str(hand.get("matadores") or 0)) if "matadores" in hand else None


def _matadores_en(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    if hand.get("matadores_en") is None:
        return None
    return _("Los tres matadores"), _who(hand.get("matadores_en"), names)


def _estuches(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    return ("Estuches", str(hand["estuches"])) if hand.get("estuches") else None


def _contraestuches(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    return ("Contraestuches", str(hand["contraestuches"])) if hand.get("contraestuches") else None


def _primeras(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    if not hand.get("primeras"):
        return None
    return "Primeras", _("del jugador") if hand["primeras"] == "jugador" else _("de la contra")


def _bola(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    return ("Bola", str(BOLA_WORDS.get(hand["bola"], hand["bola"]))) if hand.get("bola") else None


def _rendida(hand: Mapping[str, Any], names: Mapping[int, str]) -> Fact | None:
    if not hand.get("rendida"):
        return None
    defensor = hand.get("defensor")
    return "Rendida", _("defendida por %(name)s", name=_who(defensor, names)) if defensor else _("sin defender")


# a played hand's facts after the tricks, in the order the page lists them
PLAYED_FACTS = (_matadores, _matadores_en, _estuches, _contraestuches, _primeras, _bola, _rendida)


def _note_fact(hand: Mapping[str, Any]) -> list[tuple[str, str]]:
    note = hand.get("note")
    return [(_("Nota"), str(note))] if note else []


# ------------------------------------------------------------------ history

FIELD_WORDS = {
    "jugador": "jugador",
    "lance": "lance",
    "trump": "triunfo",
    "tricks": _l("bazas"),
    "estuches": "estuches",
    "contraestuches": "contraestuches",
    "primeras": "primeras",
    "bola": "bola",
    "rendida": "rendida",
    "defensor": "defensor",
    "dealer": _l("da"),
    "pass": _l("todos pasan"),
    "close": _l("cierre"),
    "ajuste": "ajuste",  # R32
    "sienta": _l("cambio de jugador"),  # R33
    "note": _l("nota"),
}


# =================================================== the other rule sets
# Pozo y viuda (rules/pozo-viuda.md), Ombre sencillo (rules/ombre.md) and the juego de
# bandos (rules/bandos.md): their pots, scores and one-line words. Same principle as
# above: everything comes from the engine's ledger.

TEAM_SEATS = {"A": (1, 3, 5), "B": (2, 4, 6)}  # B1


def ruleset_of(session: Mapping[str, Any]) -> str:
    rules = session.get("rules") or {}
    return str(rules.get("ruleset", "tresillo"))


@dataclass(frozen=True)
class PozoView:
    """The two pots of pozo y viuda (P1–P4)."""

    amount: int
    reserves: tuple[int, ...]
    viuda: int
    cap: int

    @property
    def reserves_total(self) -> int:
        return sum(self.reserves)

    @property
    def words(self) -> str:
        if self.amount == 0 and not self.reserves:
            return _("vacío: se repone al empezar la mano")
        if not self.reserves:
            return _("tope %(cap)s", cap=self.cap)
        return _("lleno (tope %(cap)s); en reserva:", cap=self.cap)


def pozo_view(entry: Mapping[str, Any] | None, rules: Mapping[str, Any], seats: int) -> PozoView:
    """The pozo, its reserves and the viuda after a ledger entry (or at the ledger's top)."""
    entry = entry or {}
    pozo = entry.get("pozo") or {}
    stake = int(rules.get("pozo_stake", 5))
    cap = int(rules.get("pozo_cap", 4)) * stake * seats  # P4
    return PozoView(
        amount=int(pozo.get("amount", 0)),
        reserves=tuple(int(r) for r in pozo.get("reserves", [])),
        viuda=int(entry.get("viuda", 0)),
        cap=cap,
    )


@dataclass(frozen=True)
class TeamView:
    """One team of the juego de bandos: its players with their tantos."""

    name: str
    members: tuple[tuple[int, str, int], ...]  # (seat, name, tantos)
    best: int
    winner: bool


def teams_view(players: Sequence[str], scores: Mapping[str, int], winner: str | None) -> list[TeamView]:
    """B1: team A is seats 1, 3, 5 and team B seats 2, 4, 6; each player's tantos."""
    names = seat_names(players)
    teams = []
    for team, seats in TEAM_SEATS.items():
        members = tuple((s, names.get(s, str(s)), int(scores.get(str(s), 0))) for s in seats)
        teams.append(TeamView(team, members, max(m[2] for m in members), winner == team))
    return teams


@dataclass(frozen=True)
class Turn:
    """Who deals next in a game without mano/medio/postre roles (bandos: six seats)."""

    dealer: str
    mano: str


def turn(players: Sequence[str], dealer: int) -> Turn:
    """The dealer and the player on his right, who leads (R2 over the table's seats)."""
    names = seat_names(players)
    return Turn(names[dealer], names[dealer % len(players) + 1])


@dataclass(frozen=True)
class GameView:
    """The part of the table page that depends on the rule set (not Tresillo's plato and cartulina)."""

    ruleset: str
    name: str
    pozo: PozoView | None = None
    bote: int | None = None
    deals_played: int = 0
    deals: int | None = None
    target: int | None = None
    over: bool = False
    teams: list[TeamView] = field(default_factory=list)
    winner: str | None = None
    turn: Turn | None = None
    can_pass: bool = True
    can_close: bool = True

    @property
    def close_label(self) -> str:
        """The words of the closing button (and of its confirmation)."""
        return _game(self.ruleset).close_label(self)

    @property
    def confirm_heading(self) -> str:
        """The question of the closing's confirmation page."""
        return _game(self.ruleset).confirm_heading(self)

    @property
    def spec(self) -> Any:
        """The game's registered web module (scorer.games.Game): its templates and words."""
        return _game(self.ruleset)


def deals_played(ledger: Mapping[str, Any]) -> int:
    """Deals used up so far (passed deals count, the closing does not)."""
    return sum(1 for e in ledger.get("hands", []) if e.get("dealer") is not None)


def game_view(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> GameView:
    """The rule set's own state for the table page."""
    ruleset = ruleset_of(session)
    name = GAME_NAMES.get(ruleset, ruleset)
    return _game(ruleset).game_view(session, ledger, name)


# ---------------------------------------------------- pozo and bote summary


def game_summary(
    session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Mapping[str, Any] | None
) -> str:
    """The one-sentence summary of a hand of any rule set but Tresillo."""
    return _game(ruleset_of(session)).summary(session, hand, entry, previous)


def state_words(ruleset: str, entry: Mapping[str, Any] | None, rules: Mapping[str, Any], players: Sequence[str]) -> str:
    """The pots (or scores) after a ledger entry, in a short line."""
    return _game(ruleset).state_words(entry or {}, rules, players)


def game_hand_view(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> Any:
    """The view-model of hand ``n`` (1-based), as the table's game words it."""
    return _game(ruleset_of(session)).hand_view(session, ledger, n)
