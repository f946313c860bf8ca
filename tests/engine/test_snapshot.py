"""Snapshots: a settlement kept as JSON and resumed settles the next hands exactly as the original.

Checked on every example session of every rule set and on random sessions of the four
rule sets (tests/engine/strategies*.py): at every cut, ``resume`` of the JSON text of
``snapshot()`` with the last few entries, extended by the remaining hands, gives the
same entries and totals as settling the whole session. Malformed snapshots are refused.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from scorer.engine import SessionError, SnapshotError, resume, settle, start
from tests.conftest import example_sessions, load_json
from tests.engine.strategies import random_session
from tests.engine.strategies_others import bandos_session, ombre_session, pozo_session


def sessions() -> list[tuple[str, dict[str, Any]]]:
    found = [(p.stem, load_json(p)) for p in example_sessions()]
    for seed in range(3):
        found.append((f"tresillo-{seed}", random_session(random.Random(seed), 80)))
        found.append((f"pozo-{seed}", pozo_session(random.Random(seed))))
        found.append((f"ombre-{seed}", ombre_session(random.Random(seed))))
        found.append((f"bandos-{seed}", bandos_session(random.Random(seed))))
    return found


def check_resumes(session: dict[str, Any]) -> None:
    hands = session["hands"]
    whole = settle(session)
    head = {k: v for k, v in session.items() if k != "hands"}
    for cut in sorted({0, 1, len(hands) // 2, max(0, len(hands) - 1), len(hands)}):
        before = start({**head, "hands": hands[:cut]})
        data = json.loads(json.dumps(before.snapshot()))  # through JSON text, as stored
        keep = min(3, cut)
        resumed = resume(session, data, before.entries[cut - keep : cut] if keep else ())
        assert resumed.count == cut and resumed.offset == cut - keep
        after = resumed.extend(hands[cut:])
        assert list(after.entries) == whole["hands"][cut - keep :]
        assert after.totals() == {k: v for k, v in whole.items() if k != "hands"}


@pytest.mark.parametrize(("name", "session"), sessions(), ids=lambda x: x if isinstance(x, str) else "")
def test_resumed_settlement_settles_the_rest_like_the_whole(name: str, session: dict[str, Any]) -> None:
    check_resumes(session)


def test_a_resumed_settlement_names_hands_by_their_number_and_has_no_whole_ledger() -> None:
    session = random_session(random.Random(4), 30, closing=False)
    s = start({**session, "hands": session["hands"][:20]})
    resumed = resume(session, s.snapshot())
    with pytest.raises(SessionError) as info:
        resumed.add({"jugador": 99})
    assert info.value.hand == 21
    with pytest.raises(ValueError):
        resumed.ledger()
    assert resumed.add(session["hands"][20]).entries[0]["n"] == 21


def _bad(snapshot: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    broken = copy.deepcopy(snapshot)
    target = broken
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return broken


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["format"], "other/1"),
        (["ruleset"], "ombre"),
        (["players"], ["X", "Y", "Z", "W"]),
        (["count"], -1),
        (["count"], "3"),
        (["state"], {"c": "os.system", "v": ["echo"]}),
        (["state"], {"c": "tresillo.Options", "f": {}}),  # a class of the engine, but not a state
        (["state", "v"], [1, 2]),  # a State with missing fields
        (["state"], {"t": [1], "x": 2}),
        (["state"], 3.5),
    ],
)
def test_malformed_snapshots_are_refused(path: list[Any], value: Any) -> None:
    session = random_session(random.Random(8), 10, closing=False, players=4)
    snapshot = start(session).snapshot()
    with pytest.raises(SnapshotError):
        resume(session, _bad(snapshot, path, value))


def test_entries_must_be_the_last_ones_of_the_snapshot() -> None:
    session = random_session(random.Random(8), 10, closing=False)
    s = start(session)
    with pytest.raises(SnapshotError):
        resume(session, s.snapshot(), s.entries[:3])
    assert resume(session, s.snapshot(), s.entries[-3:]).offset == 7


def test_a_long_history_is_kept_flat() -> None:
    """Thousands of settled puestas (a linked history in the state) fit in a snapshot without deep nesting."""
    session = random_session(random.Random(11), 3000, closing=False, players=4)
    s = start(session)
    text = json.dumps(s.snapshot())
    assert text.count("{") < 20 * len(s.ledger()["cartulina"]) + 100  # flat: no nesting per puesta
    resumed = resume(session, json.loads(text), s.entries[-2:])
    assert resumed.totals() == {k: v for k, v in s.ledger().items() if k != "hands"}
    more = {"pass": True}
    assert resumed.add(more).entries[-1] == s.add(more).entries[-1]
