"""Juego de bandos: the tantos of docs/rules/bandos.md (B1–B5).

Six players in two teams of three, no money: each player's tantos, never below 0.

Readings chosen where the document leaves room (see also the comments at each rule):

- B2: ``capote: true`` needs ``primeras`` (it says that team won all six);
  ``capote: false`` is the same as no capote. A fault may come with primeras (it
  happened after the first three tricks).
- B3: "any tantos" means a score above 0 at the moment the fault is applied (after
  B2 and the faults before it in the list).
- There is no passed hand and no closing in this game: both are refused.
- B5: under ``scoring: "first_three_tricks"`` ``primeras`` may be ``"none"`` (nobody
  scores; faults still apply); refused with capote and under the default scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .core import (
    JSON,
    HandError,
    bool_value,
    check_keys,
    describe,
    int_value,
    next_seat,
    option_values,
    resolve_dealer,
    rule_number,
    rule_word,
    seat_map,
    seat_value,
    word_value,
)

SEATS: Final = 6
TEAMS: Final = {"A": (1, 3, 5), "B": (2, 4, 6)}  # B1
FALTAS: Final = ("fuera_de_turno", "renuncio")
HAND_KEYS: Final = ("primeras", "capote", "faltas", "dealer", "note")

OPTION_DEFAULTS: Final[dict[str, Any]] = {
    "target": 12,
    "fuera_de_turno": 1,
    "renuncio": 1,
    "scoring": "first_to_three",
}
SCORINGS: Final = ("first_to_three", "first_three_tricks")  # B2, B5


@dataclass(frozen=True, slots=True)
class Options:
    """The options of the document, checked."""

    target: int = 12
    fuera_de_turno: int = 1
    renuncio: int = 1
    scoring: str = "first_to_three"  # B2 or B5


def parse_options(rules: Mapping[str, Any]) -> Options:
    """Check every option of the session's rules; HandError names the bad one."""
    values = option_values(rules, OPTION_DEFAULTS, "bandos")
    return Options(
        target=rule_number(values, "target", 1, "B4"),
        fuera_de_turno=rule_number(values, "fuera_de_turno", 0, "B3"),
        renuncio=rule_number(values, "renuncio", 0, "B3"),
        scoring=rule_word(values, "scoring", SCORINGS, "B5"),
    )


def team_of(seat: int) -> str:
    """B1: odd seats are team A, even seats team B."""
    return "A" if seat % 2 else "B"


def game_winner(scores: list[int] | tuple[int, ...], target: int) -> str | None:
    """B4: once some player has reached the target, the team whose best player is ahead wins."""
    if max(scores) < target:
        return None
    best = {name: max(scores[s - 1] for s in seats) for name, seats in TEAMS.items()}
    if best["A"] == best["B"]:
        return None  # play goes on
    return "A" if best["A"] > best["B"] else "B"


@dataclass(frozen=True, slots=True)
class Falta:
    """One fault of B3."""

    seat: int
    falta: str
    points: int


@dataclass(frozen=True, slots=True)
class State:
    """Every player's tantos and whether the game is over."""

    options: Options
    scores: tuple[int, ...]
    next_dealer: int
    winner: str | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None


def parse_faltas(value: object, options: Options) -> tuple[Falta, ...]:
    """B3: a list of {seat, falta, points?}."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise HandError("faltas_not_a_list", "faltas")
    return tuple(_falta(i, item, options) for i, item in enumerate(value, 1))


def _falta(i: int, item: object, options: Options) -> Falta:
    """B3: the ``i``-th falta, its points the house's for its kind unless it says its own."""
    if not isinstance(item, Mapping):
        raise HandError("falta_not_an_object", "faltas", index=i, value=describe(item))
    for key in item:
        if key not in ("seat", "falta", "points"):
            raise HandError("falta_unknown_key", "faltas", index=i, key=key)
    if item.get("seat") is None:
        raise HandError("falta_missing_seat", "faltas", index=i)
    if item.get("falta") is None:
        raise HandError("falta_missing_kind", "faltas", index=i)
    seat = seat_value(item["seat"], f"seat of falta {i}", SEATS, "faltas")
    kind = word_value(item["falta"], f"falta {i}", FALTAS, "faltas")
    raw = item.get("points")
    default = options.fuera_de_turno if kind == "fuera_de_turno" else options.renuncio
    points = default if raw is None else int_value(raw, f"points of falta {i}", 0, field="faltas")
    return Falta(seat, kind, points)


def _read_primeras(hand: Mapping[str, Any], literal: bool) -> Any:
    """B2: the team that took the primeras; B5: ``none`` only when the first three tricks are scored."""
    primeras = hand.get("primeras")
    if primeras is not None:
        if primeras == "none" and not literal:
            raise HandError("primeras_none_not_literal", "primeras")
        word_value(primeras, "primeras", (*TEAMS, "none") if literal else tuple(TEAMS))
    return primeras


def _read_capote(hand: Mapping[str, Any], primeras: object) -> bool:
    """B2: a capote doubles a team's primeras (and needs them)."""
    capote = False if hand.get("capote") is None else bool_value(hand["capote"], "capote")
    if capote and primeras is None:
        raise HandError("capote_without_primeras", "capote")
    if capote and primeras == "none":
        raise HandError("primeras_none_with_capote", "capote")
    return capote


def _scores(before: tuple[int, ...], primeras: object, capote: bool, faltas: tuple[Falta, ...]) -> list[int]:
    """B2: each player of the team with the primeras scores 1, or 2 with capote; then B3, in order."""
    scores = list(before)
    if primeras is not None and primeras != "none":
        for seat in TEAMS[str(primeras)]:
            scores[seat - 1] += 2 if capote else 1
    for falta in faltas:
        _charge(scores, falta)
    return scores


def _charge(scores: list[int], falta: Falta) -> None:
    """B3: a falta takes points from the guilty team while its player has some, else gives them to the other."""
    team = team_of(falta.seat)
    if scores[falta.seat - 1] > 0:
        for seat in TEAMS[team]:
            scores[seat - 1] = max(0, scores[seat - 1] - falta.points)
    else:
        for seat in TEAMS["B" if team == "A" else "A"]:
            scores[seat - 1] += falta.points


class Bandos:
    """The rule set of docs/rules/bandos.md."""

    name: str = "bandos"
    player_counts: tuple[int, ...] = (SEATS,)  # B1
    events: tuple[str, ...] = ()  # no ajuste or sienta: those are Tresillo's (R32, R33)

    def begin(self, players: tuple[str, ...], rules: Mapping[str, Any], first_dealer: int) -> State:
        return State(options=parse_options(rules), scores=(0,) * SEATS, next_dealer=first_dealer)

    def header(self, state: State) -> JSON:
        return {"teams": {name: list(seats) for name, seats in TEAMS.items()}}

    def summary(self, state: State) -> JSON:
        return {
            "scores": seat_map(state.scores),
            "over": state.over,
            "winner": state.winner,
            "next_dealer": state.next_dealer,
        }

    def play(self, state: State, hand: Mapping[str, Any], n: int) -> tuple[State, JSON]:
        if state.over:
            raise HandError("game_over", None, team=state.winner)
        if "close" in hand:
            raise HandError("bandos_no_closing", "close")
        if "pass" in hand:
            raise HandError("bandos_no_pass", "pass")
        check_keys(hand, HAND_KEYS, "hand")
        dealer = resolve_dealer(hand, state.next_dealer, SEATS)  # B1: R2 over six seats
        primeras = _read_primeras(hand, state.options.scoring == "first_three_tricks")
        capote = _read_capote(hand, primeras)
        faltas = parse_faltas(hand.get("faltas"), state.options)
        if primeras is None and not faltas:
            raise HandError("hand_without_primeras", "primeras")
        scores = _scores(state.scores, primeras, capote, faltas)
        winner = game_winner(scores, state.options.target)
        new = State(state.options, tuple(scores), next_seat(dealer, SEATS), winner)
        entry: JSON = {
            "dealer": dealer,
            "result": "fin" if new.over else "mano",
            "scores": seat_map(new.scores),
            "over": new.over,
            "winner": winner,
        }
        return new, entry


BANDOS: Final = Bandos()
