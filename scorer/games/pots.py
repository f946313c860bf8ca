"""The games of pots (pozo y viuda, Ombre): a hand in one sentence (who paid what into which pot), a hand's page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorer.games.balances import BalanceLine, balance_lines
from scorer.games.text import _
from scorer.games.views import (
    HandPage,
    TeamView,
    _who,
    game_summary,
    hand_facts,
    hand_line,
    previous_balances,
    result_words,
    seat_names,
    state_words,
    tanto_of,
    transfer_lines,
)
from scorer.words import CONCEPT_WORDS, POT_WORDS


def _seat_of(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


Payment = Mapping[str, Any]  # one transfer of the ledger: from, to, amount, concept
Phrase = tuple[str, str]  # (subject, predicate): a repeated subject is said once


def pots_summary(entry: Mapping[str, Any], players: Sequence[str], ruleset: str = "pozo_viuda") -> str:
    """One sentence of a pozo y viuda or Ombre hand: "Diego cobra 14 de cada uno y se lleva el pozo: 80"."""
    names = seat_names(players)
    transfers = list(entry.get("transfers", []))
    result = str(entry.get("result", ""))
    if result == "paso" and not transfers:
        return _("Todos pasan: nadie paga nada")
    phrases: list[Phrase] = []
    for (concept, kind, pot), items in _groups(transfers).items():
        word = CONCEPT_WORDS.get(concept, concept)
        say = _shared_out if concept == "reparto" else KINDS[kind]
        phrases.extend(say(items, names, word, pot, concept))
    if not phrases:
        return result_words(result, ruleset).capitalize()
    return joined(phrases)


def _groups(transfers: Sequence[Payment]) -> dict[tuple[str, str, str], list[Payment]]:
    """(concept, kind, pot) groups in order of appearance; kind: "in" seat → pot, "out" pot → seat, "pay" seats."""
    groups: dict[tuple[str, str, str], list[Payment]] = {}
    for t in transfers:
        source, target = _seat_of(t["from"]), _seat_of(t["to"])
        kind = "in" if target is None else "out" if source is None else "pay"
        pot = str(t["to"]) if kind == "in" else ""
        groups.setdefault((str(t.get("concept")), kind, pot), []).append(t)
    return groups


def joined(phrases: Sequence[Phrase]) -> str:
    """The phrases in one sentence, each subject said once in a row, capitalised."""
    said: list[str] = []
    subject = None
    for who, what in phrases:
        said.append(what if who == subject or not who else f"{who} {what}")
        subject = who
    text = said[0] if len(said) == 1 else _("%(list)s y %(last)s", list=", ".join(said[:-1]), last=said[-1])
    return text[:1].upper() + text[1:]


def _shared_out(items: Sequence[Payment], names: Mapping[int, str], word: str, pot: str, concept: str) -> list[Phrase]:
    """The pots shared out at the closing (P11, O7): "se reparte el pozo y la viuda: Ana 30, Benito 30"."""
    shares: dict[int, int] = {}
    for t in items:
        shares[int(t["to"])] = shares.get(int(t["to"]), 0) + int(t["amount"])
    pots = sorted({POT_WORDS.get(str(t["from"]), str(t["from"])) for t in items})
    listed = ", ".join(f"{names.get(s, s)} {a}" for s, a in sorted(shares.items()))
    pots_text = _("%(list)s y %(last)s", list=", ".join(pots[:-1]), last=pots[-1]) if len(pots) > 1 else pots[0]
    return [("", _("se reparte %(pots)s: %(list)s", pots=pots_text, list=listed))]


def _into_pot(items: Sequence[Payment], names: Mapping[int, str], word: str, pot: str, concept: str) -> list[Phrase]:
    """Stakes into a pot: everyone the same ("todos ponen 5 en el pozo"), else one by one."""
    where = POT_WORDS.get(pot, pot)
    amounts = {int(t["amount"]) for t in items}
    everyone = set(names)
    if {int(t["from"]) for t in items} == everyone and len(items) == len(everyone) and len(amounts) == 1:
        return [
            (_("todos"), _("ponen %(amount)s en %(pot)s (%(concept)s)", amount=amounts.pop(), pot=where, concept=word))
        ]
    return [
        (
            _who(t["from"], names),
            _("pone %(amount)s en %(pot)s (%(concept)s)", amount=t["amount"], pot=where, concept=word),
        )
        for t in items
    ]


def _out_of_pot(items: Sequence[Payment], names: Mapping[int, str], word: str, pot: str, concept: str) -> list[Phrase]:
    """A pot won whole ("se lleva el pozo: 80"), or a payment out of it ("cobra 20 del bote (matadores)")."""
    return [(_who(t["to"], names), _taken(t, names, word, concept)) for t in items]


def _taken(t: Payment, names: Mapping[int, str], word: str, concept: str) -> str:
    where = _who(t["from"], names)
    if concept in POT_WORDS:
        return _("se lleva %(pot)s: %(amount)s", pot=where, amount=t["amount"])
    if where.startswith("el "):
        return _("cobra %(amount)s del %(pot)s (%(concept)s)", amount=t["amount"], pot=where[3:], concept=word)
    return _("cobra %(amount)s de %(name)s (%(concept)s)", amount=t["amount"], name=where, concept=word)


def _between_seats(
    items: Sequence[Payment], names: Mapping[int, str], word: str, pot: str, concept: str
) -> list[Phrase]:
    """Payments from seat to seat: one collecting from each, one paying each, else one by one."""
    alike = _alike(items, names, word)
    if alike is not None:
        return [alike]
    return [
        (
            _who(t["from"], names),
            _("paga %(amount)s a %(name)s (%(concept)s)", amount=t["amount"], name=_who(t["to"], names), concept=word),
        )
        for t in items
    ]


def _alike(items: Sequence[Payment], names: Mapping[int, str], word: str) -> Phrase | None:
    """Several equal payments to one seat, or from one seat, said once; None when they differ."""
    amounts = {int(t["amount"]) for t in items}
    if len(items) < 2 or len(amounts) != 1:
        return None
    amount = amounts.pop()
    targets = {int(t["to"]) for t in items}
    if len(targets) == 1:
        return _who(targets.pop(), names), _("cobra %(amount)s de cada uno (%(concept)s)", amount=amount, concept=word)
    sources = {int(t["from"]) for t in items}
    if len(sources) == 1:
        return _who(sources.pop(), names), _("paga %(amount)s a cada uno (%(concept)s)", amount=amount, concept=word)
    return None


KINDS = {"in": _into_pot, "out": _out_of_pot, "pay": _between_seats}


@dataclass(frozen=True)
class GameHandView(HandPage):
    """A hand's page for the other rule sets."""

    before: str
    after: str
    balances_before: list[BalanceLine]
    balances_after: list[BalanceLine]
    teams_before: list[TeamView]
    teams_after: list[TeamView]


def pots_hand_view(game: Any, session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> GameHandView:
    """Hand ``n`` (1-based) of a game of pots (pozo y viuda, Ombre): facts, payments, the pots before and after."""
    ruleset = game.ruleset
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
