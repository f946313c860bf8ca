"""The common interface of every rule set, and the helpers they share.

A rule set is a module-level object implementing :class:`Ruleset`. The core
parses what every session has in common (format, players, first dealer, the
``ruleset`` key), hands each entry of ``hands`` to the rule set in order and
wraps any :class:`HandError` with the hand's number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from .details import Detail, Moved
from .errors import HandError, SessionError

__all__ = ["HandError", "SessionError"]  # re-exported: the rule sets raise them from here

SESSION_FORMAT = "tresillo-session/1"
LEDGER_FORMAT = "tresillo-ledger/1"

JSON = dict[str, Any]


class Ruleset(Protocol):
    """What every rule set offers the core.

    ``events`` names the entries besides hands and the closing that the rule set takes
    (Tresillo's ajuste and change of player); the core refuses them for the others.
    ``begin`` checks the options and returns the state before the first hand;
    ``play`` settles one more hand on top of a state and returns the new state
    and the ledger entry of that hand (without ``n``); ``summary`` gives the
    ledger's top-level keys after the last hand. States are immutable.
    """

    name: str
    player_counts: tuple[int, ...]
    events: tuple[str, ...]  # the entries besides hands it takes: "ajuste" (R32), "sienta" (R33)

    def begin(self, players: tuple[str, ...], rules: Mapping[str, Any], first_dealer: int) -> Any: ...

    def play(self, state: Any, hand: Mapping[str, Any], n: int) -> tuple[Any, JSON]: ...

    def summary(self, state: Any) -> JSON: ...

    def header(self, state: Any) -> JSON: ...


# ---------------------------------------------------------------- values


def is_int(value: object) -> bool:
    """Tell whether a JSON value is a whole number (``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def describe(value: object) -> str:
    """Quote a bad value for an error message, shortened."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def round_up(amount: int, step: int) -> int:
    """Round a non-negative amount up to a multiple of ``step`` (R14)."""
    if step <= 1 or amount <= 0:
        return amount
    return -(-amount // step) * step


def next_seat(seat: int, count: int) -> int:
    """Seat after ``seat`` in the order of play (R1)."""
    return seat % count + 1


@lru_cache(maxsize=256)
def others(count: int, seat: int) -> tuple[int, ...]:
    """Every seat but ``seat``, in seat order (R4: the participants of a Jugador)."""
    return tuple(s for s in range(1, count + 1) if s != seat)


def check_keys(hand: Mapping[str, Any], allowed: Iterable[str], what: str) -> None:
    """Refuse keys that a hand of this kind does not have; ``what`` is a kind of entry (``ENTRIES``)."""
    allowed_set = set(allowed)
    for key in hand:
        if key not in allowed_set:
            raise HandError("unknown_key", None, key=key, entry=what)


def seat_value(value: object, key: str, count: int, field: str | None = None) -> int:
    """Parse a seat number 1..count; ``field`` (default ``key``) is what an error concerns."""
    if not is_int(value):
        raise HandError("not_a_seat_number", field or key, key=key, value=describe(value))
    assert isinstance(value, int)
    if not 1 <= value <= count:
        raise HandError("seat_out_of_range", field or key, key=key, value=value, count=count)
    return value


def int_value(value: object, key: str, low: int = 0, high: int | None = None, field: str | None = None) -> int:
    """Parse a whole number within bounds; ``field`` (default ``key``) is what an error concerns."""
    if not is_int(value):
        raise HandError("not_a_whole_number", field or key, key=key, value=describe(value))
    assert isinstance(value, int)
    if value < low or (high is not None and value > high):
        _out_of_range(value, key, low, high, field)
    return value


def _out_of_range(value: int, key: str, low: int, high: int | None, field: str | None) -> None:
    if high is None:
        raise HandError("number_too_small", field or key, key=key, low=low, value=value)
    raise HandError("number_out_of_range", field or key, key=key, low=low, high=high, value=value)


def word_value(value: object, key: str, words: Sequence[str], field: str | None = None) -> str:
    """Parse one of a closed set of words; ``field`` (default ``key``) is what an error concerns."""
    if not isinstance(value, str) or value not in words:
        raise HandError("unknown_word", field or key, key=key, value=describe(value), choices=list(words))
    return value


def bool_value(value: object, key: str, field: str | None = None) -> bool:
    """Parse a JSON boolean; ``field`` (default ``key``) is what an error concerns."""
    if not isinstance(value, bool):
        raise HandError("not_a_boolean", field or key, key=key, value=describe(value))
    return value


def option_values(rules: Mapping[str, Any], defaults: Mapping[str, Any], ruleset: str | None) -> dict[str, Any]:
    """The options with their defaults: an unknown key is refused, naming it; null counts as absent."""
    for key in rules:
        if key not in defaults:
            if ruleset is None:
                raise HandError("unknown_rule", None, name=key)
            raise HandError("unknown_rule_for_ruleset", None, name=key, ruleset=ruleset)
    return {**defaults, **{k: v for k, v in rules.items() if v is not None}}


def rule_number(values: Mapping[str, Any], key: str, low: int, rule: str) -> int:
    """An option that takes a whole number of at least ``low`` (``session: rule rounding must be at
    least 1, not 0 (R14)``); ``rule`` is where the option is used (a rule number)."""
    value = values[key]
    if not is_int(value):
        raise HandError("not_a_whole_number", key, key=f"rule {key}", value=describe(value))
    assert isinstance(value, int)
    if value < low:
        raise HandError("rule_number_too_small", key, key=key, low=low, value=value, rule=rule)
    return value


def rule_word(values: Mapping[str, Any], key: str, words: Sequence[str], rule: str) -> str:
    """An option that takes one of a closed set of words (``session: rule X must be one of … (R15)``).

    ``rule`` is where the option is defined (a rule number, or the rule page's options section)."""
    value = values[key]
    if not isinstance(value, str) or value not in words:
        raise HandError("rule_not_a_choice", key, key=key, value=describe(value), choices=list(words), rule=rule)
    return value


def required(hand: Mapping[str, Any], key: str) -> Any:
    """Return a key the hand must have."""
    if key not in hand or hand[key] is None:
        raise HandError("missing_key", key, key=key)
    return hand[key]


def resolve_dealer(hand: Mapping[str, Any], expected: int, count: int) -> int:
    """The hand's dealer: the one it names (correcting the rotation, R2) or the next in turn."""
    value = hand.get("dealer")
    if value is None:
        return expected
    return seat_value(value, "dealer", count)


def check_pass(hand: Mapping[str, Any]) -> None:
    """A "todos pasan" entry: ``pass`` (true), its dealer and a note, nothing else."""
    check_keys(hand, ("pass", "dealer", "note"), "passed")
    if hand["pass"] is not True:
        raise HandError("pass_not_true", "pass", value=describe(hand["pass"]))


def tricks_value(hand: Mapping[str, Any], seats: Sequence[int], total: int = 9, key: str = "tricks") -> dict[int, int]:
    """Parse a seat → tricks object naming exactly ``seats``; at most ``total`` in all."""
    raw = required(hand, key)
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise HandError("tricks_not_an_object", key, key=key)
    result: dict[int, int] = {}
    for k, v in raw.items():
        seat = _SEAT_OF.get(k) if type(k) is str else _seat_key(k)
        if seat is None or seat not in seats:
            raise HandError("tricks_inactive_seat", key, key=key, seat=describe(k), active=list(seats))
        if seat in result:
            raise HandError("tricks_seat_twice", key, key=key, seat=seat)
        if type(v) is not int or not 0 <= v <= total:
            _trick_count(v, seat, total, key)  # raises with the reason
        result[seat] = v
    if len(result) != len(seats) or sum(result.values()) > total:
        _tricks_refused(result, seats, total, key)
    return result


def _tricks_refused(result: dict[int, int], seats: Sequence[int], total: int, key: str) -> None:
    """Refuse tricks that leave out a seat, or come to more than ``total``."""
    missing = [s for s in seats if s not in result]
    if missing:
        raise HandError("tricks_missing_seat", key, key=key, seat=missing[0])
    raise HandError("tricks_too_many", key, key=key, count=sum(result.values()), total=total)


def _trick_count(value: object, seat: int, total: int, key: str) -> None:
    """Refuse a seat's tricks that are not a whole number from 0 to ``total`` (an int subclass passes)."""
    if not is_int(value):
        raise HandError("tricks_not_a_number", key, seat=seat, value=describe(value))
    assert isinstance(value, int)
    if not 0 <= value <= total:
        raise HandError("tricks_out_of_range", key, seat=seat, total=total, value=value)


_SEAT_OF = {str(i): i for i in range(1, 13)}


def _seat_key(key: object) -> int | None:
    if is_int(key):
        assert isinstance(key, int)
        return key
    return None


# ------------------------------------------------------------- outcomes

Outcome = Callable[[int, int, int], object]


@lru_cache(maxsize=4096)
def _completions(a: int, b: int, c: int, total: int) -> tuple[tuple[int, int, int], ...]:
    rest = total - a - b - c
    return tuple((a + x, b + y, c + rest - x - y) for x in range(rest + 1) for y in range(rest + 1 - x))


_decided_cache: dict[tuple[object, int, int, int, int], object] = {}


def decided(outcome: Outcome, counts: tuple[int, int, int], total: int = 9) -> object | None:
    """R10: the outcome every completion of a short split gives, or None if they differ."""
    a, b, c = counts
    if a + b + c == total:
        return outcome(a, b, c)
    key = (outcome, a, b, c, total)
    if key in _decided_cache:
        return _decided_cache[key]
    results = {outcome(*full) for full in _completions(a, b, c, total)}
    answer = results.pop() if len(results) == 1 else None
    _decided_cache[key] = answer
    return answer


# ------------------------------------------------------------ the ledger


def transfer(source: int | str, target: int | str, amount: int, concept: str, detail: str | Detail) -> JSON:
    """One movement of tantos as the ledger writes it; ``source``/``target`` is a seat or a pot.

    ``detail`` is the explanation: plain Spanish text, or a :class:`~scorer.engine.details.Detail`
    whose words and data (``why``: a code and its numbers, for a page in another language) are
    written when the transfer is first read (:class:`~scorer.engine.details.Moved`).
    """
    if isinstance(detail, Detail):
        return Moved.of(source, target, amount, concept, detail)
    return {"from": source, "to": target, "amount": amount, "concept": concept, "detail": str(detail)}


_SEAT_KEYS = tuple(str(i) for i in range(1, 13))


def seat_map(values: Sequence[int]) -> dict[str, int]:
    """Seat-keyed JSON object of per-seat values."""
    return dict(zip(_SEAT_KEYS, values, strict=False))


def hand_entry(dealer: int | None, result: str, transfers: list[JSON], balances: Sequence[int]) -> JSON:
    """The keys every ledger entry starts with (format.md): the dealer, the result, the transfers and
    the balances after it; each rule set adds its pots."""
    return {"dealer": dealer, "result": result, "transfers": transfers, "balances": seat_map(balances)}
