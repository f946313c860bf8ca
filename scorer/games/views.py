"""View-models: what the pages show, derived from a session and its ledger (never stored).

Pure functions over the session file and the engine's ledger (format.md): no request,
no database, no Flask. Words are said in the language being spoken (:mod:`scorer.games.text`; the
web app speaks the page's), each phrase a whole sentence with named placeholders; game terms stay Spanish.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scorer import evening
from scorer import people as by_person
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
    PLATO_WORDS,
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


def _game(ruleset: object) -> Any:
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


# -------------------------------------------------------- plato, cartulina


@dataclass(frozen=True)
class PlatoView:
    amount: int
    kind: str
    words: str


def plato_view(
    plato: Mapping[str, Any] | None, cartulina: Sequence[Mapping[str, Any]], names: Mapping[int, str]
) -> PlatoView:
    """The plato's amount and its state in words (R7)."""
    plato = plato or {}
    amount = int(plato.get("amount", 0))
    kind = str(plato.get("kind", "sin_puesta"))
    if kind == "reservada":
        inside = next((e for e in cartulina if e.get("state") == "en_plato"), None)
        if inside is not None:
            words = _(
                "%(plato)s de %(owner)s (%(amount)s)",
                plato=PLATO_WORDS["reservada"],
                owner=inside.get("person") or _who(inside["owner"], names),
                amount=inside["amount"],
            )
        else:
            words = PLATO_WORDS["reservada"]
    elif kind == "primera":
        words = PLATO_WORDS["primera"]
    elif amount == 0:
        words = _("vacío")
    else:
        words = PLATO_WORDS["sin_puesta"]
    return PlatoView(amount, kind, words)


@dataclass(frozen=True)
class Mark:
    """One reserved puesta written in its owner's box."""

    id: int
    amount: int
    hand: int
    state: str
    words: str

    @property
    def strokes(self) -> int:
        """0 written, 1 diagonal (went into the plato), 2 a full cross (collected or cancelled)."""
        return {"pendiente": 0, "en_plato": 1}.get(self.state, 2)


@dataclass(frozen=True)
class Box:
    seat: int
    name: str
    marks: tuple[Mark, ...]
    older: int = 0  # crossed-out marks before these, not drawn (a long history)


OPEN = ("pendiente", "en_plato")
BOLA_WORDS = {"hecha": _l("hecha"), "cortada": _l("cortada")}  # a hand's "bola" (R19, P8, P10)

# the table page draws every open puesta and this many of the latest crossed ones per box:
# its cost stays the same at hand 3,000 as at hand 30 (the sheet draws them all)
CROSSED_SHOWN = 5


def cartulina_view(
    players: Sequence[str],
    cartulina: Sequence[Mapping[str, Any]],
    *,
    crossed: int | None = None,
    seating: Mapping[int, str] | None = None,
    everyone: Sequence[str] = (),
) -> list[Box]:
    """One box per player, each reserved puesta a mark in its owner's box, oldest first.

    With ``crossed``, only that many of the latest crossed-out marks of each box are kept
    (the open ones always are); ``older`` counts the others. With ``seating`` (after a change
    of player, R33) the boxes are people's: those seated, then whoever left and made a puesta
    (seat 0); the entries then carry ``person`` (:func:`scorer.people.with_owners`).
    """
    ordered = sorted(cartulina, key=lambda e: int(e["id"]))
    if seating is not None:  # R33: a box per person, each puesta in its maker's (entries carry ``person``)
        owned = [(seat, name, list(mine)) for seat, name, mine in by_person.boxes(ordered, seating, everyone)]
    else:
        by_seat: dict[int, list[Mapping[str, Any]]] = {}
        for e in ordered:
            by_seat.setdefault(int(e["owner"]), []).append(e)
        owned = [(seat, name, by_seat.get(seat, [])) for seat, name in seat_names(players).items()]
    boxes: list[Box] = []
    for seat, name, mine in owned:
        older = 0
        if crossed is not None:
            closed = [i for i, e in enumerate(mine) if e.get("state") not in ("pendiente", "en_plato")]
            if len(closed) > crossed:
                hidden = set(closed[: len(closed) - crossed])
                older = len(hidden)
                mine = [e for i, e in enumerate(mine) if i not in hidden]
        marks = tuple(
            Mark(
                id=int(e["id"]),
                amount=int(e["amount"]),
                hand=int(e["hand"]),
                state=str(e["state"]),
                words=CARTULINA_WORDS.get(str(e["state"]), str(e["state"])),
            )
            for e in mine
        )
        boxes.append(Box(seat, name, marks, older))
    return boxes


def cartulina_then(
    entries: Sequence[Mapping[str, Any]], final: Sequence[Mapping[str, Any]], i: int
) -> list[dict[str, Any]]:
    """The cartulina as it was right after entry ``i`` (0-based; -1: before the first), as on paper:
    every puesta reserved by then, the open ones in their state then, the closed ones crossed as they
    ended (a closed puesta never opens again). The same marks the table page would have shown then."""
    if i < 0:
        return []
    open_then = {int(e["id"]): dict(e) for e in entries[i].get("cartulina", [])}
    upto = int(entries[i].get("n", i + 1))
    made = {
        int(e["id"]): open_then.pop(int(e["id"]), None) or dict(e)
        for e in final
        if int(e["id"]) in open_then or int(e.get("hand", 0)) <= upto
    }
    made.update(open_then)  # open then, gone from the final cartulina (never, but shown all the same)
    return [made[k] for k in sorted(made)]


# ----------------------------------------------------------------- balances


@dataclass(frozen=True)
class BalanceLine:
    seat: int
    name: str
    tantos: int
    text: str
    money: str | None
    pending: int  # reserved puestas still owed (pendiente) by this player
    net: int  # balance once those puestas are paid
    net_money: str | None

    @property
    def net_text(self) -> str:
        """The net balance with its sign, as every other number ("−155", never "-155")."""
        return signed(self.net)


def balance_lines(
    players: Sequence[str],
    balances: Mapping[str, int],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
) -> list[BalanceLine]:
    """Each player's balance in tantos and money, and net of the puestas they still owe (R31), seat order."""
    lines = []
    for seat, name in seat_names(players).items():
        tantos = int(balances.get(str(seat), 0))
        pending = sum(int(e["amount"]) for e in cartulina if int(e["owner"]) == seat and e.get("state") == "pendiente")
        net = tantos - pending
        lines.append(
            BalanceLine(
                seat=seat,
                name=name,
                tantos=tantos,
                text=signed(tantos),
                money=money(tantos, tanto_value, currency),
                pending=pending,
                net=net,
                net_money=money(net, tanto_value, currency),
            )
        )
    return lines


def people_balance_lines(
    session: Mapping[str, Any],
    ledger: Mapping[str, Any],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
    *,
    owned: Sequence[Mapping[str, Any]] | None = None,
) -> list[BalanceLine]:
    """Balances by person (R33): those seated in seat order, then those who left (``seat`` 0).

    A seat's pending puestas are its present occupant's (the leaver's were cancelled). ``owned``:
    the same cartulina with its owners already read (:func:`scorer.people.with_owners`).
    """
    seats = evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])
    return person_lines(
        evening.people_balances(session, ledger),
        seats[-1],
        owned if owned is not None else by_person.with_owners(cartulina, seats),
        tanto_value,
        currency,
    )


def person_lines(
    people: Mapping[str, int],
    seating: Mapping[int, str],
    cartulina: Sequence[Mapping[str, Any]],
    tanto_value: Decimal | None,
    currency: str,
) -> list[BalanceLine]:
    """Balances by person (R33), those seated first (cartulina entries carry ``person``)."""
    return [
        BalanceLine(
            seat=p.seat,
            name=p.name if p.seat else _("%(name)s (se fue)", name=p.name),
            tantos=p.tantos,
            text=signed(p.tantos),
            money=money(p.tantos, tanto_value, currency),
            pending=p.pending,
            net=p.tantos - p.pending,
            net_money=money(p.tantos - p.pending, tanto_value, currency),
        )
        for p in by_person.balances(people, seating, cartulina)
    ]


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
    names = seat_names(players)
    n = int(entry["n"])
    result = str(entry.get("result", ""))
    game = _game(ruleset)
    if game.line is not None:
        return game.line(hand, entry, players)  # type: ignore[no-any-return]
    words = result_words(result, ruleset)
    if result == "paso" or "pass" in hand:
        dealer = entry.get("dealer")
        parts = [str(n), result_words("paso")]
        if dealer is not None:
            parts.append(_("da %(name)s", name=_who(dealer, names)))
        return HandLine(n, " · ".join(parts), result)
    if result == "cierre" or "close" in hand:
        return HandLine(n, f"{n} · {evening.close_text(hand.get('close'), ruleset)}", result)
    if evening.is_event(hand):  # R32 ajuste, R33 cambio de jugador: their own lines, with their note
        parts = [str(n), evening.event_text(hand, names)]
        if hand.get("note"):
            parts.append(str(hand["note"]))
        return HandLine(n, " · ".join(parts), result)
    jugador = hand.get("jugador")
    parts = [str(n), _who(jugador, names), contract_text(hand)]
    split = split_text(hand, len(players))
    if split:
        parts.append(split)
    parts.append(result_phrase(hand, entry, players) if game.result_phrase else words)
    if isinstance(jugador, int):
        parts.append(signed(delta(entry, previous, jugador)))
    return HandLine(n, " · ".join(p for p in parts if p), result)


def codillo_giver(hand: Mapping[str, Any]) -> int | None:
    """The contra player who gave the codillo (R9): the one with more tricks than the Jugador and the other."""
    tricks = {int(s): int(c) for s, c in (hand.get("tricks") or {}).items()}
    jugador = hand.get("jugador")
    contra = sorted((c, s) for s, c in tricks.items() if s != jugador)
    return contra[-1][1] if contra else None


def result_phrase(hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str]) -> str:
    """A Tresillo result as the table says it: "bola hecha", "bola cortada", "codillo de Ana",
    "ganada, primeras y se planta" (R9, R13, R19)."""
    result = str(entry.get("result", ""))
    names = seat_names(players)
    if result == "bola":
        return result_words("bola")
    if result == "bola_cortada" or (result == "ganada" and hand.get("bola") == "cortada"):
        return result_words("bola_cortada")
    if result == "codillo":
        giver = codillo_giver(hand)
        return _("codillo de %(name)s", name=_who(giver, names)) if giver is not None else "codillo"
    if result == "ganada" and sorted((hand.get("tricks") or {}).values()) == [0, 0, 5]:
        return _("ganada, primeras y se planta")
    return result_words(result)


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


def _each(payments: list[tuple[Any, Any, int]], names: Mapping[int, str], verb: str, key: int) -> tuple[str, str]:
    """("Benito", "cobra 10 de cada uno") when every amount is equal, else one by one."""
    who = _who(payments[0][key], names)
    collects = verb == "cobra"
    amounts = {p[2] for p in payments}
    if len(amounts) == 1 and len(payments) > 1:
        amount = amounts.pop()
        return who, _("cobra %(amount)s de cada uno", amount=amount) if collects else _(
            "paga %(amount)s a cada uno", amount=amount
        )
    other = 1 - key
    items = ", ".join(
        _("%(amount)s de %(name)s", amount=p[2], name=_who(p[other], names))
        if collects
        else _("%(amount)s a %(name)s", amount=p[2], name=_who(p[other], names))
        for p in payments
    )
    return who, _("cobra %(list)s", list=items) if collects else _("paga %(list)s", list=items)


def summary(
    entry: Mapping[str, Any],
    before_cartulina: Sequence[Mapping[str, Any]],
    players: Sequence[str],
) -> str:
    """One sentence of what a hand does: "Benito cobra 10 de cada uno y se lleva el plato: 35"."""
    names = seat_names(players)
    transfers = list(entry.get("transfers", []))
    result = entry.get("result")
    if result == "paso":
        dealer = entry.get("dealer")
        stake = sum(int(t["amount"]) for t in transfers)
        return _("Todos pasan: %(name)s pone %(amount)s en el plato", name=_who(dealer, names), amount=stake)
    if result == "cierre":
        back = [t for t in transfers if t.get("from") == "plato"]
        if not back:
            return _("Se cierra la partida: el plato estaba vacío")
        parts = ", ".join(f"{_who(t['to'], names)} {t['amount']}" for t in back)
        if any(t.get("concept") == "reparto" for t in back):  # R30
            return _("Se cierra la partida y el plato se reparte: %(list)s", list=parts)
        return _("Se cierra la partida y el plato se devuelve: %(list)s", list=parts)
    if result == "ajuste":  # R32
        payers = {t["from"] for t in transfers}
        if len(payers) == 1 and len(transfers) > 1 and "plato" not in {t["to"] for t in transfers}:
            who, what = _each([(t["from"], t["to"], int(t["amount"])) for t in transfers], names, "paga", 0)
            return _("Ajuste: %(who)s %(what)s", who=who, what=what)
        parts = ", ".join(
            _("%(payer)s paga %(amount)s al plato", payer=_who(t["from"], names), amount=t["amount"])
            if t["to"] == "plato"
            else _(
                "%(payer)s paga %(amount)s a %(payee)s",
                payer=_who(t["from"], names),
                amount=t["amount"],
                payee=_who(t["to"], names),
            )
            for t in transfers
        )
        return _("Ajuste: %(list)s", list=parts)
    if result == "sienta":  # R33
        seating = {int(k): str(v) for k, v in (entry.get("seating") or {}).items()}
        changed = [s for s, name in seating.items() if names.get(s) != name]
        words = "; ".join(
            _("se sienta %(new)s en lugar de %(old)s", new=seating[s], old=names.get(s, s)) for s in changed
        )
        cancelled = evening.cancelled_puestas(before_cartulina, entry, names)
        if cancelled:
            listed = ", ".join(
                _("la puesta pendiente de %(owner)s (%(amount)s)", owner=c.owner, amount=c.amount) for c in cancelled
            )
            words += "; " + _("se anula %(list)s", list=listed)
        words = words or _("Cambio de jugador")
        return words[:1].upper() + words[1:]

    phrases: list[tuple[str, str]] = []  # (subject, predicate): a repeated subject is said once
    by_concept: dict[str, list[tuple[Any, Any, int]]] = {}
    for t in transfers:
        by_concept.setdefault(str(t.get("concept")), []).append((t["from"], t["to"], int(t["amount"])))
    if "juego" in by_concept:
        phrases.append(_each(by_concept["juego"], names, "cobra", 1))
    if "condiciones" in by_concept:
        phrases.append(_each(by_concept["condiciones"], names, "paga", 0))
    for source, target, amount in by_concept.get("puesta_defendida", []):
        phrases.append(
            (_who(source, names), _("paga la puesta a %(name)s: %(amount)s", name=_who(target, names), amount=amount))
        )
    for _source, target, amount in by_concept.get("plato", []):
        phrases.append((_who(target, names), _("se lleva el plato: %(amount)s", amount=amount)))
    if "bola_cortada" in by_concept:
        who, what = _each(by_concept["bola_cortada"], names, "paga", 0)
        phrases.append((who, _("%(what)s por la bola cortada", what=what)))
    for source, _target, amount in by_concept.get("puesta", []):
        phrases.append((_who(source, names), _("pone una puesta de %(amount)s en el plato", amount=amount)))
    for source, target, amount in by_concept.get("codillo", []):
        phrases.append(
            (_who(source, names), _("paga el codillo a %(name)s: %(amount)s", name=_who(target, names), amount=amount))
        )
    before_ids = {int(e["id"]) for e in before_cartulina}
    for e in entry.get("cartulina", []):
        if int(e["id"]) not in before_ids:
            phrases.append(
                (
                    _who(e["owner"], names),
                    _("apunta una puesta reservada de %(amount)s en la cartulina", amount=e["amount"]),
                )
            )
    for source, _target, amount in by_concept.get("puesta_reservada", []):
        phrases.append((_who(source, names), _("pone su puesta reservada en el plato: %(amount)s", amount=amount)))
    if not phrases:
        return RESULT_WORDS.get(str(result), str(result)).capitalize()
    said: list[str] = []
    subject = None
    for who, what in phrases:
        said.append(what if who == subject else f"{who} {what}")
        subject = who
    if len(said) == 1:
        return said[0]
    return _("%(list)s y %(last)s", list=", ".join(said[:-1]), last=said[-1])


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


@dataclass(frozen=True)
class HandView(HandPage):
    """Everything a Tresillo hand's page shows."""

    plato_before: PlatoView
    plato_after: PlatoView
    cartulina_before: list[Box]
    cartulina_after: list[Box]
    balances_before: list[BalanceLine]
    balances_after: list[BalanceLine]


def hand_facts(hand: Mapping[str, Any], players: Sequence[str], ruleset: str = "tresillo") -> list[tuple[str, str]]:
    """What was entered, as (label, value) lines."""
    names = seat_names(players)
    if "pass" in hand:
        return [(_("Mano"), _("todos pasan"))]
    if "close" in hand:
        how = _("devolver el plato") if hand.get("close") == "devolver" else _("repartir el plato")
        if ruleset in evening.CLOSE_SHARES:  # P11, O7: their own pots
            how = evening.close_text(hand.get("close"), ruleset).split(": ", 1)[-1]
        return [(_("Mano"), _("cierre de la partida")), (_("Cierre"), how), *_note_fact(hand)]
    if evening.is_event(hand):  # R32, R33
        label = (
            "Ajuste"
            if "ajuste" in hand
            else _("Cambio de palo de favor")
            if "favor" in hand
            else _("Cambio de jugador")
        )
        text = evening.event_text(hand, names).split(": ", 1)[-1]
        return [(label, text), *_note_fact(hand)]
    facts = [
        ("Jugador", _who(hand.get("jugador"), names)),
        ("Lance", lance_word(hand.get("lance"))),
        ("Triunfo", suit_text(hand.get("trump"))),
    ]
    tricks = hand.get("tricks") or {}
    if tricks and not (hand.get("rendida") and hand.get("defensor") is None):
        order = tricks_order(hand, len(players))
        facts.append((_("Bazas"), ", ".join(f"{names.get(s, s)} {tricks.get(str(s), 0)}" for s in order)))
    if "matadores" in hand:
        facts.append(("Matadores", str(hand.get("matadores") or 0)))
    if hand.get("matadores_en") is not None:
        facts.append((_("Los tres matadores"), _who(hand.get("matadores_en"), names)))
    if hand.get("estuches"):
        facts.append(("Estuches", str(hand["estuches"])))
    if hand.get("contraestuches"):
        facts.append(("Contraestuches", str(hand["contraestuches"])))
    if hand.get("primeras"):
        facts.append(("Primeras", _("del jugador") if hand["primeras"] == "jugador" else _("de la contra")))
    if hand.get("bola"):
        facts.append(("Bola", str(BOLA_WORDS.get(hand["bola"], hand["bola"]))))
    if hand.get("rendida"):
        defensor = hand.get("defensor")
        facts.append(
            ("Rendida", _("defendida por %(name)s", name=_who(defensor, names)) if defensor else _("sin defender"))
        )
    return [*facts, *_note_fact(hand)]


def _note_fact(hand: Mapping[str, Any]) -> list[tuple[str, str]]:
    note = hand.get("note")
    return [(_("Nota"), str(note))] if note else []


def hand_view(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> HandView:
    """The view-model of hand ``n`` (1-based): what was entered, transfers, state before and after."""
    hands = list(session.get("hands", []))
    entries = list(ledger.get("hands", []))
    i = n - 1
    hand, entry = hands[i], entries[i]
    seats = evening.seatings(session.get("players", []), entries[: i + 1], hands[: i + 1])  # R33
    players = tuple(seats[i][s] for s in sorted(seats[i]))
    after_players = tuple(seats[i + 1][s] for s in sorted(seats[i + 1]))
    names = seat_names(players)
    before_open = list(entries[i - 1].get("cartulina", [])) if i > 0 else []
    before_plato = entries[i - 1].get("plato") if i > 0 else {"amount": 0, "kind": "sin_puesta"}
    final = list(ledger.get("cartulina", []))
    # the cartulina as the table page showed it before the hand and would show it right after
    before, after = cartulina_then(entries, final, i - 1), cartulina_then(entries, final, i)
    tanto_value, currency = tanto_of(session)
    previous = previous_balances(ledger, i) or {str(s): 0 for s in names}
    dealer = entry.get("dealer")
    if by_person.changed(evening.seatings(session.get("players", []), entries, hands)):
        # R33: every number beside a name is that person's money, every puesta in its maker's box
        everyone = evening.seatings(session.get("players", []), entries, hands)
        before_open = by_person.with_owners(before_open, everyone)
        before = by_person.with_owners(before, everyone)
        after = by_person.with_owners(after, everyone)
        people_before, people_after = by_person.people_before_after(session.get("players", []), entries, hands, i)
        plato_after = plato_view(entry.get("plato"), [e for e in after if e.get("state") in OPEN], names)
        boxes_before = cartulina_view(
            players, before, crossed=CROSSED_SHOWN, seating=seats[i], everyone=list(people_before)
        )
        boxes_after = cartulina_view(
            after_players, after, crossed=CROSSED_SHOWN, seating=seats[i + 1], everyone=list(people_after)
        )
        balances_before = person_lines(people_before, seats[i], before, tanto_value, currency)
        balances_after = person_lines(people_after, seats[i + 1], after, tanto_value, currency)
    else:
        plato_after = plato_view(entry.get("plato"), entry.get("cartulina", []), names)
        boxes_before = cartulina_view(players, before, crossed=CROSSED_SHOWN)
        boxes_after = cartulina_view(after_players, after, crossed=CROSSED_SHOWN)
        balances_before = balance_lines(players, previous, before, tanto_value, currency)
        balances_after = balance_lines(after_players, entry.get("balances", {}), after, tanto_value, currency)
    return HandView(
        n=n,
        line=hand_line(hand, entry, previous, players),
        summary=summary(entry, before_open, players),
        facts=hand_facts(hand, players),
        transfers=transfer_lines(entry, players),
        dealer=_who(dealer, names) if dealer is not None else None,
        plato_before=plato_view(before_plato, before_open, names),
        plato_after=plato_after,
        cartulina_before=boxes_before,
        cartulina_after=boxes_after,
        balances_before=balances_before,
        balances_after=balances_after,
    )


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
    game = _game(ruleset)
    return game.game_view(session, ledger, name) if game.game_view else GameView(ruleset, name)


# ---------------------------------------------------- pozo and bote summary


def _seat_of(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def pots_summary(entry: Mapping[str, Any], players: Sequence[str], ruleset: str = "pozo_viuda") -> str:
    """One sentence of a pozo y viuda or Ombre hand: "Diego cobra 14 de cada uno y se lleva el pozo: 80"."""
    names = seat_names(players)
    transfers = list(entry.get("transfers", []))
    result = str(entry.get("result", ""))
    if result == "paso" and not transfers:
        return _("Todos pasan: nadie paga nada")
    # (concept, kind) groups in order of appearance; kind: "in" seat → pot, "out" pot → seat, "pay" seat → seat
    groups: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for t in transfers:
        source, target = _seat_of(t["from"]), _seat_of(t["to"])
        kind = "in" if target is None else "out" if source is None else "pay"
        pot = str(t["to"] if kind == "in" else t["from"] if kind == "out" else "")
        groups.setdefault((str(t.get("concept")), kind, pot if kind != "out" else ""), []).append(t)
    phrases: list[tuple[str, str]] = []  # (subject, predicate)
    everyone = set(names)
    for (concept, kind, pot), items in groups.items():
        word = CONCEPT_WORDS.get(concept, concept)
        amounts = {int(t["amount"]) for t in items}
        if concept == "reparto":
            shares: dict[int, int] = {}
            for t in items:
                shares[int(t["to"])] = shares.get(int(t["to"]), 0) + int(t["amount"])
            pots = sorted({POT_WORDS.get(str(t["from"]), str(t["from"])) for t in items})
            listed = ", ".join(f"{names.get(s, s)} {a}" for s, a in sorted(shares.items()))
            pots_text = _("%(list)s y %(last)s", list=", ".join(pots[:-1]), last=pots[-1]) if len(pots) > 1 else pots[0]
            phrases.append(("", _("se reparte %(pots)s: %(list)s", pots=pots_text, list=listed)))
        elif kind == "in":
            where = POT_WORDS.get(pot, pot)
            sources = [int(t["from"]) for t in items]
            if set(sources) == everyone and len(items) == len(everyone) and len(amounts) == 1:
                phrases.append(
                    (
                        _("todos"),
                        _("ponen %(amount)s en %(pot)s (%(concept)s)", amount=amounts.pop(), pot=where, concept=word),
                    )
                )
            else:
                phrases.extend(
                    (
                        _who(t["from"], names),
                        _("pone %(amount)s en %(pot)s (%(concept)s)", amount=t["amount"], pot=where, concept=word),
                    )
                    for t in items
                )
        elif kind == "out":
            for t in items:
                where = _who(t["from"], names)
                if concept in POT_WORDS:
                    phrases.append(
                        (_who(t["to"], names), _("se lleva %(pot)s: %(amount)s", pot=where, amount=t["amount"]))
                    )
                else:
                    what = (
                        _("cobra %(amount)s del %(pot)s (%(concept)s)", amount=t["amount"], pot=where[3:], concept=word)
                        if where.startswith("el ")
                        else _(
                            "cobra %(amount)s de %(name)s (%(concept)s)", amount=t["amount"], name=where, concept=word
                        )
                    )
                    phrases.append((_who(t["to"], names), what))
        else:
            sources = [int(t["from"]) for t in items]
            targets = [int(t["to"]) for t in items]
            if len(set(targets)) == 1 and len(items) > 1 and len(amounts) == 1:
                phrases.append(
                    (
                        _who(targets[0], names),
                        _("cobra %(amount)s de cada uno (%(concept)s)", amount=amounts.pop(), concept=word),
                    )
                )
            elif len(set(sources)) == 1 and len(items) > 1 and len(amounts) == 1:
                phrases.append(
                    (
                        _who(sources[0], names),
                        _("paga %(amount)s a cada uno (%(concept)s)", amount=amounts.pop(), concept=word),
                    )
                )
            else:
                phrases.extend(
                    (
                        _who(t["from"], names),
                        _(
                            "paga %(amount)s a %(name)s (%(concept)s)",
                            amount=t["amount"],
                            name=_who(t["to"], names),
                            concept=word,
                        ),
                    )
                    for t in items
                )
    if not phrases:
        return result_words(result, ruleset).capitalize()
    said: list[str] = []
    subject = None
    for who, what in phrases:
        said.append(what if who == subject or not who else f"{who} {what}")
        subject = who
    text = said[0] if len(said) == 1 else _("%(list)s y %(last)s", list=", ".join(said[:-1]), last=said[-1])
    return text[:1].upper() + text[1:]


def game_summary(
    session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Mapping[str, Any] | None
) -> str:
    """The one-sentence summary of a hand of any rule set but Tresillo."""
    game = _game(ruleset_of(session))
    if game.summary is not None:
        return game.summary(session, hand, entry, previous)
    return pots_summary(entry, list(session.get("players", [])), game.ruleset)


def state_words(ruleset: str, entry: Mapping[str, Any] | None, rules: Mapping[str, Any], players: Sequence[str]) -> str:
    """The pots (or scores) after a ledger entry, in a short line."""
    return _game(ruleset).state_words(entry or {}, rules, players)


@dataclass(frozen=True)
class GameHandView(HandPage):
    """A hand's page for the other rule sets."""

    before: str
    after: str
    balances_before: list[BalanceLine]
    balances_after: list[BalanceLine]
    teams_before: list[TeamView]
    teams_after: list[TeamView]


def game_hand_view(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> Any:
    """The view-model of hand ``n`` (1-based) of a pozo y viuda or Ombre table (a game's own ``hand_view`` else)."""
    ruleset = ruleset_of(session)
    game = _game(ruleset)
    if game.hand_view is not None:
        return game.hand_view(session, ledger, n)  # type: ignore[no-any-return]
    players = tuple(session.get("players", []))
    names = seat_names(players)
    rules = session.get("rules") or {}
    hands = list(session.get("hands", []))
    entries = list(ledger.get("hands", []))
    i = n - 1
    hand, entry = hands[i], entries[i]
    prev_entry = entries[i - 1] if i > 0 else None
    tanto_value, currency = tanto_of(session)
    dealer = entry.get("dealer")
    previous = previous_balances(ledger, i) or {str(s): 0 for s in names}
    return GameHandView(
        n=n,
        line=hand_line(hand, entry, previous, players, ruleset),
        summary=game_summary(session, hand, entry, prev_entry),
        facts=hand_facts(hand, players, ruleset),
        transfers=transfer_lines(entry, players),
        dealer=_who(dealer, names) if dealer is not None else None,
        before=state_words(ruleset, prev_entry, rules, players),
        after=state_words(ruleset, entry, rules, players),
        balances_before=balance_lines(players, previous, [], tanto_value, currency),
        balances_after=balance_lines(players, entry.get("balances", {}), [], tanto_value, currency),
        teams_before=[],
        teams_after=[],
    )
