"""A peña's lifetime ledger and statistics, computed from its evenings' session files and ledgers.

Pure functions (standard library and :mod:`scorer.sheet.settleup`): nothing here is stored.
An :class:`Evening` is one table of the peña: its session file, its ledger (the engine's),
and which person each name that sat at it is. Money belongs to people (R33): a seat's
tantos count for whoever sits there at that moment; the ledger's top-level ``people``
(Tresillo) is used when present, otherwise the per-hand balances are followed seat by seat.

Every table keeps its own tanto value, so totals are summed in money; tantos are added up
only where every evening counted has the same tanto value and currency.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from scorer.sheet.settleup import Payment, settle_up

MONEY_GAMES = ("tresillo", "pozo_viuda", "ombre")  # bandos keeps points, not money
JUGADOR_GAMES = ("tresillo", "pozo_viuda", "ombre")  # a Jugador (hombre) against the others
RENDIDA_GAMES = ("tresillo",)  # only Tresillo surrenders (R25–R28)

# Ledger results as the Jugador sees them (format.md, pozo-viuda.md, ombre.md)
WON = frozenset({"ganada", "bola", "bola_cortada", "contrabola"})
LOST_PUESTA = frozenset({"puesta", "perdida"})
LOST_CODILLO = frozenset({"codillo"})
SURRENDERED = frozenset(
    {"rendida", "defendida_ganada", "defendida_puesta", "defendida_codillo", "defendida_codillo_pobre"}
)
POTS = ("plato", "bote", "pozo", "viuda")
LANCES = ("entrada", "vuelta", "vuelta_solera", "solo", "juego", "volteo", "roben", "bola", "contrabola")
TRUMPS = ("oros", "copas", "espadas", "bastos")


@dataclass(frozen=True, slots=True)
class Evening:
    """One table of the peña. ``people`` maps every name that sat at it to a person key."""

    key: Hashable
    name: str
    date: str  # ISO date, "" when unknown
    session: Mapping[str, Any]
    ledger: Mapping[str, Any]
    people: Mapping[str, Hashable]
    value: Decimal | None = None  # the tanto value (money = tantos × value)
    currency: str = ""
    closed: bool = False
    sat: tuple[str, ...] | None = None  # names_that_sat(session), when the caller has it already

    def who_sat(self) -> tuple[str, ...]:
        """Every name that sat at the evening (the players, then R33 newcomers)."""
        return self.sat if self.sat is not None else tuple(names_that_sat(self.session))

    @property
    def ruleset(self) -> str:
        rules = self.session.get("rules") or {}
        return str(rules.get("ruleset") or "tresillo")

    @property
    def money_game(self) -> bool:
        return self.ruleset in MONEY_GAMES


# ------------------------------------------------------------------ seats


def seatings(evening: Evening) -> Iterator[tuple[Mapping[str, Any], Mapping[str, Any], dict[int, str]]]:
    """(session entry, ledger entry, seat → name at that entry) for every entry, following R33 ``sienta``.

    A change of player takes effect from the next entry.
    """
    seats = {i: str(n) for i, n in enumerate(evening.session.get("players") or [], 1)}
    hands = evening.session.get("hands") or []
    entries = evening.ledger.get("hands") or []
    for hand, entry in zip(hands, entries, strict=False):
        yield hand, entry, dict(seats)
        sienta = _sienta(hand)
        if sienta is not None:
            seats[int(sienta["seat"])] = str(sienta["player"])


def _sienta(hand: Any) -> Mapping[str, Any] | None:
    """The change of player (R33) an entry is, if it is one: the seat and who sits down."""
    sienta = hand.get("sienta") if isinstance(hand, Mapping) else None
    return sienta if isinstance(sienta, Mapping) else None


def names_that_sat(session: Mapping[str, Any]) -> list[str]:
    """Every name that sat at a table, in the order they first sat (the players, then R33 newcomers)."""
    names = [str(n) for n in session.get("players") or []]
    for hand in session.get("hands") or []:
        sienta = _sienta(hand)
        if sienta is not None and str(sienta.get("player")) not in names:
            names.append(str(sienta.get("player")))
    return names


def _person(evening: Evening, name: str) -> Hashable | None:
    return evening.people.get(name)


def _stored_people(ledger: Mapping[str, Any]) -> dict[str, int] | None:
    """The ledger's own balances by person (R33), when it has them."""
    people = ledger.get("people")
    if isinstance(people, Mapping):
        return {str(k): int(v) for k, v in people.items()}
    if isinstance(people, list):  # tolerate a list of {"name", "balance"}
        return {str(p["name"]): int(p["balance"]) for p in people}
    return None


def _by_name_balances(evening: Evening) -> dict[str, int]:
    """Each name's tantos (money games) or points (bandos) at the end of the evening."""
    stored = _stored_people(evening.ledger)
    return stored if stored is not None else _followed_seat_by_seat(evening)


def _followed_seat_by_seat(evening: Evening) -> dict[str, int]:
    """Each name's tantos or points, following the entries' balances (scores) seat by seat: a seat's
    change counts for whoever sits there at that entry (R33); everyone who sat is named."""
    key = "scores" if evening.ruleset == "bandos" else "balances"
    totals: dict[str, int] = {}
    before: dict[str, int] = {}
    for _hand, entry, seats in seatings(evening):
        now = {str(s): int(v) for s, v in (entry.get(key) or {}).items()}
        for seat, name in seats.items():
            delta = now.get(str(seat), 0) - before.get(str(seat), 0)
            totals[name] = totals.get(name, 0) + delta
        before = now
    for name in evening.who_sat():
        totals.setdefault(name, 0)
    return totals


def balances(evening: Evening) -> dict[Hashable, int]:
    """Each person's tantos (points for bandos) at the end of the evening; unmatched names are left out."""
    result: dict[Hashable, int] = {}
    for name, amount in _by_name_balances(evening).items():
        person = _person(evening, name)
        if person is not None:
            result[person] = result.get(person, 0) + amount
    return result


def unmatched(evening: Evening) -> list[str]:
    """Names that sat at the evening but are not linked to any person."""
    return [n for n in evening.who_sat() if n not in evening.people]


def _plato(ledger: Mapping[str, Any]) -> int:
    return int((ledger.get("plato") or {}).get("amount", 0))


def _bote(ledger: Mapping[str, Any]) -> int:
    return int(ledger.get("bote") or 0)


def _pozo_and_viuda(ledger: Mapping[str, Any]) -> int:
    pozo = ledger.get("pozo") or {}
    return int(pozo.get("amount", 0)) + sum(int(r) for r in pozo.get("reserves") or []) + int(ledger.get("viuda") or 0)


POT_OF: dict[str, Callable[[Mapping[str, Any]], int]] = {
    "tresillo": _plato,
    "ombre": _bote,
    "pozo_viuda": _pozo_and_viuda,
}  # bandos has no pot


def pot(evening: Evening) -> int:
    """What is still on the table: plato, bote, or pozo with its reserves and the viuda (0 for bandos)."""
    of = POT_OF.get(evening.ruleset)
    return of(evening.ledger) if of else 0


def money(evening: Evening, tantos: int) -> Decimal | None:
    return None if evening.value is None or not evening.money_game else evening.value * tantos


# --------------------------------------------------------- lifetime ledger


def in_season(evening: Evening, start: dt.date | None, end: dt.date | None) -> bool:
    """Whether the evening's date falls in [start, end]; an evening without a date only when no range is set."""
    if start is None and end is None:
        return True
    try:
        day = dt.date.fromisoformat(evening.date[:10])
    except ValueError:
        return False
    return (start is None or day >= start) and (end is None or day <= end)


@dataclass(frozen=True, slots=True)
class EveningLine:
    evening: Evening
    tantos: dict[Hashable, int]
    money: dict[Hashable, Decimal]
    pot: int
    unmatched: list[str]


@dataclass(frozen=True, slots=True)
class Standing:
    person: Hashable
    evenings: int
    money: Decimal
    tantos: int | None  # only when every evening counted shares one tanto value


@dataclass(slots=True)
class Ledger:
    """The lifetime ledger of a peña (or of a season)."""

    lines: list[EveningLine] = field(default_factory=list)
    standings: list[Standing] = field(default_factory=list)
    same_value: Decimal | None = None  # the one tanto value of every money evening, if they share one
    currency: str = ""
    payments: list[Payment[Hashable]] = field(default_factory=list)  # in money, for the evenings without a pot
    open_pots: list[EveningLine] = field(default_factory=list)  # evenings that still hold tantos on the table
    settled_money: dict[Hashable, Decimal] = field(default_factory=dict)
    places: int = 2  # payments are in 10**-places of the currency
    tantos_only: bool = False  # no evening has a tanto value: totals and payments in tantos


def _places(values: Iterable[Decimal]) -> int:
    places = 2
    for value in values:
        exponent = value.normalize().as_tuple().exponent
        if isinstance(exponent, int):
            places = max(places, -exponent)
    return places


def _evening_line(evening: Evening) -> EveningLine:
    by_person = balances(evening)
    in_money = {p: m for p, t in by_person.items() if (m := money(evening, t)) is not None}
    return EveningLine(evening, by_person, in_money, pot(evening), unmatched(evening))


@dataclass(slots=True)
class _Sums:
    """The evening lines added up by person: in money and tantos, and over the squared evenings only
    (nothing left on the table, everyone who sat matched): those the settle-up covers."""

    money: dict[Hashable, Decimal] = field(default_factory=dict)
    tantos: dict[Hashable, int] = field(default_factory=dict)
    counts: Counter[Hashable] = field(default_factory=Counter)
    settled: dict[Hashable, Decimal] = field(default_factory=dict)
    settled_tantos: dict[Hashable, int] = field(default_factory=dict)

    def add(self, line: EveningLine) -> None:
        squared = line.pot == 0 and not line.unmatched
        for person, amount in line.tantos.items():
            earned = line.money.get(person, Decimal(0))
            self.counts[person] += 1
            self.tantos[person] = self.tantos.get(person, 0) + amount
            self.money[person] = self.money.get(person, Decimal(0)) + earned
            if squared:
                self.settled[person] = self.settled.get(person, Decimal(0)) + earned
                self.settled_tantos[person] = self.settled_tantos.get(person, 0) + amount

    def standings(self, by_tantos: bool, show_tantos: bool) -> list[Standing]:
        """Best first, by money (by tantos when no evening has a tanto value)."""
        order = sorted(self.money, key=lambda p: -self.tantos[p] if by_tantos else -self.money[p])
        return [Standing(p, self.counts[p], self.money[p], self.tantos[p] if show_tantos else None) for p in order]


def _same_value(values: set[Decimal], currencies: set[str], money_evenings: Sequence[Evening]) -> Decimal | None:
    """The one tanto value (and currency) of every money evening, if they share one."""
    if len(values) == 1 and len(currencies) <= 1 and all(e.value is not None for e in money_evenings):
        return next(iter(values))
    return None


def _money_terms(money_evenings: Sequence[Evening]) -> tuple[Ledger, set[Decimal]]:
    """An empty ledger in the money of the evenings (one tanto value and currency, if they share one; in
    tantos if none has a tanto value), and their tanto values."""
    values = {e.value for e in money_evenings if e.value is not None}
    currencies = {e.currency for e in money_evenings if e.value is not None}
    result = Ledger(
        same_value=_same_value(values, currencies, money_evenings),
        currency=next(iter(currencies)) if len(currencies) == 1 else "",
        # no table of the season says what a tanto is worth: everything is kept (and settled) in tantos
        tantos_only=bool(money_evenings) and not values,
    )
    return result, values


def _settle(result: Ledger, sums: _Sums, values: set[Decimal]) -> None:
    """The fewest payments that square the squared evenings, in 10**-places of the currency (in tantos
    when no evening has a tanto value); none when those do not add up to 0."""
    if result.tantos_only:
        result.places = 0
        units = sums.settled_tantos
    else:
        result.places = _places(values)
        units = {p: int((m * 10**result.places).to_integral_value()) for p, m in sums.settled.items()}
    if sum(units.values()) == 0:
        result.payments = settle_up(units)


def lifetime_ledger(evenings: Sequence[Evening]) -> Ledger:
    """Each person's money per evening and in total, the fewest payments and the open pots.

    Evenings are taken in the order given (oldest first). The settle-up covers the evenings
    whose table holds nothing any more (their people's balances add up to 0); what is still
    on an open table's plato is listed apart in ``open_pots``.
    """
    money_evenings = [e for e in evenings if e.money_game]
    result, values = _money_terms(money_evenings)
    sums = _Sums()
    for evening in money_evenings:
        line = _evening_line(evening)
        result.lines.append(line)
        sums.add(line)
        if line.pot != 0:
            result.open_pots.append(line)
    result.standings = sums.standings(result.tantos_only, result.same_value is not None or result.tantos_only)
    result.settled_money = sums.settled
    _settle(result, sums, values)
    return result


def payment_money(amount: int, places: int) -> Decimal:
    """A settle-up amount (in 10**-places of the currency) as money."""
    return Decimal(amount).scaleb(-places)


# --------------------------------------------------------------- statistics


def _tricks(hand: Mapping[str, Any]) -> dict[int, int]:
    """Seat → tricks of a played hand."""
    return {int(s): int(t) for s, t in (hand.get("tricks") or {}).items()}


def codillo_giver(hand: Mapping[str, Any]) -> int | None:
    """The contra seat with the most tricks (R9: in a codillo it has more than each of the others)."""
    tricks = _tricks(hand)
    contra = [s for s in tricks if s != hand.get("jugador")]
    if not contra:
        return None
    return max(contra, key=lambda s: tricks[s])


def bola_of(game: str, hand: Mapping[str, Any], result: str) -> tuple[bool, bool]:
    """(bola made, bola cut) of a played hand, as R13/R19 read them from the tricks too (P8/P10: from the flag).

    Tresillo: 9 tricks is a bola hecha; ``primeras: "jugador"`` (or ``bola: "cortada"``) with J-1-0,
    J 5–8, is a bola cortada, with or without the flags. Other games: none.
    """
    bolas = BOLAS.get(game)
    if bolas is None or hand.get("rendida"):
        return False, False
    return bolas(hand, result)


def _pozo_viuda_bola(hand: Mapping[str, Any], result: str) -> tuple[bool, bool]:
    """Pozo y viuda: from the result and the flags."""
    return result == "bola" or hand.get("bola") == "hecha", hand.get("bola") == "cortada"


def _tresillo_bola(hand: Mapping[str, Any], result: str) -> tuple[bool, bool]:
    """Tresillo: from the result, the flags and the tricks (R13, R19)."""
    tricks = _tricks(hand)
    mine = tricks.get(int(hand["jugador"]), 0)
    made = result == "bola" or hand.get("bola") == "hecha" or mine == 9
    cut = result == "bola_cortada" or _cut_by_tricks(hand, tricks, mine)
    return made, cut and not made


def _cut_by_tricks(hand: Mapping[str, Any], tricks: Mapping[int, int], mine: int) -> bool:
    """R19 read from the tricks: the Jugador's primeras (or the bola cortada flag), then J-1-0 with J 5–8."""
    flagged = hand.get("primeras") == "jugador" or hand.get("bola") == "cortada"
    others = sorted((t for s, t in tricks.items() if s != hand["jugador"]), reverse=True)
    return flagged and 5 <= mine <= 8 and others == [1, 0]


BOLAS: dict[str, Callable[[Mapping[str, Any], str], tuple[bool, bool]]] = {
    "tresillo": _tresillo_bola,
    "pozo_viuda": _pozo_viuda_bola,
}  # Ombre sencillo has no bola (its vole is not kept apart)


def pots_taken(entry: Mapping[str, Any]) -> dict[int, int]:
    """Seat → tantos taken from the pot(s) (plato, bote, pozo, viuda) in one hand."""
    taken: dict[int, int] = {}
    for t in entry.get("transfers") or []:
        if t.get("from") in POTS and isinstance(t.get("to"), int):
            taken[t["to"]] = taken.get(t["to"], 0) + int(t["amount"])
    return taken


@dataclass(slots=True)
class Stats:
    """What a person (or the whole peña) did over some evenings. Counts, never stored."""

    evenings: int = 0
    evenings_by_game: Counter[str] = field(default_factory=Counter)
    hands: int = 0  # played hands (not passes, not events) the person sat in (or of the peña)
    jugador: int = 0  # hands as Jugador (Tresillo, pozo y viuda, Ombre)
    by_lance: Counter[str] = field(default_factory=Counter)
    by_trump: Counter[str] = field(default_factory=Counter)
    won: int = 0
    puesta: int = 0
    codillo: int = 0
    rendidas: int = 0  # Tresillo only
    defences: int = 0  # Tresillo: entradas rendidas the person defended (R28)
    defences_won: int = 0  # R28 (a)
    bolas_made: int = 0  # Tresillo, pozo y viuda
    bolas_cut: int = 0
    codillos_given: int = 0
    biggest_plato: int = 0  # tantos taken from the pot(s) in one hand
    biggest_plato_money: Decimal | None = None
    biggest_plato_evening: Hashable | None = None
    bandos_won: int = 0  # games of bandos won by the person's team
    money: Decimal = Decimal(0)
    money_evenings: int = 0
    games: set[str] = field(default_factory=set)

    def rate(self, count: int) -> int | None:
        """A count as a whole percentage of the hands as Jugador (None without any)."""
        return None if self.jugador == 0 else round(100 * count / self.jugador)

    @property
    def average_money(self) -> Decimal | None:
        return None if self.money_evenings == 0 else self.money / self.money_evenings

    def as_dict(self) -> dict[str, Any]:
        return {
            "evenings": self.evenings,
            "evenings_by_game": dict(self.evenings_by_game),
            "hands": self.hands,
            "jugador": self.jugador,
            "by_lance": dict(self.by_lance),
            "by_trump": dict(self.by_trump),
            "won": self.won,
            "puesta": self.puesta,
            "codillo": self.codillo,
            "won_rate": self.rate(self.won),
            "puesta_rate": self.rate(self.puesta),
            "codillo_rate": self.rate(self.codillo),
            "rendidas": self.rendidas,
            "defences": self.defences,
            "defences_won": self.defences_won,
            "bolas_made": self.bolas_made,
            "bolas_cut": self.bolas_cut,
            "codillos_given": self.codillos_given,
            "biggest_plato": self.biggest_plato,
            "biggest_plato_money": None if self.biggest_plato_money is None else str(self.biggest_plato_money),
            "biggest_plato_evening": self.biggest_plato_evening,
            "bandos_won": self.bandos_won,
            "money": str(self.money),
            "average_money": None
            if self.average_money is None
            else str(self.average_money.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)),
            "games": sorted(self.games),
        }


def _is_played(hand: Mapping[str, Any]) -> bool:
    return "jugador" in hand


def _sat(evening: Evening, person: Hashable | None) -> bool:
    """Whether ``person`` sat at the evening (everyone did, for the peña's statistics)."""
    return person is None or any(_person(evening, n) == person for n in evening.who_sat())


def _add_money(stats: Stats, evening: Evening, person: Hashable | None) -> None:
    """A person's money of one evening (the peña's, all summed, is not kept)."""
    by_person = balances(evening)
    amount = money(evening, sum(by_person.values()) if person is None else by_person.get(person, 0))
    if amount is not None and person is not None:
        stats.money += amount
        stats.money_evenings += 1


def _add_bandos(stats: Stats, evening: Evening, person: Hashable | None) -> None:
    """A game of bandos won by the person's team (any won game, for the peña)."""
    winner = evening.ledger.get("winner")
    teams = evening.ledger.get("teams") or {"A": [1, 3, 5], "B": [2, 4, 6]}
    if winner not in teams:
        return
    players = [str(n) for n in evening.session.get("players") or []]
    if person is None or any(_person(evening, players[int(s) - 1]) == person for s in teams[winner]):
        stats.bandos_won += 1


def statistics(evenings: Sequence[Evening], person: Hashable | None = None) -> Stats:
    """The statistics of one person (``person``) or of the whole peña (``None``) over the evenings.

    For the peña: hands, lances, trumps and outcomes of every Jugador; bolas; codillos;
    rendidas and defences; the biggest plato anyone took.
    """
    stats = Stats()
    for evening in (e for e in evenings if _sat(e, person)):
        game = evening.ruleset
        stats.evenings += 1
        stats.evenings_by_game[game] += 1
        stats.games.add(game)
        if evening.money_game:
            _add_money(stats, evening, person)
        if game == "bandos":
            _add_bandos(stats, evening, person)
        else:
            _Hands(stats, evening, person).add_all()
    return stats


@dataclass(frozen=True, slots=True)
class _Hands:
    """Adds the played hands of one evening (not bandos) to ``stats``: everyone's (``person`` None)
    or what one person did in them."""

    stats: Stats
    evening: Evening
    person: Hashable | None

    def mine(self, seat: Any, seats: Mapping[int, str]) -> bool:
        """Whether a seat (at this entry: ``seats``) is the person's (any seat is the peña's)."""
        if seat is None:
            return False
        if self.person is None:
            return True
        name = seats.get(int(seat))
        return name is not None and _person(self.evening, name) == self.person

    def add_all(self) -> None:
        for hand, entry, seats in seatings(self.evening):
            if isinstance(hand, Mapping) and _is_played(hand):
                self.add(hand, entry, seats)

    def add(self, hand: Mapping[str, Any], entry: Mapping[str, Any], seats: Mapping[int, str]) -> None:
        stats, result = self.stats, str(entry.get("result"))
        stats.hands += self._sat_in(hand, seats)
        if self.mine(hand["jugador"], seats):
            self._as_jugador(hand, result)
        if result in LOST_CODILLO and self.mine(codillo_giver(hand), seats):
            stats.codillos_given += 1
        self._defence(hand, result, seats)
        if result != "cierre":
            self._pots(entry, seats)

    def _sat_in(self, hand: Mapping[str, Any], seats: Mapping[int, str]) -> bool:
        """Whether the person played in the hand (as Jugador or in the contra)."""
        active = {int(s) for s in hand.get("tricks") or {}} | {int(hand["jugador"])}
        return self.person is None or any(self.mine(s, seats) for s in active)

    def _as_jugador(self, hand: Mapping[str, Any], result: str) -> None:
        """The person played the hand: its lance, trump and outcome; a rendida; a bola."""
        stats, game = self.stats, self.evening.ruleset
        stats.jugador += 1
        stats.by_lance[str(hand.get("lance"))] += 1
        stats.by_trump[str(hand.get("trump"))] += 1
        if result in WON:
            stats.won += 1
        elif result in LOST_PUESTA:
            stats.puesta += 1
        elif result in LOST_CODILLO:
            stats.codillo += 1
        if game in RENDIDA_GAMES and result in SURRENDERED:
            stats.rendidas += 1
        made, cut = bola_of(game, hand, result)
        stats.bolas_made += made
        stats.bolas_cut += cut

    def _defence(self, hand: Mapping[str, Any], result: str, seats: Mapping[int, str]) -> None:
        """The person defended an entrada rendida (R28), and won it or not."""
        defended = self.evening.ruleset in RENDIDA_GAMES and hand.get("rendida") and hand.get("defensor") is not None
        if defended and self.mine(hand["defensor"], seats):
            self.stats.defences += 1
            self.stats.defences_won += result == "defendida_ganada"

    def _pots(self, entry: Mapping[str, Any], seats: Mapping[int, str]) -> None:
        """The biggest plato (pot) the person took in one hand, and in which evening."""
        stats = self.stats
        for seat, taken in pots_taken(entry).items():
            if self.mine(seat, seats) and taken > stats.biggest_plato:
                stats.biggest_plato = taken
                stats.biggest_plato_money = money(self.evening, taken)
                stats.biggest_plato_evening = self.evening.key
