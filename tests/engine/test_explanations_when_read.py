"""A transfer's explanation is written when it is read, not while the hands are settled.

Settling records each explanation's code and numbers only; the Spanish ``detail`` and its data
``why`` appear on the first read of the transfer (a key, iteration, ``==``, ``json.dumps``, the
command line's orjson) and are exactly what an eager writer makes from the same code and numbers.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import orjson
import pytest

from scorer.cli import ledger_json
from scorer.engine import settle
from scorer.engine.details import TEMPLATES, Conditions, Detail, Moved, conditions_text, written
from tests.engine.strategies import random_session
from tests.engine.strategies_others import ombre_session, pozo_session


def eager_words(why: dict[str, Any]) -> str:
    """The Spanish words of an explanation, written from its data at once (as before: one template each)."""
    params = why["params"]
    if why["code"] == "condiciones":
        p = params
        return conditions_text(p["parts"], p["total"], p["rounded"], p["favor"], p["favor_rounded"], lambda w: w)
    said = {k: eager_words(v) if isinstance(v, dict) else str(v) for k, v in params.items()}
    return TEMPLATES[why["code"]].format(**said)


def sessions() -> list[dict[str, Any]]:
    rng = random.Random(20261203)
    made = [random_session(rng, 300)]
    made += [pozo_session(rng) for _ in range(20)]
    made += [ombre_session(rng) for _ in range(20)]
    return made


def transfers(ledger: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for entry in ledger["hands"] for t in dict.get(entry, "transfers", [])]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The codes of the explanations whose words were written, in order."""
    seen: list[str] = []
    for cls in (Detail, Conditions):
        original = cls._written

        def counting(self: Detail, original: Any = original) -> str:
            seen.append(self.code)
            return str(original(self))

        monkeypatch.setattr(cls, "_written", counting)
    return seen


def test_settling_writes_no_explanation(counted: list[str]) -> None:
    for session in sessions():
        ledger = settle(session)
        pending = [t for t in transfers(ledger) if isinstance(t, Moved)]
        assert all(t.pending for t in pending)
        assert counted == []


def test_reading_one_transfer_writes_only_its_explanation(counted: list[str]) -> None:
    ledger = settle(random_session(random.Random(7), 50))
    moved = [t for t in transfers(ledger) if isinstance(t, Moved)]
    assert len(moved) > 2 and counted == []
    first = moved[0]
    assert first["detail"] == str(first["detail"]) and first["why"]["code"]
    assert not first.pending and all(t.pending for t in moved[1:])
    written_once = len(counted)
    assert written_once >= 1  # its own words (and those of a puesta nested in it)
    assert first["detail"] and first["why"] and json.dumps(first)  # read again: not written again
    assert len(counted) == written_once


def test_explanations_equal_the_eager_ones() -> None:
    for session in sessions():
        ledger = settle(session)
        for t in transfers(ledger):
            assert list(t) == ["from", "to", "amount", "concept", "detail", *(["why"] if "why" in t else [])]
            assert isinstance(t["detail"], str) and type(t["detail"]) is str
            if "why" in t:
                assert t["detail"] == eager_words(t["why"])
                assert json.loads(json.dumps(t["why"])) == t["why"]  # plain JSON


def test_every_writer_gives_the_same_json() -> None:
    for session in sessions():
        by_stdlib = json.dumps(settle(session), ensure_ascii=False, separators=(",", ":")).encode()
        by_cli = ledger_json(settle(session))
        indented = json.loads(ledger_json(settle(session), indent=2))
        assert by_cli == by_stdlib
        assert indented == json.loads(by_stdlib)
        assert orjson.dumps(written(settle(session))) == by_stdlib


def test_a_read_transfer_is_a_plain_dict_in_all_but_name() -> None:
    ledger = settle(random_session(random.Random(3), 30))
    moved = next(t for t in transfers(ledger) if isinstance(t, Moved))
    again = next(t for t in transfers(settle(random_session(random.Random(3), 30))) if isinstance(t, Moved))
    plain = json.loads(json.dumps(moved))
    assert again == plain and plain == again and not again != plain  # noqa: SIM202  # == fills either side first
    assert dict(moved) == plain and {**moved} == plain and moved.copy() == plain
    fresh = [t for t in transfers(settle(random_session(random.Random(3), 30))) if isinstance(t, Moved)]
    assert copy.deepcopy(fresh[0]) == plain and pickle.loads(pickle.dumps(fresh[1])) == json.loads(json.dumps(fresh[1]))
    assert len(moved) == len(plain) and set(moved.keys()) == set(plain) and list(moved.values()) == list(plain.values())


def test_an_explanation_cannot_be_changed() -> None:
    detail = Detail("plato", amount=3)
    with pytest.raises(AttributeError):
        detail.code = "dar"  # type: ignore[misc]
    with pytest.raises(TypeError):
        detail.params["amount"] = 4  # type: ignore[index]
    assert copy.deepcopy(detail) is detail and pickle.loads(pickle.dumps(detail)) == detail
    data = detail.data()
    data["params"]["amount"] = 99  # a reader's copy
    assert str(detail) == "se lleva el plato: 3" and detail.data() == {"code": "plato", "params": {"amount": 3}}
