"""The settle-up part of the sheet's final accounts: the fewest payments that square the balances
(by person, R33; the pot a party of its own), and in words how the table was left (closed, or what is
still on it: the plato, the pozo, the viuda, the bote, the cartulina's pending puestas)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorer.words import GAME_POT_WORDS, PLATO_WORDS, plain
from scorer.words import translate as _

from .rows import pot_total
from .settleup import Payment, settle_up
from .text import Money, iso, seat


def _to(phrase: str) -> str:
    """'a' + phrase, contracted: 'al plato', 'a la mesa'."""
    return "al " + phrase[3:] if phrase.startswith("el ") else "a " + phrase


def _puestas(ledger: Mapping[str, Any], state: str) -> list[Mapping[str, Any]]:
    """The cartulina's puestas in ``state`` (``en_plato``, ``pendiente``)."""
    return [p for p in ledger.get("cartulina") or () if isinstance(p, Mapping) and p.get("state") == state]


def _owner(puesta: Mapping[str, Any], seated: Mapping[int, str]) -> str:
    return seated.get(seat(puesta.get("owner")) or 0, "?")


# ---------------------------------------------------------------- a closed table


def _closed(rows: Sequence[Mapping[str, Any]], close_how: str, pot_word: str) -> list[str]:
    where = next((r["n"] for r in rows if r["kind"] == "close"), len(rows))
    if close_how == "devolver":
        said = _(
            "La mesa se cerró en la mano %(n)s (R30): lo que había en el plato volvió a quien lo puso "
            "y las puestas pendientes de la cartulina quedaron anuladas.",
            n=where,
        )
    else:
        said = _("La mesa se cerró en la mano %(n)s: se repartió lo que había en %(pot)s.", n=where, pot=pot_word)
    return [said, _("No queda nada en la mesa: la liquidación cuadra todos los saldos.")]


# ---------------------------------------------------------------- what an open table still holds


def _plato(ledger: Mapping[str, Any], seated: Mapping[int, str], money: Money) -> list[str]:
    plato = ledger.get("plato")
    if not isinstance(plato, Mapping):
        return []
    amount = int(plato.get("amount", 0))
    if not amount:
        return [_("El plato está vacío.")]
    kind = PLATO_WORDS.get(str(plato.get("kind")), str(plato.get("kind")))
    tantos = _("%(n)s tantos", n=plain(amount))
    if money.shown:
        tantos = _("%(tantos)s (%(money)s)", tantos=tantos, money=money.text(amount))
    in_plato = _puestas(ledger, "en_plato")
    if in_plato:
        return [
            _(
                "En el plato quedan %(tantos)s, con la puesta reservada de %(owner)s (%(amount)s).",
                tantos=tantos,
                owner=iso(_owner(in_plato[0], seated)),
                amount=plain(int(in_plato[0].get("amount", 0))),
            )
        ]
    if kind:
        return [_("En el plato quedan %(tantos)s, %(kind)s.", tantos=tantos, kind=kind)]
    return [_("En el plato quedan %(tantos)s.", tantos=tantos)]


def _pozo(ledger: Mapping[str, Any]) -> list[str]:
    pozo = ledger.get("pozo")
    if not isinstance(pozo, Mapping):
        return []
    reserves = [int(r) for r in pozo.get("reserves", ()) or ()]
    in_pozo = plain(int(pozo.get("amount", 0)))
    if reserves:
        reserve_list = ", ".join(plain(r) for r in reserves)
        return [_("En el pozo quedan %(n)s tantos y en reserva %(list)s.", n=in_pozo, list=reserve_list)]
    return [_("En el pozo quedan %(n)s tantos.", n=in_pozo)]


def _viuda_and_bote(ledger: Mapping[str, Any]) -> list[str]:
    said = []
    if "viuda" in ledger:
        said.append(_("En la viuda quedan %(n)s tantos.", n=plain(int(ledger["viuda"]))))
    if "bote" in ledger:
        said.append(_("En el bote quedan %(n)s tantos.", n=plain(int(ledger["bote"]))))
    return said


def _pending(ledger: Mapping[str, Any], seated: Mapping[int, str]) -> list[str]:
    """The cartulina's pending puestas (not in the balances), or that there are none."""
    pending = _puestas(ledger, "pendiente")
    if not pending:
        return [_("No hay puestas pendientes en la cartulina.")] if isinstance(ledger.get("cartulina"), list) else []
    items = ", ".join(
        _(
            "%(owner)s %(amount)s (mano %(n)s)",
            owner=iso(_owner(p, seated)),
            amount=plain(int(p.get("amount", 0))),
            n=p.get("hand"),
        )
        for p in pending
    )
    return [
        _(
            "Puestas pendientes en la cartulina: %(list)s. No cuentan en los saldos: se pagan al entrar en el plato.",
            list=items,
        )
    ]


def _coverage(missing: int, pot_word: str) -> list[str]:
    said = [_("La liquidación cubre solo los saldos.")]
    if missing:
        said.append(
            _(
                "Lo que hay en %(pot)s (%(n)s tantos) lo pusieron los jugadores y sigue en la mesa: "
                "lo que se paga %(to_pot)s es ese dinero, "
                "que guarda quien lleve la cartulina hasta la próxima partida.",
                pot=pot_word,
                n=plain(missing),
                to_pot=_to(pot_word),
            )
        )
    return said


# ---------------------------------------------------------------- the payments


Party = tuple[str, str]  # ("person", name) or ("pot", "")


def _payments(people: Mapping[str, int], missing: int) -> list[Payment[Party]]:
    """By person (R33): a person who left is settled too; the pot is a party of its own."""
    parties: dict[Party, int] = {("person", name): tantos for name, tantos in people.items()}
    if missing:
        parties[("pot", "")] = missing
    return settle_up(parties)


def _payment(payment: Payment[Party], pot_word: str, money: Money) -> dict[str, Any]:
    def who(key: Party) -> str:
        return pot_word if key[0] == "pot" else str(key[1])

    return {
        "payer": who(payment.payer),
        "payee": who(payment.payee),
        "to_pot": payment.payee[0] == "pot",
        "tantos": plain(payment.amount),
        "money": money.text(payment.amount),
    }


def settle_context(
    ledger: Mapping[str, Any],
    people: Mapping[str, int],
    seated: Mapping[int, str],
    rows: Sequence[Mapping[str, Any]],
    *,
    ruleset: str,
    closed: str | None,
    money: Money,
) -> dict[str, Any]:
    """The settle-up of ``people``'s balances; ``seated``: who sits where now; ``closed``: how the
    table was closed (``devolver``, ``repartir``), None while it is open."""
    pot = pot_total(ledger)
    missing = -sum(people.values())
    pot_word = str(GAME_POT_WORDS.get(ruleset, _("la mesa")))
    payments = _payments(people, missing)
    on_table: list[str] = []
    coverage: list[str] = []
    if closed is not None:
        statements = _closed(rows, closed, pot_word)
    else:
        statements = [_("La mesa no está cerrada.")]
        on_table = [*_plato(ledger, seated, money), *_pozo(ledger), *_viuda_and_bote(ledger), *_pending(ledger, seated)]
        coverage = _coverage(missing, pot_word)
    if pot != missing:  # pragma: no cover - a ledger that breaks R31
        statements.append(
            _(
                "Atención: los saldos y %(pot)s no cuadran (%(pot_amount)s frente a %(missing)s).",
                pot=pot_word,
                pot_amount=plain(pot),
                missing=plain(missing),
            )
        )
    return {
        "payments": [_payment(p, pot_word, money) for p in payments],
        "statements": statements,
        "on_table": on_table,
        "coverage": coverage,
        "square": not payments,
    }
