"""The settlement engine: pure Python, standard library only.

One public entry point settles a whole session into a ledger::

    ledger = settle(session)          # dict, the ledger JSON of format.md

and a settled state can take one more hand (to preview it before saving)::

    s = start(session)                # Settlement of every hand in the session
    preview = s.add(hand)             # a new Settlement; s is unchanged
    more = s.extend(hands)            # several hands at once (as many add calls)
    preview.entries[-1]               # the ledger entry of that hand

Invalid input raises :class:`SessionError` whose text is ``hand N: reason``
or ``session: reason``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .core import JSON, LEDGER_FORMAT, SESSION_FORMAT, HandError, Ruleset, SessionError, is_int
from .registry import RULESETS, get_ruleset

__all__ = [
    "LEDGER_FORMAT",
    "RULESETS",
    "SESSION_FORMAT",
    "SessionError",
    "Settlement",
    "settle",
    "start",
]


@dataclass(frozen=True, slots=True)
class Settlement:
    """A session settled up to some hand: the rule set's state and the ledger entries."""

    ruleset: Ruleset
    players: tuple[str, ...]
    state: Any
    entries: tuple[JSON, ...]

    @property
    def count(self) -> int:
        """Number of hands settled so far."""
        return len(self.entries)

    def add(self, hand: Mapping[str, Any]) -> Settlement:
        """Settle one more hand on top of this state; raise SessionError naming it."""
        n = len(self.entries) + 1
        state, entry = _play(self.ruleset, self.state, hand, n)
        return Settlement(self.ruleset, self.players, state, (*self.entries, entry))

    def extend(self, hands: Iterable[Any]) -> Settlement:
        """Settle several more hands on top of this state (the entries are copied once, not once per hand).

        ``s.extend(hands)`` equals adding them one by one; SessionError names the first hand that fails.
        """
        ruleset, state = self.ruleset, self.state
        entries = list(self.entries)
        for hand in hands:
            state, entry = _play(ruleset, state, hand, len(entries) + 1)
            entries.append(entry)
        return Settlement(ruleset, self.players, state, tuple(entries))

    def ledger(self) -> JSON:
        """The ledger JSON of format.md."""
        return _ledger(self.ruleset, self.players, self.state, list(self.entries))


_EVENTS = {"ajuste": "an ajuste (R32)", "sienta": "a change of player (sienta, R33)"}


def _play(ruleset: Ruleset, state: Any, hand: Any, n: int) -> tuple[Any, JSON]:
    if type(hand) is not dict and not isinstance(hand, Mapping):
        raise SessionError(f"a hand must be an object, not {type(hand).__name__}", n)
    for key in _EVENTS:
        if key in hand and key not in ruleset.events:
            raise SessionError(f"{_EVENTS[key]} is a Tresillo entry; the {ruleset.name} rule set has none", n)
    try:
        new_state, body = ruleset.play(state, hand, n)
    except HandError as exc:
        raise SessionError(str(exc), n) from None
    entry: JSON = {"n": n}
    entry.update(body)
    return new_state, entry


def _ledger(ruleset: Ruleset, players: tuple[str, ...], state: Any, entries: list[JSON]) -> JSON:
    ledger: JSON = {"format": LEDGER_FORMAT, "ruleset": ruleset.name}
    ledger["players"] = {str(i): name for i, name in enumerate(players, 1)}
    ledger.update(ruleset.header(state))
    ledger["hands"] = entries
    ledger.update(ruleset.summary(state))
    return ledger


def _begin(session: Any) -> tuple[Ruleset, tuple[str, ...], Any, list[Any]]:
    if not isinstance(session, Mapping):
        raise SessionError("the session must be a JSON object")
    fmt = session.get("format")
    if fmt != SESSION_FORMAT:
        if fmt is None:
            raise SessionError(f"missing format (expected {SESSION_FORMAT!r})")
        raise SessionError(f"unknown format {fmt!r} (expected {SESSION_FORMAT!r})")
    rules = session.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, Mapping):
        raise SessionError("rules must be an object")
    name = rules.get("ruleset", "tresillo")
    ruleset = get_ruleset(name)
    players = _players(session.get("players"), ruleset)
    first = session.get("first_dealer", 1)
    if first is None:
        first = 1
    if not is_int(first) or not 1 <= first <= len(players):
        raise SessionError(f"first_dealer must be a seat from 1 to {len(players)}, not {first!r}")
    options = {k: v for k, v in rules.items() if k != "ruleset"}
    try:
        state = ruleset.begin(players, options, first)
    except HandError as exc:
        raise SessionError(str(exc)) from None
    hands = session.get("hands", [])
    if hands is None:
        hands = []
    if not isinstance(hands, list):
        raise SessionError("hands must be a list")
    return ruleset, players, state, hands


def _players(value: Any, ruleset: Ruleset) -> tuple[str, ...]:
    counts = " or ".join(str(c) for c in ruleset.player_counts)
    if value is None:
        raise SessionError("missing players")
    if not isinstance(value, list):
        raise SessionError("players must be a list of names")
    if len(value) not in ruleset.player_counts:
        raise SessionError(f"{ruleset.name} needs {counts} players, not {len(value)}")
    names: list[str] = []
    for i, name in enumerate(value, 1):
        if not isinstance(name, str) or not name.strip():
            raise SessionError(f"player {i} must have a name, not {name!r}")
        if name.strip() in names:
            raise SessionError(f"player name {name.strip()!r} appears twice")
        names.append(name.strip())
    return tuple(value)


def _settle_all(session: Any) -> tuple[Ruleset, tuple[str, ...], Any, list[JSON]]:
    ruleset, players, state, hands = _begin(session)
    entries: list[JSON] = []
    for n, hand in enumerate(hands, 1):
        state, entry = _play(ruleset, state, hand, n)
        entries.append(entry)
    return ruleset, players, state, entries


def start(session: Any) -> Settlement:
    """Settle every hand of a session; the result can take more hands with ``add``."""
    ruleset, players, state, entries = _settle_all(session)
    return Settlement(ruleset, players, state, tuple(entries))


def settle(session: Any) -> JSON:
    """Settle a session file (already parsed from JSON) into its ledger."""
    return _ledger(*_settle_all(session))
