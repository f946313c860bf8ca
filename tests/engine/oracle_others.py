"""Independent, deliberately plain implementations of ``rules/pozo-viuda.md``, ``rules/ombre.md`` and
``rules/bandos.md`` (with ``format.md`` for the common parts and R2/R3/R9/R10 of ``rules/tresillo.md``).

Written from the documents only, before reading ``scorer/engine/{pozo_viuda,ombre,bandos}.py``, so that
the tests can compare the engine with it hand by hand. State is a few dicts and lists mutated in place;
each rule is applied where the document says, with its number in a comment.

``settle(session)`` dispatches on ``rules.ruleset`` and returns a ledger-like dict (per hand: ``n``,
``dealer``, ``result`` and the rule set's state keys; the same state keys and ``next_dealer`` at the top)
or raises :class:`OracleError` carrying the hand number (None for the session). Transfers are not
produced. Where the documents leave a point open, the reading chosen is marked "Resolved ambiguity".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

# the same refusal, int test and R9 (('ganada', None), ('codillo', 0 = first contra / 1 = second), ('puesta', None))
# as the Tresillo oracle
from tests.engine.oracle_tresillo import OracleError, _is_int
from tests.engine.oracle_tresillo import outcome as r9

SUITS = ("oros", "copas", "espadas", "bastos")
BLACK = ("espadas", "bastos")


def _present(hand: dict[str, Any], key: str) -> bool:
    # Resolved ambiguity (as the Tresillo engine and oracle): a key whose value is null counts as absent.
    return hand.get(key) is not None


# ------------------------------------------------------------------------------------------ outcomes


def majority(j: int, a: int, b: int) -> tuple[str, int | None]:
    """O2 ``majority_five``: sacada (ganada) with 5+, codille by a defender with 5+, else puesta."""
    if j >= 5:
        return ("ganada", None)
    if a >= 5:
        return ("codillo", 0)
    if b >= 5:
        return ("codillo", 1)
    return ("puesta", None)


def decided(rule: Callable[[int, int, int], Any], counts: tuple[int, int, int]) -> Any:
    """R10: the outcome (with the codillo giver) every completion gives, or None."""
    j, a, b = counts
    rest = 9 - j - a - b
    seen = set()
    for x in range(rest + 1):
        for y in range(rest + 1 - x):
            seen.add(rule(j + x, a + y, b + rest - x - y))
    return seen.pop() if len(seen) == 1 else None


# ------------------------------------------------------------------------------------- common parts


def _players(session: dict[str, Any], counts: tuple[int, ...]) -> list[str]:
    players = session.get("players")
    if not isinstance(players, list) or len(players) not in counts:
        raise OracleError(None, f"needs {counts} players")
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise OracleError(None, "bad player name")
    if len({p.strip() for p in players}) != len(players):
        raise OracleError(None, "a name appears twice")  # as the Tresillo oracle: names are unique
    return players


def _first_dealer(session: dict[str, Any], n: int) -> int:
    first = session.get("first_dealer", 1)
    if first is None:
        first = 1
    if not _is_int(first) or not 1 <= first <= n:
        raise OracleError(None, "bad first_dealer")
    return int(first)


def _hands(session: dict[str, Any]) -> list[Any]:
    hands = session.get("hands", [])
    if hands is None:
        hands = []
    if not isinstance(hands, list):
        raise OracleError(None, "hands must be a list")
    return hands


def _options(raw: dict[str, Any], defaults: dict[str, Any], check: Callable[[str, Any], bool]) -> dict[str, Any]:
    out = dict(defaults)
    for key, value in raw.items():
        if key == "ruleset":
            continue
        if key not in defaults:
            raise OracleError(None, f"unknown rule {key}")
        if value is None:
            continue  # format.md, every rule set: null means the default
        if not check(key, value):
            raise OracleError(None, f"bad {key}")
        out[key] = value
    return out


def _dealer(hand: dict[str, Any], expected: int, count: int, n: int) -> int:
    """R2: the hand's named dealer corrects the rotation."""
    d = hand.get("dealer")
    if d is None:
        return expected
    if not _is_int(d) or not 1 <= d <= count:
        raise OracleError(n, "bad dealer")
    return int(d)


def _tricks(hand: dict[str, Any], active: list[int], n: int) -> dict[int, int]:
    raw = hand.get("tricks")
    if not isinstance(raw, dict):
        raise OracleError(n, "missing tricks")
    out: dict[int, int] = {}
    for k, v in raw.items():
        ok = isinstance(k, str) and k.isascii() and k.isdigit() and not k.startswith("0")
        if not ok or int(k) not in active or int(k) in out:
            raise OracleError(n, "tricks name a seat that is not active")
        if not _is_int(v) or not 0 <= v <= 9:
            raise OracleError(n, "bad trick count")
        out[int(k)] = v
    if set(out) != set(active):
        raise OracleError(n, "tricks must name the active seats")
    if sum(out.values()) > 9:
        raise OracleError(n, "more than nine tricks")
    return out


def _check_keys(hand: dict[str, Any], allowed: set[str], n: int) -> None:
    # "note": accepted and ignored, as the Tresillo engine does for every kind of hand.
    # An ajuste (R32) or a change of player (R33) is a Tresillo entry: format.md lets each rule set
    # give its own hand keys, and none of these documents has them, so they are unknown keys here.
    for k in hand:
        if k not in allowed | {"dealer", "note"}:
            raise OracleError(n, f"unknown key {k}")


def _is_close(hand: dict[str, Any]) -> bool:
    return "close" in hand


def _is_pass(hand: dict[str, Any]) -> bool:
    return "pass" in hand


# -------------------------------------------------------------------------------------- pozo y viuda


POZO_DEFAULTS: dict[str, Any] = {
    "favor_suit": "oros",
    "pozo_stake": 5,
    "viuda_stake": 25,
    "pozo_cap": 4,
    "contrabola": False,
}
PV_LANCES = ("juego", "volteo", "roben", "bola", "contrabola")


def _pozo_option(key: str, value: Any) -> bool:
    if key == "favor_suit":
        return value in SUITS  # null = absent = oros (this rule set always has a favour suit)
    if key == "contrabola":
        return isinstance(value, bool)
    return _is_int(value) and value >= 1  # pozo_stake, viuda_stake, pozo_cap: whole numbers >= 1


class _PozoTable:
    def __init__(self, n: int, rules: dict[str, Any], first: int) -> None:
        self.n = n
        self.rules = rules
        self.seats = list(range(1, n + 1))
        self.bal = {s: 0 for s in self.seats}
        self.pozo = 0
        self.reserves: list[int] = []
        self.viuda = 0
        self.next_dealer = first
        self.started = False
        self.closed = False
        self.cap = rules["pozo_cap"] * rules["pozo_stake"] * n

    def into_pozo(self, seat: int, amount: int) -> None:
        """P4: the pozo up to its cap, then the last reserve up to the cap, then new reserves."""
        self.bal[seat] -= amount
        room = self.cap - self.pozo
        put = min(room, amount)
        self.pozo += put
        amount -= put
        while amount > 0:
            if not self.reserves or self.reserves[-1] >= self.cap:
                self.reserves.append(0)
            put = min(self.cap - self.reserves[-1], amount)
            self.reserves[-1] += put
            amount -= put

    def into_viuda(self, seat: int, amount: int) -> None:
        self.bal[seat] -= amount
        self.viuda += amount

    def pay(self, src: int, dst: int, amount: int) -> None:
        self.bal[src] -= amount
        self.bal[dst] += amount

    def take_pozo(self, seat: int) -> None:
        """P4: the winner takes the pozo; the first reserve becomes the pozo."""
        self.bal[seat] += self.pozo
        self.pozo = self.reserves.pop(0) if self.reserves else 0

    def take_viuda(self, seat: int) -> None:
        """P5: he takes the whole viuda and every player puts viuda_stake into the new one."""
        self.bal[seat] += self.viuda
        self.viuda = 0
        for s in self.seats:
            self.into_viuda(s, self.rules["viuda_stake"])

    def begin_hand(self) -> None:
        if not self.started:  # P1, paid with the first hand of the session
            self.started = True
            for s in self.seats:
                self.into_pozo(s, self.rules["pozo_stake"])
                self.into_viuda(s, self.rules["viuda_stake"])

    def restake(self) -> None:
        """P2: a hand (played or passed) starting with an empty pozo and no reserve."""
        if self.pozo == 0 and not self.reserves:
            for s in self.seats:
                self.into_pozo(s, self.rules["pozo_stake"])

    def play(self, hand: Any, n: int) -> dict[str, Any]:
        if not isinstance(hand, dict):
            raise OracleError(n, "a hand must be an object")
        if self.closed:
            raise OracleError(n, "no hand may follow the closing")  # P11
        if _is_close(hand):
            _check_keys(hand, {"close"}, n)
            if hand["close"] != "repartir" or _present(hand, "dealer"):
                raise OracleError(n, "bad closing")
            self.begin_hand()
            self.close()
            return {"dealer": None, "result": "cierre"}
        if _is_pass(hand):
            _check_keys(hand, {"pass"}, n)
            if hand["pass"] is not True:
                raise OracleError(n, "bad pass")
            dealer = _dealer(hand, self.next_dealer, self.n, n)
            self.begin_hand()
            self.restake()
            for s in self.seats:  # P3
                self.into_pozo(s, self.rules["pozo_stake"])
            self.next_dealer = dealer % self.n + 1
            return {"dealer": dealer, "result": "paso"}
        _check_keys(hand, {"jugador", "lance", "trump", "matadores", "tricks", "primeras", "bola"}, n)
        dealer = _dealer(hand, self.next_dealer, self.n, n)
        result = self.played(hand, n, dealer)
        self.next_dealer = dealer % self.n + 1
        return {"dealer": dealer, "result": result}

    def close(self) -> None:
        """P11: pozo, reserves and viuda shared equally; the odd points to seats 1, 2, …"""
        total = self.pozo + sum(self.reserves) + self.viuda
        share, odd = divmod(total, self.n)
        for s in self.seats:
            self.bal[s] += share + (1 if s <= odd else 0)
        self.pozo, self.reserves, self.viuda = 0, [], 0
        self.closed = True

    def played(self, hand: dict[str, Any], n: int, dealer: int) -> str:
        bad = OracleError
        active = [s for s in self.seats if self.n == 3 or s != dealer]  # R3
        j = hand.get("jugador")
        if not _is_int(j) or j not in active:
            raise bad(n, "jugador is not an active seat")
        lance = hand.get("lance")
        if lance not in PV_LANCES:
            raise bad(n, "bad lance")
        if lance == "contrabola" and not self.rules["contrabola"]:
            raise bad(n, "contrabola not admitted")  # P9
        trump = hand.get("trump")
        if trump not in SUITS:
            raise bad(n, "bad trump")
        mat = hand.get("matadores", 0)
        if mat is None:
            mat = 0
        if not _is_int(mat) or not 0 <= mat <= (3 if trump in BLACK else 4):
            raise bad(n, "bad matadores")
        if lance == "contrabola" and mat != 0:
            raise bad(n, "a contrabola has no matadores")  # P9
        tricks = _tricks(hand, active, n)
        favor = self.rules["favor_suit"] is not None and trump == self.rules["favor_suit"]
        m = mat * (2 if favor else 1)
        premio = {"juego": 0, "volteo": 5, "roben": 20 if favor else 10, "bola": 40, "contrabola": 40}[lance]
        roben_favor = lance == "roben" and favor
        others = [s for s in active if s != j]
        participants = [s for s in self.seats if s != j]

        self.begin_hand()
        self.restake()  # P2 (before any validation-dependent money: validation below raises anyway)

        if lance in ("bola", "contrabola"):  # P9
            if _present(hand, "primeras") or _present(hand, "bola"):
                raise bad(n, "a declared bola has no primeras/bola keys")
            if sum(tricks.values()) != 9:
                raise bad(n, "a declared bola needs all nine tricks")
            won = tricks[j] == 9 if lance == "bola" else tricks[j] == 0
            if won:
                for s in participants:
                    self.pay(s, j, m + 40)
                self.take_pozo(j)
                self.take_viuda(j)
                return lance
            self.into_pozo(j, self.pozo)
            self.into_viuda(j, self.viuda)
            self.into_viuda(j, m)
            for s in participants:
                self.pay(j, s, 40)
            return "perdida"

        primeras = hand.get("primeras")
        if primeras is not None and primeras != "jugador":
            raise bad(n, "bad primeras")
        bola = hand.get("bola")
        if bola is not None and bola not in ("hecha", "cortada"):
            raise bad(n, "bad bola")
        # P13: primeras and the bola are read from the tricks, whatever the flags say.
        jt = tricks[j]
        dt = tricks[others[0]] + tricks[others[1]]
        if bola == "hecha" and jt != 9:
            raise bad(n, "bola hecha needs nine tricks")
        if dt == 0 and 6 <= jt <= 8:
            raise bad(n, "a Jugador with the first five stops at 5 or plays the bola to its end")
        kind: str
        giver_i: int | None = None
        if jt == 9:
            if bola == "cortada":
                raise bad(n, "9-0-0 is a bola hecha, not cortada")
            reading = "bola_hecha"
        elif jt == 5 and dt == 0:
            if bola == "cortada":
                raise bad(n, "5-0-0 stops at primeras: no bola was cut")
            reading = "primeras"
        elif primeras == "jugador" or bola == "cortada":
            played_out = jt + dt == 9
            stopped = dt == 1
            if not (5 <= jt <= 8 and dt >= 1 and (played_out or stopped)):
                raise bad(n, "primeras or a bola cortada with an impossible split")
            reading = "cortada"
        else:
            reading = "plain"
        if reading == "plain":
            out = decided(r9, (jt, tricks[others[0]], tricks[others[1]]))
            if out is None:
                raise bad(n, "tricks do not decide the hand")  # R10
            kind, giver_i = out
        else:
            kind = "ganada"
        has_primeras = reading != "plain"

        if reading == "bola_hecha":  # P8
            for s in participants:
                self.pay(s, j, m + 1 + 40)
            self.take_pozo(j)
            self.take_viuda(j)
            return "bola"
        if kind == "ganada":  # P5 (and P10 first)
            for s in participants:
                self.pay(s, j, m + premio + (1 if has_primeras else 0))
            self.take_pozo(j)
            if roben_favor:
                self.take_viuda(j)
            if reading == "cortada":  # P10
                self.into_viuda(j, self.viuda)
                for s in participants:
                    self.pay(j, s, 40)
            return "ganada"
        # P6 / P7
        held = self.pozo
        self.into_pozo(j, held)
        if roben_favor:
            self.into_viuda(j, self.viuda)
        self.into_viuda(j, m)
        for s in participants:
            self.pay(j, s, premio)
        if kind == "codillo":
            assert giver_i is not None
            self.pay(j, others[giver_i], held)
        return kind

    def snapshot(self) -> dict[str, Any]:
        return {
            "balances": {str(s): v for s, v in self.bal.items()},
            "pozo": {"amount": self.pozo, "reserves": list(self.reserves)},
            "viuda": self.viuda,
        }

    def check(self) -> None:
        assert sum(self.bal.values()) + self.pozo + sum(self.reserves) + self.viuda == 0  # P12
        assert self.pozo <= self.cap and all(0 < r <= self.cap for r in self.reserves)


# --------------------------------------------------------------------------------------------- ombre

OMBRE_DEFAULTS: dict[str, Any] = {
    "stake": 10,
    "solo_stake": 20,
    "vole_bonus": 10,
    "matador_bonus": 5,
    "deals": None,
    "target": None,
    "outcome": "majority_five",  # O2
    "codille": "double_sacada",  # O4
}
OMBRE_OUTCOMES = {"majority_five": majority, "most_tricks": r9}  # O2


def _ombre_option(key: str, value: Any) -> bool:
    if key == "outcome":
        return value in OMBRE_OUTCOMES
    if key == "codille":
        return value in ("double_sacada", "double_stake")
    if key in ("vole_bonus", "matador_bonus"):
        return _is_int(value) and value >= 0  # bonuses: whole numbers >= 0
    return _is_int(value) and value >= 1  # stakes, deals, target: whole numbers >= 1


class _OmbreTable:
    def __init__(self, rules: dict[str, Any], first: int) -> None:
        self.rules = rules
        self.seats = [1, 2, 3]
        self.bal = {s: 0 for s in self.seats}
        self.bote = 0
        self.deals = 0
        self.over = False
        self.closed = False
        self.next_dealer = first

    def pay(self, src: int, dst: int, amount: int) -> None:
        self.bal[src] -= amount
        self.bal[dst] += amount

    def play(self, hand: Any, n: int) -> dict[str, Any]:
        if not isinstance(hand, dict):
            raise OracleError(n, "a hand must be an object")
        if self.closed:
            raise OracleError(n, "no hand may follow the closing")  # O7
        if self.over:
            # O6: "Once the session is over, every further entry, the closing included, is refused"
            raise OracleError(n, "the session is over")
        if _is_close(hand):
            _check_keys(hand, {"close"}, n)
            if hand["close"] != "repartir" or _present(hand, "dealer"):
                raise OracleError(n, "bad closing")
            share, odd = divmod(self.bote, 3)  # O7
            for s in self.seats:
                self.bal[s] += share + (1 if s <= odd else 0)
            self.bote = 0
            self.closed = True
            self.over = True
            return {"dealer": None, "result": "cierre"}
        if _is_pass(hand):
            _check_keys(hand, {"pass"}, n)
            if hand["pass"] is not True:
                raise OracleError(n, "bad pass")
            dealer = _dealer(hand, self.next_dealer, 3, n)
            result = "paso"
        else:
            _check_keys(hand, {"jugador", "lance", "trump", "tricks", "matadores_en"}, n)
            dealer = _dealer(hand, self.next_dealer, 3, n)
            result = self.played(hand, n)
        self.next_dealer = dealer % 3 + 1
        self.deals += 1
        d, t = self.rules["deals"], self.rules["target"]
        if (d is not None and self.deals >= d) or (t is not None and any(b >= t for b in self.bal.values())):
            self.over = True  # O6
        return {"dealer": dealer, "result": result}

    def played(self, hand: dict[str, Any], n: int) -> str:
        bad = OracleError
        j = hand.get("jugador")
        if not _is_int(j) or j not in self.seats:
            raise bad(n, "bad jugador")
        lance = hand.get("lance")
        if lance not in ("entrada", "vuelta", "solo"):
            raise bad(n, "bad lance")
        if hand.get("trump") not in SUITS:
            raise bad(n, "bad trump")
        holder = hand.get("matadores_en")
        if holder is not None and (not _is_int(holder) or holder not in self.seats):
            raise bad(n, "bad matadores_en")
        tricks = _tricks(hand, self.seats, n)
        others = [s for s in self.seats if s != j]
        rule = OMBRE_OUTCOMES[self.rules["outcome"]]  # O2: the seed's majority or R9
        out = decided(rule, (tricks[j], tricks[others[0]], tricks[others[1]]))
        if out is None:
            raise bad(n, "tricks do not decide the hand")  # R10 with the table's rule
        kind, giver_i = out
        stake = self.rules["solo_stake"] if lance == "solo" else self.rules["stake"]
        if holder is not None:  # O5
            got = min(self.rules["matador_bonus"], self.bote)
            self.bote -= got
            self.bal[holder] += got
        if kind == "ganada":  # O2 (vole: all nine, under either outcome rule)
            for s in others:
                self.pay(s, j, stake + (self.rules["vole_bonus"] if tricks[j] == 9 else 0))
            self.bal[j] += self.bote
            self.bote = 0
        elif kind == "puesta":  # O3
            self.bal[j] -= 2 * stake
            self.bote += 2 * stake
        else:  # O4: twice the sacada's amount; the sacada is S from each of two defenders
            assert giver_i is not None
            sacada = 2 * stake
            self.pay(j, others[giver_i], 2 * sacada if self.rules["codille"] == "double_sacada" else 2 * stake)
        return kind

    def snapshot(self) -> dict[str, Any]:
        return {"balances": {str(s): v for s, v in self.bal.items()}, "bote": self.bote, "over": self.over}

    def check(self) -> None:
        assert sum(self.bal.values()) + self.bote == 0  # O8


# -------------------------------------------------------------------------------------------- bandos

BANDOS_DEFAULTS: dict[str, Any] = {"target": 12, "fuera_de_turno": 1, "renuncio": 1, "scoring": "first_to_three"}
TEAMS = {"A": [1, 3, 5], "B": [2, 4, 6]}


def _bandos_option(key: str, value: Any) -> bool:
    if key == "scoring":
        return value in ("first_to_three", "first_three_tricks")  # B2, B5
    if key == "target":
        return _is_int(value) and value >= 1
    return _is_int(value) and value >= 0


def _team_of(seat: int) -> str:
    return "A" if seat % 2 == 1 else "B"


class _BandosTable:
    def __init__(self, rules: dict[str, Any], first: int) -> None:
        self.rules = rules
        self.scores = {s: 0 for s in range(1, 7)}
        self.over = False
        self.winner: str | None = None
        self.next_dealer = first

    def play(self, hand: Any, n: int) -> dict[str, Any]:
        bad = OracleError
        if not isinstance(hand, dict):
            raise bad(n, "a hand must be an object")
        if self.over:
            raise bad(n, "the game is over")  # B4
        # No passes or closings in this rule set: those keys are unknown.
        _check_keys(hand, {"primeras", "capote", "faltas"}, n)
        dealer = _dealer(hand, self.next_dealer, 6, n)
        prim = hand.get("primeras")
        literal = self.rules["scoring"] == "first_three_tricks"  # B5
        if prim is not None and prim not in (("A", "B", "none") if literal else ("A", "B")):
            raise bad(n, "bad primeras")  # "none" only under the literal reading (B5)
        capote = hand.get("capote")
        if capote is not None and not isinstance(capote, bool):
            raise bad(n, "bad capote")
        if capote and prim is None:
            raise bad(n, "capote without primeras")  # B2: "when that team won all six"
        if capote and prim == "none":
            raise bad(n, "capote with nobody's primeras")  # B5
        faltas = hand.get("faltas")
        if faltas is None:
            faltas = []
        if not isinstance(faltas, list):
            raise bad(n, "faltas must be a list")
        parsed: list[tuple[int, int]] = []
        for f in faltas:
            if not isinstance(f, dict) or not set(f) <= {"seat", "falta", "points"}:
                raise bad(n, "bad falta")
            seat = f.get("seat")
            if not _is_int(seat) or not 1 <= seat <= 6:
                raise bad(n, "bad falta seat")
            kind = f.get("falta")
            if kind not in ("fuera_de_turno", "renuncio"):
                raise bad(n, "bad falta kind")
            pts = f.get("points")
            if pts is None:
                pts = self.rules[kind]
            elif not _is_int(pts) or pts < 0:
                raise bad(n, "bad points")
            parsed.append((seat, pts))
        if prim is None and not parsed:
            raise bad(n, "a hand needs primeras or a fault")  # B2
        if prim in TEAMS:  # B2 ("none": nobody scores, B5)
            for s in TEAMS[prim]:
                self.scores[s] += 2 if capote else 1
        for seat, pts in parsed:  # B3, in order
            mine = TEAMS[_team_of(seat)]
            theirs = TEAMS["B" if _team_of(seat) == "A" else "A"]
            if self.scores[seat] > 0:
                for s in mine:
                    self.scores[s] = max(0, self.scores[s] - pts)
            else:
                for s in theirs:
                    self.scores[s] += pts
        self.next_dealer = dealer % 6 + 1
        best = {t: max(self.scores[s] for s in seats) for t, seats in TEAMS.items()}
        if max(self.scores.values()) >= self.rules["target"] and best["A"] != best["B"]:  # B4
            self.over = True
            self.winner = "A" if best["A"] > best["B"] else "B"
            return {"dealer": dealer, "result": "fin"}
        return {"dealer": dealer, "result": "mano"}

    def snapshot(self) -> dict[str, Any]:
        return {"scores": {str(s): v for s, v in self.scores.items()}, "over": self.over, "winner": self.winner}

    def check(self) -> None:
        assert all(v >= 0 for v in self.scores.values())


# ---------------------------------------------------------------------------------------------- entry


def settle(session: Any) -> dict[str, Any]:
    """The oracle's ledger of a pozo_viuda, ombre or bandos session."""
    if not isinstance(session, dict) or session.get("format") != "tresillo-session/1":
        raise OracleError(None, "bad format")
    rules = session.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise OracleError(None, "rules must be an object")
    name = rules.get("ruleset") or "tresillo"
    table: Any
    if name == "pozo_viuda":
        players = _players(session, (3, 4))
        opts = _options(rules, POZO_DEFAULTS, _pozo_option)
        table = _PozoTable(len(players), opts, _first_dealer(session, len(players)))
    elif name == "ombre":
        players = _players(session, (3,))
        opts = _options(rules, OMBRE_DEFAULTS, _ombre_option)
        table = _OmbreTable(opts, _first_dealer(session, 3))
    elif name == "bandos":
        players = _players(session, (6,))
        opts = _options(rules, BANDOS_DEFAULTS, _bandos_option)
        table = _BandosTable(opts, _first_dealer(session, 6))
    else:
        raise OracleError(None, "the oracle knows pozo_viuda, ombre and bandos")
    entries = []
    for n, hand in enumerate(_hands(session), 1):
        head = table.play(hand, n)
        table.check()
        entries.append({"n": n, **head, **table.snapshot()})
    ledger: dict[str, Any] = {
        "format": "tresillo-ledger/1",
        "ruleset": name,
        "players": {str(i): p for i, p in enumerate(players, 1)},
        "hands": entries,
        **table.snapshot(),
        "next_dealer": table.next_dealer,
    }
    if name == "bandos":
        ledger["teams"] = {t: list(s) for t, s in TEAMS.items()}
    return ledger


def all_splits() -> list[tuple[int, int, int]]:
    """Every (x, y, z) of non-negative trick counts adding up to at most nine."""
    return [c for c in itertools.product(range(10), repeat=3) if sum(c) <= 9]
