"""Errors as data: every refusal of the engine has a stable code, a field and parameters.

``MESSAGES`` maps each code to its English template; the template, filled with the
error's parameters, is the reason the CLI prints (``hand 7: tricks 4-4-0 do not decide
the hand (R10)``). A web layer renders the same code in its own language from
``code``, ``field`` and ``params`` instead of reading the English text.

Parameters are plain JSON values (str, int, or a list of them). Two kinds are words the
template spells in English:

* ``entry`` names a kind of session entry by an identifier (``ENTRIES``: ``played``,
  ``closing``, ``ajuste``…), spelled "a played hand", "the closing", "an ajuste"…;
* the list parameters (``LISTS``: ``choices``, ``counts``, ``active``, ``contra``) are
  joined, by ``" or "`` for ``counts`` and by ``", "`` otherwise.

``value`` parameters are mostly the offending value already quoted as the engine quotes
it (``describe``: a ``repr`` shortened to 40 characters; where the template says
``{value!r}`` it is the raw JSON value); ``split`` is the tricks as
``J-A-B`` (Jugador first); ``rule`` is the rule cited (R10, O2, P11…).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

MESSAGES: Final[dict[str, str]] = {
    # ------------------------------------------------------------ the session (core)
    "session_not_an_object": "the session must be a JSON object",
    "format_missing": "missing format (expected {expected!r})",
    "format_unknown": "unknown format {value!r} (expected {expected!r})",
    "rules_not_an_object": "rules must be an object",
    "ruleset_unknown": "unknown ruleset {value} (expected {choices})",
    "players_missing": "missing players",
    "players_not_a_list": "players must be a list of names",
    "player_count": "{ruleset} needs {counts} players, not {count}",
    "player_name_missing": "player {seat} must have a name, not {value!r}",
    "player_name_twice": "player name {name!r} appears twice",
    "first_dealer_not_a_seat": "first_dealer must be a seat from 1 to {count}, not {value!r}",
    "hands_not_a_list": "hands must be a list",
    "hand_not_an_object": "a hand must be an object, not {type}",
    "ajuste_not_in_ruleset": "an ajuste (R32) is a Tresillo entry; the {ruleset} rule set has none",
    "sienta_not_in_ruleset": "a change of player (sienta, R33) is a Tresillo entry; the {ruleset} rule set has none",
    "unknown_rule": "unknown rule {name!r}",
    "unknown_rule_for_ruleset": "unknown rule {name!r} for {ruleset}",
    "rule_not_a_choice": "rule {key} must be one of {choices}, not {value} ({rule})",
    "rule_number_too_small": "rule {key} must be at least {low}, not {value} ({rule})",
    "favor_not_in_ruleset": "a change of favour suit (favor, R34) is a Tresillo entry; the {ruleset} rule set has none",
    # ------------------------------------------------------------ values (core helpers)
    "unknown_key": "unknown key {key!r} in {entry}",
    "missing_key": "missing {key}",
    "not_a_seat_number": "{key} must be a seat number, not {value}",
    "seat_out_of_range": "{key} {value} is not a seat (1-{count})",
    "not_a_whole_number": "{key} must be a whole number, not {value}",
    "number_too_small": "{key} must be at least {low}, not {value}",
    "number_out_of_range": "{key} must be between {low} and {high}, not {value}",
    "unknown_word": "unknown {key} {value} (expected {choices})",
    "not_a_boolean": "{key} must be true or false, not {value}",
    "pass_not_true": "pass must be true, not {value}",
    "entry_has_dealer": "{entry} has no dealer ({rule})",
    "after_closing": "no hand may follow the closing ({rule})",
    # ------------------------------------------------------------ tricks (R10, O2)
    "tricks_not_an_object": "{key} must be an object of seat: tricks",
    "tricks_inactive_seat": "{key} names seat {seat}, which is not active (active: {active})",
    "tricks_seat_twice": "{key} names seat {seat} twice",
    "tricks_not_a_number": "tricks of seat {seat} must be a whole number, not {value}",
    "tricks_out_of_range": "tricks of seat {seat} must be between 0 and {total}, not {value}",
    "tricks_missing_seat": "{key} has no count for seat {seat}",
    "tricks_too_many": "{key} add up to {count}, more than {total}",
    "tricks_undecided": "tricks {split} do not decide the hand ({rule})",
    # ------------------------------------------------------------ Tresillo: a played hand
    "jugador_is_alcalde": "jugador {seat} is the alcalde (dealer) and does not play",
    "vuelta_solera_not_admitted": "vuelta_solera is not admitted by the rules of this table",
    "estuches_and_contraestuches": "a hand cannot have both estuches and contraestuches (R12)",
    "estuches_impossible": "impossible {key} {value}: 0, or 3 to {top} with {trump} (R12)",
    "defensor_without_rendida": "defensor without rendida",
    "rendida_with_bola": "a rendida cannot have a bola",
    "rendida_with_primeras": "a rendida has no primeras (R13)",
    "rendida_lance": "a {lance} cannot be surrendered (R25)",
    "vuelta_rendida_defended": "a vuelta rendida cannot be defended (R26)",
    "defensor_not_contra": "defensor {seat} is not a contra player (contra: {contra})",
    "defended_tricks_undecided": "tricks {split} (rendido-defensor-pobre) do not decide the hand (R10)",
    "tricks_after_primeras": "tricks {split}: after primeras the Jugador stops at 5 or plays the bola to 9 (R13)",
    "bola_hecha_not_nine": "bola hecha needs all nine tricks, not {split} ({rule})",
    "bola_cortada_split": "a bola cortada stops at the contra's first trick (J-1-0), not {split} (R19)",
    "primeras_jugador_split": (
        "primeras for the jugador only as 5-0-0, 9-0-0 or a bola cortada J-1-0, not {split} (R13)"
    ),
    "primeras_contra_split": "primeras for the contra need a puesta, not {split} (R13)",
    # ------------------------------------------------------------ Tresillo: events (R32, R33)
    "ajuste_not_an_object": "ajuste must be an object with from, to and amount (R32)",
    "ajuste_bad_target": "ajuste to must be a seat, plato or todos, not {value} (R32)",
    "ajuste_to_itself": "an ajuste from seat {seat} to itself moves nothing (R32)",
    "sienta_not_an_object": "sienta must be an object with seat and player (R33)",
    "sienta_player_not_a_name": "sienta player must be a name, not {value} (R33)",
    "player_already_seated": "{name} is already seated at seat {seat} (R33)",
    # ------------------------------------------------------------ pozo y viuda
    "jugador_is_dealer": "jugador {seat} is the dealer and does not play (R3)",
    "contrabola_not_admitted": "contrabola is not admitted by the rules of this table (P9)",
    "contrabola_matadores": "a contrabola must have matadores 0, not {value} (P9)",
    "declared_with_primeras": "a declared {lance} has no primeras (P9)",
    "declared_with_bola": "a declared {lance} has no bola key (P9)",
    "declared_tricks_not_nine": "tricks of a declared {lance} must add up to nine, not {count} (P9)",
    "bola_cortada_not_won": (
        "a bola cortada has 5 to 8 tricks for the Jugador and is recorded played out to nine (7-2-0)"
        " or stopped at the defenders' first trick (6-1-0), not {split} (P13)"
    ),
    "primeras_not_won": "primeras for the Jugador only as 5-0-0, 9-0-0 or a bola cortada, not {split} (P13)",
    "tricks_after_five": "tricks {split}: a Jugador who won the first five stops at 5-0-0 or plays the bola (P13)",
    # ------------------------------------------------------------ ombre
    "session_over": "the session is over (O6): no further entry, not even the closing",
    "ombre_key": "an ombre hand has no {key} (O1)",
    # ------------------------------------------------------------ Tresillo: favour suit (R34)
    "favor_same_suit": "the favour suit is already {suit}: a change of favour names another suit (R34)",
    # ------------------------------------------------------------ bandos
    "game_over": "the game is over: team {team} won (B4)",
    "bandos_no_closing": "bandos has no closing: the game ends at the target (B4)",
    "bandos_no_pass": "bandos has no passed hand: a hand needs primeras or a falta (B2)",
    "capote_without_primeras": "capote needs primeras: the team that won all six tricks (B2)",
    "hand_without_primeras": "a hand needs primeras or a falta (B2)",
    "primeras_none_not_literal": (
        'primeras "none" needs the rule scoring first_three_tricks; under first_to_three a team always has them (B5)'
    ),
    "primeras_none_with_capote": 'capote with primeras "none": the team that won all six won the first three (B5)',
    "faltas_not_a_list": "faltas must be a list of {{seat, falta}}",
    "falta_not_an_object": "falta {index} must be an object with seat and falta, not {value}",
    "falta_unknown_key": "unknown key {key!r} in falta {index}",
    "falta_missing_seat": "missing seat in falta {index}",
    "falta_missing_kind": "missing falta in falta {index}",
}

# The kinds of entry an ``entry`` parameter names, as the English text spells them.
ENTRIES: Final[dict[str, str]] = {
    "played": "a played hand",
    "passed": "a passed hand",
    "hand": "a hand",
    "closing": "the closing",
    "ajuste": "an ajuste",
    "ajuste_body": "the ajuste",
    "sienta": "a change of player",
    "sienta_body": "the change of player",
    "favor": "a change of favour suit",
}

# The list parameters and how the English text joins them.
LISTS: Final[dict[str, str]] = {"choices": ", ", "active": ", ", "contra": ", ", "counts": " or "}


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English reason of an error: its code's template filled with its parameters."""
    values: dict[str, Any] = {}
    for name, value in params.items():
        if name == "entry":
            value = ENTRIES[value]
        elif name == "lance":
            value = str(value).replace("_", " ")
        elif name in LISTS:
            value = LISTS[name].join(str(v) for v in value)
        values[name] = value
    return MESSAGES[code].format(**values)


class HandError(ValueError):
    """An invalid hand (or rule option); the core adds the hand number.

    ``code`` is a key of ``MESSAGES``, ``field`` the hand key or form field it concerns
    (None for the entry as a whole) and ``params`` fill the template; ``str()`` is the
    English reason.
    """

    def __init__(self, code: str, field: str | None = None, /, **params: Any) -> None:
        self.code = code
        self.field = field
        self.params: dict[str, Any] = params
        self.reason = render(code, params)
        super().__init__(self.reason)

    def __reduce__(self) -> tuple[Any, ...]:  # pickle and copy rebuild from the data, not the text
        return (self._rebuild, (self.code, self.field, self.params))

    @classmethod
    def _rebuild(cls, code: str, field: str | None, params: dict[str, Any]) -> HandError:
        return cls(code, field, **params)


class SessionError(ValueError):
    """Invalid input; ``str()`` is the one line the CLI prints (``hand 7: …`` or ``session: …``).

    Besides ``reason`` and ``hand`` (None for the session as a whole) it carries the
    ``code``, ``field`` and ``params`` of :class:`HandError`.
    """

    def __init__(self, code: str, field: str | None = None, /, *, hand: int | None = None, **params: Any) -> None:
        self.code = code
        self.field = field
        self.params: dict[str, Any] = params
        self.reason = render(code, params)
        self.hand = hand
        prefix = "session" if hand is None else f"hand {hand}"
        super().__init__(f"{prefix}: {self.reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (self._rebuild, (self.code, self.field, self.hand, self.params))

    @classmethod
    def _rebuild(cls, code: str, field: str | None, hand: int | None, params: dict[str, Any]) -> SessionError:
        return cls(code, field, hand=hand, **params)

    @classmethod
    def of(cls, error: HandError, hand: int | None = None) -> SessionError:
        """The HandError of a hand (or of the rules, with no hand) as the session's error."""
        return cls(error.code, error.field, hand=hand, **error.params)
