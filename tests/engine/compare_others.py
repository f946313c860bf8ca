"""Compare the engine with ``oracle_others`` on many random sessions (valid and mutated).

One-off, outside pytest:  ``.venv/bin/python -m tests.engine.compare_others [COUNT] [SEED]``
prints, per rule set, how many sessions/hands were compared and every disagreement (the first few
in full). The property tests in ``test_others_oracle.py`` run the same comparison on fewer sessions.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from scorer.engine import SessionError, settle

from . import oracle_others as oracle
from . import strategies_others as strategies

HAND_KEYS = {
    "pozo_viuda": ("dealer", "result", "balances", "pozo", "viuda"),
    "ombre": ("dealer", "result", "balances", "bote", "over"),
    "bandos": ("dealer", "result", "scores", "over", "winner"),
}
TOP_KEYS = {
    "pozo_viuda": ("balances", "pozo", "viuda", "next_dealer"),
    "ombre": ("balances", "bote", "over", "next_dealer"),
    "bandos": ("scores", "over", "winner", "next_dealer", "teams"),
}
POTS = {"pozo_viuda": ("pozo", "viuda"), "ombre": ("bote",), "bandos": ()}


def pot_total(ruleset: str, entry: dict[str, Any], pot: str) -> int:
    if pot == "pozo":
        return int(entry["pozo"]["amount"] + sum(entry["pozo"]["reserves"]))
    return int(entry[pot])


def transfers_problem(ruleset: str, ledger: dict[str, Any]) -> str | None:
    """The engine's transfers of each hand must add up to the change of balances and pots."""
    if ruleset == "bandos":
        return None
    seats = list(ledger["players"])
    before: dict[str, int] = {s: 0 for s in seats}
    pots_before = {p: 0 for p in POTS[ruleset]}
    for entry in ledger["hands"]:
        change: dict[str, int] = {s: 0 for s in seats} | {p: 0 for p in POTS[ruleset]}
        for t in entry["transfers"]:
            if not (isinstance(t["amount"], int) and t["amount"] > 0):
                return f"hand {entry['n']}: transfer amount {t['amount']!r}"
            change[str(t["from"])] -= t["amount"]
            change[str(t["to"])] += t["amount"]
        for s in seats:
            if entry["balances"][s] - before[s] != change[s]:
                return f"hand {entry['n']}: transfers of seat {s} do not add up"
        for p in POTS[ruleset]:
            if ruleset == "pozo_viuda" and entry["n"] == 1:
                continue  # P1 may be paid before the first hand: the first hand's pots may start above 0
            if pot_total(ruleset, entry, p) - pots_before[p] != change[p]:
                return f"hand {entry['n']}: transfers of {p} do not add up"
        before = dict(entry["balances"])
        pots_before = {p: pot_total(ruleset, entry, p) for p in POTS[ruleset]}
    return None


def compare(session: dict[str, Any]) -> str | None:
    """None when engine and oracle agree on this session, else a description of the first difference."""
    ruleset = session["rules"]["ruleset"]
    want: dict[str, Any] | None
    got: dict[str, Any] | None
    try:
        want, want_err = oracle.settle(session), None
    except oracle.OracleError as exc:
        want, want_err = None, exc
    try:
        got, got_err = settle(session), None
    except SessionError as exc:
        got, got_err = None, exc
    if want_err is not None or got_err is not None:
        if want_err is None:
            return f"engine refuses ({got_err}), oracle accepts"
        if got_err is None:
            return f"oracle refuses ({want_err}), engine accepts"
        if want_err.hand != got_err.hand:
            return f"both refuse, engine at {got_err}, oracle at {want_err}"
        return None
    assert want is not None and got is not None
    if len(want["hands"]) != len(got["hands"]):
        return "different number of hands"
    for w, g in zip(want["hands"], got["hands"], strict=True):
        for key in HAND_KEYS[ruleset]:
            if w[key] != g.get(key):
                return f"hand {w['n']} ({w['result']}): {key} oracle {w[key]!r} engine {g.get(key)!r}"
    for key in TOP_KEYS[ruleset]:
        if want.get(key) != got.get(key):
            return f"top {key}: oracle {want.get(key)!r} engine {got.get(key)!r}"
    return transfers_problem(ruleset, got)


def main(count: int, seed: int) -> int:
    bad = 0
    for ruleset, gen in strategies.GENERATORS.items():
        rng = random.Random(seed)
        stats = {"valid": 0, "hands": 0, "mutated": 0, "refused": 0, "diff": 0}
        shown = 0
        for _ in range(count):
            for mutated in (False, True):
                session = gen(rng)
                if mutated:
                    session = strategies.mutate(rng, session)
                    stats["mutated"] += 1
                else:
                    stats["valid"] += 1
                    stats["hands"] += len(session["hands"])
                problem = compare(session)
                try:
                    oracle.settle(session)
                except oracle.OracleError:
                    stats["refused"] += 1
                if problem:
                    stats["diff"] += 1
                    if shown < 5:
                        shown += 1
                        print(f"[{ruleset}] {problem}\n    {session}")
        bad += stats["diff"]
        print(ruleset, stats)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 1))
