"""The settlement engine: pure Python, standard library only.

One public entry point settles a whole session into a ledger::

    ledger = settle(session)          # dict, the ledger JSON of format.md

and a settled state can take one more hand (to preview it before saving)::

    s = start(session)                # Settlement of every hand in the session
    preview = s.add(hand)             # a new Settlement; s is unchanged
    more = s.extend(hands)            # several hands at once (as many add calls)

and a settlement can be kept as JSON and resumed without its earlier hands::

    data = s.snapshot()               # the state after s.count hands (JSON)
    r = resume(session, data)         # r.count == s.count; r.add(hand) as s.add(hand)
    preview.entries[-1]               # the ledger entry of that hand

Invalid input raises :class:`SessionError` whose text is ``hand N: reason``
or ``session: reason``; it also carries the refusal as data: ``code`` (a key of
``errors.MESSAGES``), ``field`` and ``params``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import snapshot as _snapshot
from .core import JSON, LEDGER_FORMAT, SESSION_FORMAT, HandError, Ruleset, SessionError, is_int
from .errors import MESSAGES
from .registry import RULESETS, get_ruleset
from .snapshot import SnapshotError

__all__ = [
    "LEDGER_FORMAT",
    "MESSAGES",
    "RULESETS",
    "SESSION_FORMAT",
    "SNAPSHOT_FORMAT",
    "SessionError",
    "Settlement",
    "SnapshotError",
    "resume",
    "settle",
    "start",
]


@dataclass(frozen=True, slots=True)
class Settlement:
    """A session settled up to some hand: the rule set's state and the ledger entries.

    ``offset`` counts the hands settled before ``entries[0]``: 0, unless the settlement
    was resumed from a snapshot with only its last entries (see :func:`resume`).
    """

    ruleset: Ruleset
    players: tuple[str, ...]
    state: Any
    entries: tuple[JSON, ...]
    offset: int = 0

    @property
    def count(self) -> int:
        """Number of hands settled so far."""
        return self.offset + len(self.entries)

    def add(self, hand: Mapping[str, Any]) -> Settlement:
        """Settle one more hand on top of this state; raise SessionError naming it."""
        state, entry = _play(self.ruleset, self.state, hand, self.count + 1)
        return Settlement(self.ruleset, self.players, state, (*self.entries, entry), self.offset)

    def extend(self, hands: Iterable[Any]) -> Settlement:
        """Settle several more hands on top of this state (the entries are copied once, not once per hand).

        ``s.extend(hands)`` equals adding them one by one; SessionError names the first hand that fails.
        """
        ruleset, state, offset = self.ruleset, self.state, self.offset + 1
        entries = list(self.entries)
        for hand in hands:
            state, entry = _play(ruleset, state, hand, offset + len(entries))
            entries.append(entry)
        return Settlement(ruleset, self.players, state, tuple(entries), self.offset)

    def ledger(self) -> JSON:
        """The ledger JSON of format.md (ValueError for a settlement resumed without its first entries)."""
        if self.offset:
            raise ValueError(f"only the entries after hand {self.offset} are known: settle the whole session")
        return _ledger(self.ruleset, self.players, self.state, list(self.entries))

    @property
    def next_dealer(self) -> int:
        """The seat that deals the next hand (the ledger's ``next_dealer``), without building the ledger."""
        return int(self.state.next_dealer)

    def totals(self) -> JSON:
        """The ledger without its ``hands``: what the state says after the last hand (any offset)."""
        ledger = _ledger(self.ruleset, self.players, self.state, [])
        del ledger["hands"]
        return ledger

    def snapshot(self) -> JSON:
        """This settlement's state as JSON, to :func:`resume` from later (the entries are not in it)."""
        return {
            "format": SNAPSHOT_FORMAT,
            "ruleset": self.ruleset.name,
            "players": list(self.players),
            "count": self.count,
            "state": _snapshot.encode(self.state),
        }


SNAPSHOT_FORMAT = "cartulina-snapshot/1"


def resume(session: Any, snapshot: Any, entries: Sequence[JSON] = ()) -> Settlement:
    """The settlement a snapshot of ``session``'s first hands recorded, with its last ``entries`` if given.

    ``session`` gives the header (its hands are ignored). SnapshotError if the snapshot is
    malformed or not of this session's rule set and players; whether it matches the hands
    is for the caller to know (a snapshot is derived data: keep a digest of what it settled).
    SessionError if the session's header itself is invalid.
    """
    ruleset, players, begin, _hands = _begin({**session, "hands": []} if isinstance(session, Mapping) else session)
    count = _snapshot_count(snapshot, ruleset, players, entries)
    try:
        state = _snapshot.decode(snapshot.get("state"))
    except (ValueError, RecursionError) as exc:
        raise SnapshotError(f"bad snapshot: {exc}") from None
    if type(state) is not type(begin):
        raise SnapshotError("the snapshot's state is not of its rule set")
    numbers = [e.get("n") if isinstance(e, Mapping) else None for e in entries]
    if numbers != list(range(count - len(entries) + 1, count + 1)):
        raise SnapshotError("the entries given are not the snapshot's last ones")
    return Settlement(ruleset, players, state, tuple(entries), count - len(entries))


def _snapshot_count(snapshot: Any, ruleset: Ruleset, players: tuple[str, ...], entries: Sequence[JSON]) -> int:
    """The count of hands a snapshot of this rule set and these players settled (at least ``entries``)."""
    if not isinstance(snapshot, Mapping) or snapshot.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError("not a settlement snapshot")
    if snapshot.get("ruleset") != ruleset.name or snapshot.get("players") != list(players):
        raise SnapshotError("the snapshot is of another rule set or other players")
    count = snapshot.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or not len(entries) <= count:
        raise SnapshotError("the snapshot's count of hands is wrong")
    return count


_EVENTS = ("ajuste", "sienta", "favor")  # R32, R33, R34


def _play(ruleset: Ruleset, state: Any, hand: Any, n: int) -> tuple[Any, JSON]:
    if type(hand) is not dict and not isinstance(hand, Mapping):
        raise SessionError("hand_not_an_object", None, hand=n, type=type(hand).__name__)
    for key in _EVENTS:
        if key in hand and key not in ruleset.events:
            _not_in_ruleset(key, n, ruleset.name)
    try:
        new_state, body = ruleset.play(state, hand, n)
    except HandError as exc:
        raise SessionError.of(exc, n) from None
    entry: JSON = {"n": n}
    entry.update(body)
    return new_state, entry


def _not_in_ruleset(key: str, n: int, name: str) -> None:
    """R32, R33, R34: an ajuste, a sienta or a change of favour is refused by the rule sets without them."""
    if key == "ajuste":
        raise SessionError("ajuste_not_in_ruleset", key, hand=n, ruleset=name)
    if key == "favor":
        raise SessionError("favor_not_in_ruleset", key, hand=n, ruleset=name)
    raise SessionError("sienta_not_in_ruleset", key, hand=n, ruleset=name)


def _ledger(ruleset: Ruleset, players: tuple[str, ...], state: Any, entries: list[JSON]) -> JSON:
    ledger: JSON = {"format": LEDGER_FORMAT, "ruleset": ruleset.name}
    ledger["players"] = {str(i): name for i, name in enumerate(players, 1)}
    ledger.update(ruleset.header(state))
    ledger["hands"] = entries
    ledger.update(ruleset.summary(state))
    return ledger


def _begin(session: Any) -> tuple[Ruleset, tuple[str, ...], Any, list[Any]]:
    if not isinstance(session, Mapping):
        raise SessionError("session_not_an_object")
    _check_format(session.get("format"))
    rules = _rules(session)
    name = rules.get("ruleset")
    ruleset = get_ruleset("tresillo" if name is None else name)  # null counts as absent
    players = _players(session.get("players"), ruleset)
    first = session.get("first_dealer", 1)
    if first is None:
        first = 1
    if not is_int(first) or not 1 <= first <= len(players):
        raise SessionError("first_dealer_not_a_seat", "first_dealer", count=len(players), value=first)
    options = {k: v for k, v in rules.items() if k != "ruleset"}
    try:
        state = ruleset.begin(players, options, first)
    except HandError as exc:
        raise SessionError.of(exc) from None
    return ruleset, players, state, _hands(session)


def _check_format(fmt: object) -> None:
    if fmt != SESSION_FORMAT:
        if fmt is None:
            raise SessionError("format_missing", "format", expected=SESSION_FORMAT)
        raise SessionError("format_unknown", "format", value=fmt, expected=SESSION_FORMAT)


def _rules(session: Mapping[str, Any]) -> Mapping[str, Any]:
    """The session's rules, an object (null counts as absent)."""
    rules = session.get("rules")
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise SessionError("rules_not_an_object", "rules")
    return rules


def _hands(session: Mapping[str, Any]) -> list[Any]:
    """The session's hands, a list (null counts as absent)."""
    hands = session.get("hands", [])
    if hands is None:
        return []
    if not isinstance(hands, list):
        raise SessionError("hands_not_a_list", "hands")
    return hands


def _players(value: Any, ruleset: Ruleset) -> tuple[str, ...]:
    if value is None:
        raise SessionError("players_missing", "players")
    if not isinstance(value, list):
        raise SessionError("players_not_a_list", "players")
    if len(value) not in ruleset.player_counts:
        counts = list(ruleset.player_counts)
        raise SessionError("player_count", "players", ruleset=ruleset.name, counts=counts, count=len(value))
    names: list[str] = []
    for i, name in enumerate(value, 1):
        if not isinstance(name, str) or not name.strip():
            raise SessionError("player_name_missing", "players", seat=i, value=name)
        if name.strip() in names:
            raise SessionError("player_name_twice", "players", seat=i, name=name.strip())
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
