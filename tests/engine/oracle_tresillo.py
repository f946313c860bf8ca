"""An independent, deliberately plain implementation of ``rules/tresillo.md`` + ``format.md``.

Written from the documents only, without looking at ``scorer/engine/``, so that the tests can
compare the engine with it hand by hand. It favours obviousness over speed: the state is a handful
of dicts and lists mutated in place, each rule is applied where the document says.

``settle(session)`` returns a ledger-like dict (``hands`` with ``n``, ``dealer``, ``result``,
``balances``, ``plato``, ``cartulina`` and, on a change of player, ``seating``; top-level
``players``, ``balances``, ``plato``, ``cartulina``, ``next_dealer`` and ``people``) or raises
:class:`OracleError` with the entry number (None for the session). Transfers are not produced:
``net`` in each entry gives, per seat and for the plato, the change of that entry, which is what
the engine's transfers must add up to.

Where the documents leave a point open, the reading chosen is marked "Resolved ambiguity".
"""

from __future__ import annotations

import itertools
from typing import Any

SUITS = ("oros", "copas", "espadas", "bastos")
LONG_SUITS = ("oros", "copas")
LANCES = ("entrada", "vuelta", "vuelta_solera", "solo")
LANCE_VALUE = {"entrada": 0, "vuelta": 2, "vuelta_solera": 20, "solo": 20}  # R11
CLOSINGS = ("devolver", "repartir")  # R30

DEFAULTS: dict[str, Any] = {
    "favor_suit": None,
    "vuelta_solera": True,
    "dealer_stake": 5,
    "enchilada": 0,
    "rounding": 5,
    "favor_doubling": "double_rounded",
    "vuelta_at_favor": True,
    "solo_codillo": "codillo_only",  # R24
    "failed_bola": "pays_bola",
}
WORD_OPTIONS = {
    "favor_doubling": ("double_rounded", "round_doubled"),
    "solo_codillo": ("codillo_only", "codillo_and_conditions"),
    "failed_bola": ("pays_bola", "free"),
}

PLAYED_KEYS = {
    "jugador",
    "lance",
    "trump",
    "estuches",
    "contraestuches",
    "tricks",
    "primeras",
    "bola",
    "rendida",
    "defensor",
    "dealer",
    "note",  # format.md: any entry may carry a free-text note
}


class OracleError(ValueError):
    def __init__(self, hand: int | None, reason: str) -> None:
        self.hand = hand
        self.reason = reason
        super().__init__(f"{'session' if hand is None else f'hand {hand}'}: {reason}")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def round_up(x: int, step: int) -> int:
    """R14: round up to a multiple of ``step``."""
    if x <= 0:
        return x
    return -(-x // step) * step


# ----------------------------------------------------------------------------- outcomes


def outcome(j: int, a: int, b: int) -> tuple[str, int | None]:
    """R9 on full counts: ('ganada', None), ('codillo', 0 for A / 1 for B) or ('puesta', None)."""
    if j > a and j > b:
        return ("ganada", None)
    if a > j and a > b:
        return ("codillo", 0)
    if b > j and b > a:
        return ("codillo", 1)
    return ("puesta", None)


def defended_case(d: int, s: int, m: int) -> str:
    """R28 on full counts of defensor, surrenderer and mano pobre."""
    if d > s and d > m:
        return "a"
    if d == max(s, m):
        return "b"
    if m > d and m > s:
        return "d"
    return "c"


def completions(counts: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    rest = 9 - sum(counts)
    out = []
    for x in range(rest + 1):
        for y in range(rest + 1 - x):
            out.append((counts[0] + x, counts[1] + y, counts[2] + rest - x - y))
    return out


def decided(fn: Any, counts: tuple[int, int, int]) -> Any:
    """R10: the single result of ``fn`` over every completion, or None."""
    results = {fn(*c) for c in completions(counts)}
    return results.pop() if len(results) == 1 else None


def read_split(split: tuple[int, int, int], primeras: str | None, bola: str | None) -> tuple[bool, str | None] | str:
    """R13 + R19 on the Jugador's split (J, A, B) of a played (not surrendered) hand.

    Returns ``(primeras, bola)`` — whether the hand has primeras (either side's, +1 condition) and
    ``"hecha"`` / ``"cortada"`` / None — or, when the flags and the split contradict, the reason.
    The outcome itself (R9/R10) is checked by the caller.
    """
    jt, a, b = split
    kind = decided(outcome, split)
    kind = kind[0] if kind else None
    every_trick = a == 0 and b == 0  # J-0-0: the Jugador took every trick played
    cut = sorted((a, b)) == [0, 1] and 5 <= jt <= 8  # J-1-0, J 5-8: stopped at the contra's first trick
    if every_trick and 6 <= jt <= 8:
        # R13: "so is J-0-0 with J 6-8". Resolved ambiguity: refused with or without the flags,
        # since the reason given (he took the first five, then stops at 5 or plays to the end) holds
        # whatever the hand says.
        return "J-0-0 with J 6-8: the play stops at 5 or goes on to the bola's end"
    if bola == "hecha" and jt != 9:
        return "a bola hecha is 9-0-0"  # R19
    if bola == "cortada" and not cut:
        return "a bola cortada is J-1-0 with J 5-8"  # R19
    if primeras == "jugador" and not ((every_trick and jt in (5, 9)) or cut):
        return "primeras for the Jugador are 5-0-0, 9-0-0 or J-1-0"  # R13
    if primeras == "contra" and (bola is not None or kind != "puesta"):
        return "primeras for the contra need a puesta"  # R13 (a bola implies primeras for the Jugador)
    if every_trick and jt == 9:
        return (True, "hecha")  # R19: 9-0-0 is a bola hecha with or without the flag
    if cut and (bola == "cortada" or primeras == "jugador"):
        return (True, "cortada")  # R19: primeras + J-1-0 is a bola cortada with or without the flag
    if every_trick and jt == 5:
        return (True, None)  # R13: 5-0-0 has primeras with or without the flag
    return (primeras is not None, None)


# ----------------------------------------------------------------------------- the oracle


class _Table:
    def __init__(self, players: list[str], rules: dict[str, Any], first_dealer: int) -> None:
        self.n = len(players)
        self.rules = rules
        self.balances = {s: 0 for s in range(1, self.n + 1)}
        self.plato = 0
        self.kind = "sin_puesta"
        self.contributions: list[tuple[int, int]] = []  # (seat, amount) since the plato was last taken
        self.cartulina: list[dict[str, Any]] = []
        self.next_dealer = first_dealer
        self.closed = False
        self.seating = {s: name for s, name in enumerate(players, 1)}  # R33
        self.people = {name: 0 for name in players}  # by name, in the order they first sat
        self.known = {name.strip(): name for name in players}  # identity of a person -> people key

    # movements --------------------------------------------------------------
    def pay(self, src: int, dst: int, amount: int) -> None:
        assert amount >= 0
        self.balances[src] -= amount
        self.balances[dst] += amount

    def into_plato(self, seat: int, amount: int) -> None:
        self.balances[seat] -= amount
        self.plato += amount
        self.contributions.append((seat, amount))  # R30 devolver: to the seat

    def round(self, x: int) -> int:
        return round_up(x, self.rules["rounding"])

    def per_participant(self, simple: int, favor: bool) -> int:
        """R14 + R15: the rounded (and, a favor, doubled) amount of a per-participant sum."""
        if not favor:
            return self.round(simple)
        if self.rules["favor_doubling"] == "double_rounded":
            return 2 * self.round(simple)
        return self.round(2 * simple)

    def participants(self, jugador: int) -> list[int]:
        """R4: every seat except the Jugador (the alcalde included)."""
        return [s for s in self.balances if s != jugador]

    def make_puesta(self, owners: list[int], amount: int, hand_n: int) -> None:
        """R22 (and R28 b for twins): into the plato if it is sin_puesta, else pending on the cartulina."""
        if self.kind == "sin_puesta":
            for o in owners:
                self.into_plato(o, amount)
            self.kind = "primera"
        else:
            for o in owners:
                self.cartulina.append(
                    {"id": len(self.cartulina) + 1, "owner": o, "amount": amount, "hand": hand_n, "state": "pendiente"}
                )

    def take_plato(self, jugador: int) -> None:
        """R17 + R18."""
        self.balances[jugador] += self.plato
        self.plato = 0
        self.contributions = []
        for e in self.cartulina:
            if e["state"] == "en_plato":
                e["state"] = "cobrada"
        pending = [e for e in self.cartulina if e["state"] == "pendiente"]
        if pending:
            best = max(pending, key=lambda e: (e["amount"], -e["id"]))
            self.into_plato(best["owner"], best["amount"])
            best["state"] = "en_plato"
            self.kind = "reservada"
        else:
            self.kind = "sin_puesta"

    # entries ------------------------------------------------------------------
    def dealer_of(self, hand: dict[str, Any], n: int) -> int:
        d = hand.get("dealer")
        if d is None:
            return self.next_dealer
        if not _is_int(d) or not 1 <= d <= self.n:
            raise OracleError(n, "bad dealer")
        return int(d)

    def seat(self, v: Any, n: int, what: str) -> int:
        if not _is_int(v) or not 1 <= v <= self.n:
            raise OracleError(n, f"{what} is not a seat")
        return int(v)

    def start_hand(self, dealer: int) -> None:
        """R5 + R6."""
        if self.rules["dealer_stake"] > 0:
            self.into_plato(dealer, self.rules["dealer_stake"])
        if self.rules["enchilada"] > 0 and self.kind == "sin_puesta":
            self.into_plato(dealer, self.rules["enchilada"])
            self.kind = "primera"
        self.next_dealer = dealer % self.n + 1  # R2

    def close(self, how: str) -> None:
        """R30."""
        if how == "devolver":
            for seat, amount in self.contributions:  # to whoever sits at the seat now (R33)
                self.balances[seat] += amount
                self.plato -= amount
            assert self.plato == 0, self.plato
        else:
            share, odd = divmod(self.plato, self.n)
            for seat in self.balances:
                self.balances[seat] += share + (1 if seat <= odd else 0)
            self.plato = 0
        self.contributions = []
        self.kind = "sin_puesta"
        for e in self.cartulina:
            if e["state"] == "pendiente":
                e["state"] = "anulada"
            elif e["state"] == "en_plato":
                e["state"] = "devuelta" if how == "devolver" else "repartida"
        self.closed = True

    def ajuste(self, raw: Any, n: int) -> None:
        """R32."""
        if not isinstance(raw, dict):
            raise OracleError(n, "an ajuste is an object")
        a = raw  # every key is required: a null one is missing, an unknown one refused
        if set(a) != {"from", "to", "amount"}:
            raise OracleError(n, "an ajuste has from, to and amount")
        src = self.seat(a["from"], n, "from")
        to = a["to"]
        if to not in ("plato", "todos"):
            to = self.seat(to, n, "to")
            if to == src:
                raise OracleError(n, "an ajuste from a seat to itself")
        amount = a["amount"]
        if not _is_int(amount) or amount <= 0:
            raise OracleError(n, "the amount of an ajuste is a positive whole number")
        if to == "plato":
            self.into_plato(src, amount)  # a contribution of that seat; the plato keeps its kind
        elif to == "todos":
            for s in self.balances:
                if s != src:
                    self.pay(src, s, amount)
        else:
            self.pay(src, to, amount)

    def sienta(self, raw: Any, n: int) -> None:
        """R33."""
        if not isinstance(raw, dict):
            raise OracleError(n, "sienta is an object")
        a = raw  # every key is required: a null one is missing, an unknown one refused
        if set(a) != {"seat", "player"}:
            raise OracleError(n, "sienta has seat and player")
        seat = self.seat(a["seat"], n, "seat")
        name = a["player"]
        if not isinstance(name, str) or not name.strip():
            raise OracleError(n, "bad player name")
        # Resolved ambiguity: names are compared after stripping blanks (as the session's player list
        # is checked for repeated names); a returning person keeps the spelling he first sat with.
        if name.strip() in {x.strip() for x in self.seating.values()}:
            raise OracleError(n, "that player is seated already")
        for e in self.cartulina:
            if e["owner"] == seat and e["state"] == "pendiente":
                e["state"] = "anulada"  # the leaver's pending puestas; one en_plato stays there
        key = self.known.setdefault(name.strip(), name)
        self.people.setdefault(key, 0)
        self.seating[seat] = key

    def play(self, raw: Any, n: int) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise OracleError(n, "an entry must be an object")
        if self.closed:
            raise OracleError(n, "no entry may follow the closing")  # R30
        # Resolved ambiguity (as before the new rules): the kind of an entry is the key it carries,
        # even with a null value ({"close": null} is a bad closing, not a hand), and an unknown key
        # is refused even when null; a null value of a known key counts as absent (format.md).
        special = [k for k in ("close", "pass", "ajuste", "sienta", "favor") if k in raw]
        if len(special) > 1:
            raise OracleError(n, "an entry of two kinds")
        kind = special[0] if special else None
        allowed = PLAYED_KEYS if kind is None else {kind, "dealer", "note"}
        for k in raw:
            if k not in allowed:
                raise OracleError(n, f"unknown key {k}")
        hand = {k: v for k, v in raw.items() if v is not None or k == kind}
        if kind in ("close", "ajuste", "sienta", "favor"):
            if "dealer" in hand:
                raise OracleError(n, f"{kind} uses up no deal")  # R30, R32, R33, R34
            if kind == "favor":
                # R34: one of the four suits, not the one in force; from the next hand on; no money
                if hand["favor"] not in SUITS or hand["favor"] == self.rules["favor_suit"]:
                    raise OracleError(n, "a change of favour names a suit other than the one in force")
                self.rules = {**self.rules, "favor_suit": hand["favor"]}
                return {"dealer": None, "result": "favor", "favor_suit": hand["favor"]}
            if kind == "close":
                if hand["close"] not in CLOSINGS:
                    raise OracleError(n, "bad closing")
                self.close(hand["close"])
                return {"dealer": None, "result": "cierre"}
            if kind == "ajuste":
                self.ajuste(hand["ajuste"], n)
                return {"dealer": None, "result": "ajuste"}
            self.sienta(hand["sienta"], n)
            return {"dealer": None, "result": "sienta", "seating": {str(s): p for s, p in self.seating.items()}}
        if kind == "pass":
            if hand["pass"] is not True:
                raise OracleError(n, "bad pass")
            dealer = self.dealer_of(hand, n)
            self.start_hand(dealer)  # R29
            return {"dealer": dealer, "result": "paso"}
        dealer = self.dealer_of(hand, n)
        result = self.play_hand(hand, n, dealer)
        return {"dealer": dealer, "result": result}

    def play_hand(self, hand: dict[str, Any], n: int, dealer: int) -> str:
        bad = OracleError
        active = [s for s in range(1, self.n + 1) if self.n == 3 or s != dealer]  # R3
        j = hand.get("jugador")
        if not _is_int(j) or j not in active:
            raise bad(n, "jugador is not an active seat")
        lance = hand.get("lance")
        if lance not in LANCES or (lance == "vuelta_solera" and not self.rules["vuelta_solera"]):
            raise bad(n, "bad lance")
        trump = hand.get("trump")
        if trump not in SUITS:
            raise bad(n, "bad trump")
        max_trumps = 12 if trump in LONG_SUITS else 11
        est = hand.get("estuches", 0)
        cest = hand.get("contraestuches", 0)
        for v in (est, cest):
            if not _is_int(v) or not (v == 0 or 3 <= v <= max_trumps):
                raise bad(n, "bad estuches")
        if est and cest:
            raise bad(n, "estuches and contraestuches")
        primeras = hand.get("primeras")
        if primeras not in (None, "jugador", "contra"):
            raise bad(n, "bad primeras")
        bola = hand.get("bola")
        if bola not in (None, "hecha", "cortada"):
            raise bad(n, "bad bola")
        rendida = hand.get("rendida", False)
        if not isinstance(rendida, bool):
            raise bad(n, "bad rendida")
        defensor = hand.get("defensor")
        if defensor is not None and not rendida:
            raise bad(n, "defensor without rendida")
        if bola is not None and rendida:
            raise bad(n, "bola with rendida")
        contra = [s for s in active if s != j]

        favor = trump == self.rules["favor_suit"] and (
            lance not in ("vuelta", "vuelta_solera") or self.rules["vuelta_at_favor"]
        )  # R15
        self.start_hand(dealer)
        pl = self.plato  # R7
        case = 1 if self.kind in ("sin_puesta", "primera") else 2  # R8
        p = pl + (40 if favor else 20) if case == 1 else pl  # R21
        others = self.participants(j)

        if rendida:
            if lance not in ("entrada", "vuelta"):
                raise bad(n, "only entrada or vuelta may be surrendered")  # R25
            if primeras is not None:
                raise bad(n, "a rendida has no primeras")
            # Resolved ambiguity: estuches on a rendida are checked (R12) but pay nothing (R26-R28).
            if defensor is None:
                self.make_puesta([j], p, n)  # R26/R27
                if lance == "vuelta":
                    each = self.per_participant(LANCE_VALUE["vuelta"], favor)
                    for s in others:
                        self.pay(j, s, each)
                return "rendida"
            if lance != "entrada":
                raise bad(n, "a vuelta rendida cannot be defended")  # R26
            if not _is_int(defensor) or defensor not in contra:
                raise bad(n, "defensor is not a contra player")
            tricks = self.parse_tricks(hand, active, n)
            mano_pobre = next(s for s in contra if s != defensor)
            counts = (tricks[defensor], tricks[j], tricks[mano_pobre])
            case_letter = decided(defended_case, counts)
            if case_letter is None:
                raise bad(n, "tricks do not decide the hand")
            if case_letter == "a":
                self.pay(j, defensor, p)
                return "defendida_ganada"
            if case_letter == "b":
                self.make_puesta([j, defensor], p, n)
                return "defendida_puesta"
            if case_letter == "c":
                self.make_puesta([defensor], p, n)
                return "defendida_codillo"
            self.make_puesta([j], p, n)
            self.pay(defensor, mano_pobre, p)
            return "defendida_codillo_pobre"

        tricks = self.parse_tricks(hand, active, n)
        a, b = contra
        split = (tricks[j], tricks[a], tricks[b])
        res = decided(outcome, split)
        if res is None:
            raise bad(n, "tricks do not decide the hand")  # R10
        kind, giver_index = res
        read = read_split(split, primeras, bola)
        if isinstance(read, str):
            raise bad(n, read)
        has_primeras, bola_state = read

        count = est or cest
        if bola_state != "hecha":
            count = min(count, 5)  # R12
        cond = LANCE_VALUE[lance] + count
        if has_primeras:
            cond += 1  # R13
        if bola_state == "hecha":
            cond += 100  # R11

        if kind == "ganada":
            each = self.per_participant(5 + cond if case == 1 else cond, favor)  # R16
            for s in others:
                self.pay(s, j, each)
            if bola_state == "cortada" and self.rules["failed_bola"] == "pays_bola":
                bola_each = self.per_participant(100, favor)  # R19
                for s in others:
                    self.pay(j, s, bola_each)
            self.take_plato(j)
            return {"hecha": "bola", "cortada": "bola_cortada", None: "ganada"}[bola_state]

        giver = contra[giver_index] if giver_index is not None else None
        solo_like = lance in ("solo", "vuelta_solera")
        if kind == "codillo" and solo_like:  # R24
            assert giver is not None
            self.pay(j, giver, p)
            if self.rules["solo_codillo"] == "codillo_and_conditions":
                each = self.per_participant(cond, favor)
                for s in others:
                    self.pay(j, s, each)
            return "codillo"
        each = self.per_participant(cond, favor)  # R20
        for s in others:
            self.pay(j, s, each)
        self.make_puesta([j], p, n)  # R21/R22
        if kind == "codillo":
            assert giver is not None
            self.pay(j, giver, p)  # R23
        return str(kind)

    def parse_tricks(self, hand: dict[str, Any], active: list[int], n: int) -> dict[int, int]:
        raw = hand.get("tricks")
        if not isinstance(raw, dict):
            raise OracleError(n, "missing tricks")
        out: dict[int, int] = {}
        for k, v in raw.items():
            ok = isinstance(k, str) and k.isascii() and k.isdigit() and not k.startswith("0")
            if not ok or int(k) not in active or int(k) in out:
                raise OracleError(n, "tricks name a seat that is not active")
            if not _is_int(v) or v < 0:
                raise OracleError(n, "bad trick count")
            out[int(k)] = v
        if set(out) != set(active):
            raise OracleError(n, "tricks must name the three active seats")
        if sum(out.values()) > 9:
            raise OracleError(n, "more than nine tricks")
        return out

    # views --------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "balances": {str(s): v for s, v in self.balances.items()},
            "plato": {"amount": self.plato, "kind": self.kind},
            "cartulina": [dict(e) for e in self.cartulina if e["state"] in ("pendiente", "en_plato")],
        }


def parse_rules(raw: Any) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise OracleError(None, "rules must be an object")
    rules = dict(DEFAULTS)
    for key, value in raw.items():
        # format.md, every rule set: a null value means the default (favor_suit: none).
        if key == "ruleset":
            if value not in ("tresillo", None):
                raise OracleError(None, "the oracle only knows tresillo")
            continue
        if key not in DEFAULTS:
            raise OracleError(None, f"unknown rule {key}")
        if value is None:
            continue
        if key == "favor_suit":
            if value is not None and value not in SUITS:
                raise OracleError(None, "bad favor_suit")
        elif key in ("vuelta_solera", "vuelta_at_favor"):
            if not isinstance(value, bool):
                raise OracleError(None, f"bad {key}")
        elif key in WORD_OPTIONS:
            if value not in WORD_OPTIONS[key]:
                raise OracleError(None, f"bad {key}")
        elif key == "rounding":
            if not _is_int(value) or value < 1:
                raise OracleError(None, "bad rounding")
        elif not _is_int(value) or value < 0:
            raise OracleError(None, f"bad {key}")
        rules[key] = value
    return rules


def settle(session: Any) -> dict[str, Any]:
    """The oracle's ledger of a Tresillo session (see the module docstring)."""
    if not isinstance(session, dict) or session.get("format") != "tresillo-session/1":
        raise OracleError(None, "bad format")
    players = session.get("players")
    if not isinstance(players, list) or len(players) not in (3, 4):
        raise OracleError(None, "3 or 4 players")
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise OracleError(None, "bad player name")
    if len({p.strip() for p in players}) != len(players):
        raise OracleError(None, "a name appears twice")  # resolved ambiguity: names are unique
    rules = parse_rules(session.get("rules"))
    first = session.get("first_dealer", 1)
    if first is None:
        first = 1
    if not _is_int(first) or not 1 <= first <= len(players):
        raise OracleError(None, "bad first_dealer")
    hands = session.get("hands", [])
    if hands is None:
        hands = []
    if not isinstance(hands, list):
        raise OracleError(None, "hands must be a list")
    table = _Table(players, rules, first)
    entries = []
    for n, hand in enumerate(hands, 1):
        before = dict(table.balances)
        plato_before = table.plato
        sitting = dict(table.seating)  # who sits where while this entry's money moves (R33)
        head = table.play(hand, n)
        net = {s: table.balances[s] - before[s] for s in table.balances}
        for s, change in net.items():
            table.people[sitting[s]] += change  # money belongs to people (R33)
        entry = {"n": n, **head, **table.snapshot()}
        entry["net"] = {str(s): v for s, v in net.items()} | {"plato": table.plato - plato_before}
        assert sum(table.balances.values()) + table.plato == 0  # R31
        assert sum(table.people.values()) + table.plato == 0  # R31 (people)
        entries.append(entry)
    return {
        "format": "tresillo-ledger/1",
        "players": {str(i): name for i, name in enumerate(players, 1)},
        "hands": entries,
        "balances": {str(s): v for s, v in table.balances.items()},
        "plato": {"amount": table.plato, "kind": table.kind},
        "cartulina": [dict(e) for e in table.cartulina],
        "next_dealer": table.next_dealer,
        "people": dict(table.people),
        "favor_suit": table.rules["favor_suit"],  # R34: the one in force after the last entry
    }


def all_splits() -> list[tuple[int, int, int]]:
    """Every (x, y, z) of non-negative trick counts adding up to at most nine."""
    return [c for c in itertools.product(range(10), repeat=3) if sum(c) <= 9]
