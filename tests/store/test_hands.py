"""The store's tables and hands: where the stored tables meet the engine."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorer import engine, store
from scorer.store import Conflict, Forbidden, Invalid, NotFound
from scorer.store.db import db
from scorer.store.models import Hand, HandEvent, Table
from tests.conftest import example_sessions, load_json
from tests.web.conftest import BANDOS_FAULT, sample_session

ENTRADA_1 = {"jugador": 1, "lance": "entrada", "trump": "oros", "tricks": {"1": 5, "2": 2, "3": 2}}


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.app_context():
        yield


def count(model: type[Any]) -> int:
    return int(db.session.scalar(select(func.count()).select_from(model)) or 0)


def reload(table: Table) -> Table:
    """The table as a new request would see it."""
    token = table.edit_token
    db.session.remove()
    return store.open_table(token)[0]


def played(jugador: int, trump: str, tricks: dict[str, int], **extra: Any) -> dict[str, Any]:
    return {"jugador": jugador, "lance": "entrada", "trump": trump, "tricks": tricks, **extra}


# ------------------------------------------------------------------ tables


@pytest.mark.usefixtures("ctx")
class TestCreate:
    def test_keeps_app_keys_and_gives_every_hand_its_dealer(self) -> None:
        session = sample_session()
        table = store.create_table(copy.deepcopy(session))
        stored = store.read(reload(table)).session_copy()
        assert {k: v for k, v in stored.items() if k != "hands"} == {k: v for k, v in session.items() if k != "hands"}
        assert [h.get("dealer") for h in stored["hands"]] == [1, 2, 3]
        for given, kept in zip(session["hands"], stored["hands"], strict=True):
            assert {k: v for k, v in kept.items() if k != "dealer"} == given
        assert table.meta == {
            "name": "Partida de prueba",
            "place": "Casino de Oviedo",
            "tanto_value": 5,
            "currency": "EUR",
        }
        assert table.players == session["players"]
        assert table.ruleset == "tresillo"
        assert table.name == "Partida de prueba"
        assert not table.closed

    def test_tokens_are_long_random_and_distinct(self) -> None:
        tables = [store.create_table(sample_session()) for _ in range(3)]
        tokens = [t.edit_token for t in tables] + [t.view_token for t in tables]
        assert len(set(tokens)) == 6
        assert all(len(t) >= 22 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)  # ≥ 128 bits

    @pytest.mark.parametrize(
        ("session", "message"),
        [
            ({"format": "tresillo-session/1", "players": ["Ana", "Benito"]}, "session: tresillo needs 3 or 4 players"),
            ({"players": ["Ana", "Benito", "Carmen"]}, "session: missing format"),
            (sample_session(hands=[{"jugador": 1, "lance": "entrada", "trump": "oros"}]), "hand 1: jugador 1 is"),
            (sample_session(hands=[{"pass": True}, {"jugador": 3, "lance": "x", "trump": "oros"}]), "hand 2: unknown"),
            ([1, 2], "session: the session must be a JSON object"),
        ],
    )
    def test_invalid_saves_nothing(self, session: Any, message: str) -> None:
        with pytest.raises(Invalid) as info:
            store.create_table(session)
        assert info.value.message.startswith(message)
        assert info.value.status == 400
        assert count(Table) == 0
        assert count(Hand) == 0

    def test_default_name_when_none_given(self) -> None:
        session = sample_session()
        del session["name"]
        table = store.create_table(session)
        assert table.name.startswith("Partida del ")
        assert "name" not in store.read(table).session_copy()

    def test_list_open_first_then_newest(self) -> None:
        first = store.create_table(sample_session(name="Primera"))
        second = store.create_table(sample_session(name="Segunda", hands=[]))
        third = store.create_table(sample_session(name="Tercera"))
        store.close_table(third)
        listed = store.list_tables()
        assert [t.name for t in listed] == ["Segunda", "Primera", "Tercera"]
        assert [t.hands for t in listed] == [0, 3, 3]  # hands, not entries: the closing is no hand
        assert [t.closed for t in listed] == [False, False, True]
        assert listed[1].edit_token == first.edit_token and listed[0].view_token == second.view_token

    def test_list_only_the_tables_of_some_edit_tokens(self) -> None:
        mine = store.create_table(sample_session(name="Mía", date="2024-03-07"))
        other = store.create_table(sample_session(name="Ajena"))
        ombre = store.create_table(
            sample_session(players=["A", "B", "C"], rules={"ruleset": "ombre"}, hands=[], name="Ombre")
        )
        listed = store.list_tables([ombre.edit_token, mine.edit_token, "no-such-token"])
        assert [(t.name, t.ruleset, t.date) for t in listed] == [
            ("Ombre", "ombre", ""),
            ("Mía", "tresillo", "2024-03-07"),
        ]
        assert store.list_tables([other.view_token]) == []  # a view token lists nothing
        assert store.list_tables([]) == []
        assert len(store.list_tables()) == 3


@pytest.mark.usefixtures("ctx")
class TestTokens:
    def test_open_with_either_token(self) -> None:
        table = store.create_table(sample_session())
        assert store.open_table(table.edit_token) == (table, True)
        assert store.open_table(table.view_token) == (table, False)
        assert store.require_edit(table.edit_token) is table

    def test_view_token_cannot_edit(self) -> None:
        table = store.create_table(sample_session())
        with pytest.raises(Forbidden) as info:
            store.require_edit(table.view_token)
        assert info.value.status == 403

    @pytest.mark.parametrize("token", ["", "nope", "x" * 500, "a" * 32])
    def test_unknown_token(self, token: str) -> None:
        store.create_table(sample_session())
        with pytest.raises(NotFound) as info:
            store.open_table(token)
        assert info.value.status == 404


# ------------------------------------------------------------------- hands


@pytest.mark.usefixtures("ctx")
class TestHands:
    def test_ledger_is_the_engines(self) -> None:
        table = store.create_table(sample_session())
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())

    @pytest.mark.parametrize("path", example_sessions(), ids=lambda p: p.stem)
    def test_examples_give_their_ledgers(self, path: Any) -> None:
        session = load_json(path)
        table = reload(store.create_table(copy.deepcopy(session)))
        expected = engine.settle(session)
        assert store.read(table).ledger_copy() == expected
        assert engine.settle(store.read(table).session_copy()) == expected

    def test_add_hand_follows_the_rotation(self) -> None:
        table = store.create_table(sample_session())
        n, entry = store.add_hand(table, ENTRADA_1)
        assert n == 4
        assert entry["dealer"] == 4
        n, entry = store.add_hand(reload(table), {"pass": True})
        assert (n, entry["dealer"]) == (5, 1)
        table = reload(table)
        ledger = store.read(table).ledger_copy()
        assert ledger["hands"][3] == store.preview_hand(store.create_table(sample_session()), ENTRADA_1) | {"n": 4}
        assert ledger == engine.settle(store.read(table).session_copy())
        assert ledger["next_dealer"] == 2

    def test_preview_saves_nothing(self) -> None:
        table = store.create_table(sample_session())
        revision = table.revision
        entry = store.preview_hand(table, ENTRADA_1)
        assert entry["n"] == 4 and entry["result"] == "ganada"
        table = reload(table)
        assert table.revision == revision
        assert len(store.read(table).session_copy()["hands"]) == 3

    @pytest.mark.parametrize(
        ("hand", "message"),
        [
            (played(1, "oros", {"1": 4, "2": 4, "3": 0}), "hand 4: tricks 4-4-0 do not decide the hand"),
            (played(4, "oros", {"1": 5, "2": 2, "3": 2}), "hand 4: jugador 4 is the alcalde"),
            ({"jugador": 1}, "hand 4: missing lance"),
            ("entrada", "a hand must be an object"),
        ],
    )
    def test_invalid_hand_saves_nothing(self, hand: Any, message: str) -> None:
        table = store.create_table(sample_session())
        before = (count(Hand), count(HandEvent), table.revision)
        with pytest.raises(Invalid) as info:
            store.add_hand(table, hand)
        assert info.value.message.startswith(message)
        table = reload(table)
        assert (count(Hand), count(HandEvent), table.revision) == before
        with pytest.raises(Invalid):
            store.preview_hand(table, hand)

    def test_double_submit_gives_the_first_hand(self) -> None:
        table = store.create_table(sample_session())
        first = store.add_hand(table, ENTRADA_1, request_id="form-1")
        again = store.add_hand(reload(table), ENTRADA_1, request_id="form-1")
        assert again == first
        other = store.add_hand(reload(table), {"pass": True}, request_id="form-2")
        assert other[0] == 5
        assert len(store.read(reload(table)).session_copy()["hands"]) == 5

    def test_hand_for_request_names_the_hand_saved_with_it(self) -> None:
        table = store.create_table(sample_session())
        assert store.hand_for_request(table, "form-1") is None
        store.add_hand(table, ENTRADA_1, request_id="form-1")
        store.add_hand(reload(table), {"pass": True}, request_id="form-2")
        table = reload(table)
        assert store.hand_for_request(table, "form-1") == 4
        assert store.hand_for_request(table, "form-2") == 5
        for nothing in (None, "", "x" * 101, "form-3"):
            assert store.hand_for_request(table, nothing) is None
        store.delete_hand(table, 1)
        assert store.hand_for_request(reload(table), "form-2") == 4  # its number now
        store.delete_hand(reload(table), 4)
        assert store.hand_for_request(reload(table), "form-2") is None  # deleted: no hand of that request
        revision = reload(table).revision
        assert store.hand_for_request(reload(table), "form-1") == 3
        assert reload(table).revision == revision  # it only reads

    def test_preview_replace_gives_the_entry_and_saves_nothing(self) -> None:
        table = store.create_table(sample_session())
        session = store.read(table).session_copy()
        new = played(2, "bastos", {"2": 6, "3": 2, "4": 1}, lance="solo")
        events, revision = count(HandEvent), table.revision
        entry = store.preview_replace(table, 1, new)
        # what the engine says of the session with that hand in place, played by the same dealer
        changed = copy.deepcopy(session)
        changed["hands"][0] = {**new, "dealer": session["hands"][0]["dealer"]}
        assert entry == engine.settle(changed)["hands"][0]
        assert entry["dealer"] == 1
        table = reload(table)
        assert (count(HandEvent), table.revision) == (events, revision)
        assert store.read(table).session_copy() == session
        assert store.replace_hand(table, 1, new) == entry  # the preview is what saving gives

    def test_preview_replace_refusals_name_the_hand(self) -> None:
        table = store.create_table(sample_session())
        with pytest.raises(Invalid) as info:
            store.preview_replace(table, 2, {"close": "devolver"})
        assert info.value.hand == 3
        assert info.value.message == "hand 3: no hand may follow the closing (R30) (after the change to hand 2)"
        with pytest.raises(Invalid) as info:
            store.preview_replace(table, 1, played(2, "oros", {"2": 4, "3": 4, "4": 0}))
        assert (info.value.hand, info.value.reason) == (1, "tricks 4-4-0 do not decide the hand (R10)")
        with pytest.raises(Invalid):
            store.preview_replace(table, 1, ["not", "a", "hand"])  # type: ignore[arg-type]
        with pytest.raises(NotFound):
            store.preview_replace(table, 9, {"pass": True})

    def test_replace_keeps_the_dealer_and_resettles_later_hands(self) -> None:
        table = store.create_table(sample_session())
        before = store.read(table).ledger_copy()
        entry = store.replace_hand(table, 1, played(2, "bastos", {"2": 6, "3": 2, "4": 1}, lance="solo"))
        assert entry["dealer"] == 1 and entry["n"] == 1
        table = reload(table)
        session = store.read(table).session_copy()
        assert [h["dealer"] for h in session["hands"]] == [1, 2, 3]
        assert session["hands"][0]["lance"] == "solo" and session["hands"][0]["dealer"] == 1
        after = store.read(table).ledger_copy()
        assert after == engine.settle(session)
        assert after["hands"][2]["balances"] != before["hands"][2]["balances"]

    def test_later_hands_keep_their_dealer_when_an_earlier_dealer_is_corrected(self) -> None:
        table = store.create_table(sample_session())
        # R2: hand 1 was in fact dealt by Diego (4); the hands after it were still dealt by 2 and 3
        store.replace_hand(table, 1, played(1, "oros", {"1": 5, "2": 2, "3": 2}, dealer=4))
        session = store.read(reload(table)).session_copy()
        assert [h["dealer"] for h in session["hands"]] == [4, 2, 3]
        assert store.read(reload(table)).ledger_copy() == engine.settle(session)

    def test_a_hand_keeps_its_dealer_when_an_earlier_one_is_deleted(self) -> None:
        table = store.create_table(sample_session())
        store.delete_hand(table, 1)
        session = store.read(reload(table)).session_copy()
        assert [h["dealer"] for h in session["hands"]] == [2, 3]
        n, entry = store.add_hand(reload(table), ENTRADA_1)
        assert (n, entry["dealer"]) == (3, 4)

    def test_replace_that_breaks_a_later_hand_is_refused(self) -> None:
        table = store.create_table(sample_session())
        with pytest.raises(Invalid) as info:
            store.replace_hand(table, 2, {"close": "devolver"})
        assert info.value.hand == 3
        assert info.value.message == "hand 3: no hand may follow the closing (R30) (after the change to hand 2)"
        table = reload(table)
        assert store.read(table).session_copy()["hands"][1] == {"pass": True, "dealer": 2}
        assert count(HandEvent) == 3

    def test_bandos_edit_and_delete_refused_naming_the_later_hand(self) -> None:
        table = store.create_table(copy.deepcopy(BANDOS_FAULT))
        with pytest.raises(Invalid) as info:
            store.replace_hand(table, 2, {"primeras": "A"})
        assert info.value.hand == 3
        assert info.value.message.startswith("hand 3: the game is over: team A won (B4)")
        with pytest.raises(Invalid) as info:
            store.delete_hand(reload(table), 2)
        assert info.value.hand == 4  # numbered as the scorekeeper sees it now
        assert info.value.message == "hand 4: the game is over: team A won (B4) (if hand 2 were deleted)"
        assert store.read(reload(table)).session_copy()["hands"] == engine_hands(BANDOS_FAULT)

    def test_replace_invalid_names_the_hand(self) -> None:
        table = store.create_table(sample_session())
        with pytest.raises(Invalid) as info:
            store.replace_hand(table, 1, played(2, "oros", {"2": 4, "3": 4, "4": 0}))
        assert info.value.message == "hand 1: tricks 4-4-0 do not decide the hand (R10)"

    def test_replace_with_stale_revision_conflicts(self) -> None:
        table = store.create_table(sample_session())
        revision = store.hand_revision(table, 1)
        store.replace_hand(table, 1, played(2, "copas", {"2": 5, "3": 3, "4": 1}), revision=revision)
        assert store.hand_revision(reload(table), 1) == revision + 1
        with pytest.raises(Conflict) as info:
            store.replace_hand(reload(table), 1, played(2, "espadas", {"2": 5, "3": 3, "4": 1}), revision=revision)
        assert info.value.status == 409
        assert store.read(reload(table)).session_copy()["hands"][0]["trump"] == "copas"

    @pytest.mark.parametrize("n", [0, 4, -1])
    def test_unknown_hand(self, n: int) -> None:
        table = store.create_table(sample_session())
        with pytest.raises(NotFound):
            store.replace_hand(table, n, {"pass": True})
        with pytest.raises(NotFound):
            store.delete_hand(table, n)
        with pytest.raises(NotFound):
            store.hand_history(table, n)

    def test_delete_and_restore(self) -> None:
        table = store.create_table(sample_session())
        full = store.read(table).ledger_copy()
        store.delete_hand(table, 2)
        table = reload(table)
        session = store.read(table).session_copy()
        assert len(session["hands"]) == 2
        assert store.read(table).ledger_copy() == engine.settle(session)
        (deleted,) = store.deleted_hands(table)
        assert deleted.n == 2 and deleted.hand == {"pass": True, "dealer": 2}
        assert store.restore_hand(table, deleted.hand_id) == 2
        table = reload(table)
        assert store.read(table).ledger_copy() == full
        assert store.deleted_hands(table) == []
        with pytest.raises(NotFound):
            store.restore_hand(table, deleted.hand_id)

    def test_deleted_hands_are_listed_in_the_order_they_were_played(self) -> None:
        """Deleted out of order (the last first), listed by their place in the table, each with the number
        it would take back."""
        table = store.create_table(sample_session())
        played_hands = store.read(table).session_copy()["hands"]
        store.delete_hand(table, 3)
        store.delete_hand(reload(table), 1)
        deleted = store.deleted_hands(reload(table))
        assert [d.hand for d in deleted] == [played_hands[0], played_hands[2]]
        assert [d.n for d in deleted] == [1, 2]  # hand 3 would come back after the one live hand

    def test_history(self) -> None:
        table = store.create_table(sample_session())
        store.replace_hand(table, 1, played(2, "copas", {"2": 5, "3": 3, "4": 1}))
        store.delete_hand(reload(table), 1)
        hand_id = store.deleted_hands(reload(table))[0].hand_id
        store.restore_hand(reload(table), hand_id)
        table = reload(table)
        events = store.hand_history(table, 1)
        assert [e.action for e in events] == ["create", "edit", "delete", "restore"]
        assert events[0].before is None and events[0].after == sample_session()["hands"][0] | {"dealer": 1}
        assert events[1].before == events[0].after and events[1].after["trump"] == "copas"
        assert events[2].after is None and events[3].after == events[1].after
        assert all(e.n == 1 and e.hand_id == hand_id for e in events)
        assert [e.action for e in store.table_history(table)] == ["create"] * 3 + ["edit", "delete", "restore"]

    def test_close_makes_the_table_read_only(self) -> None:
        table = store.create_table(sample_session())
        store.close_table(table)
        table = reload(table)
        assert table.closed
        ledger = store.read(table).ledger_copy()
        assert ledger["hands"][-1]["result"] == "cierre"
        assert store.read(table).session_copy()["hands"][-1] == {"close": "devolver"}
        for write in (
            lambda: store.add_hand(table, {"pass": True}),
            lambda: store.replace_hand(table, 1, {"pass": True}),
            lambda: store.delete_hand(table, 1),
            lambda: store.close_table(table),
        ):
            with pytest.raises(Forbidden):
                write()
        assert store.read(reload(table)).ledger_copy() == ledger

    def test_close_word_of_the_ruleset(self) -> None:
        (path,) = [p for p in example_sessions("ombre")][:1]
        session = load_json(path)
        session["hands"] = [h for h in session["hands"] if "close" not in h][:3]  # O6: not over yet
        table = store.create_table(session)
        store.close_table(table)
        assert store.read(reload(table)).session_copy()["hands"][-1] == {"close": "repartir"}

    def test_ledger_of_is_a_copy(self) -> None:
        table = store.create_table(sample_session())
        ledger = store.read(table).ledger_copy()
        ledger["hands"][0]["balances"]["1"] = 999_999
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())


def engine_hands(session: dict[str, Any]) -> list[dict[str, Any]]:
    """The session's hands as stored: each with the dealer the engine gave it."""
    ledger = engine.settle(session)
    return [
        h | ({"dealer": e["dealer"]} if e["dealer"] is not None else {})
        for h, e in zip(session["hands"], ledger["hands"], strict=True)
    ]


@pytest.mark.usefixtures("ctx")
class TestCache:
    """Another process's write leaves this process's snapshot behind: the answer is still the engine's."""

    def test_snapshot_behind_by_new_hands_is_extended(self) -> None:
        table = store.create_table(sample_session())
        store.add_hand(table, ENTRADA_1)
        behind = store.cache.states.get(table.edit_token)
        store.add_hand(reload(table), {"pass": True})
        store.add_hand(reload(table), {"pass": True})
        store.cache.states.put(table.edit_token, behind)  # as if two writes went to another worker
        table = reload(table)
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())
        assert store.cache.states.get(table.edit_token).revision == table.revision

    def test_snapshot_of_an_edited_hand_is_not_reused(self) -> None:
        table = store.create_table(sample_session())
        behind = store.cache.states.get(table.edit_token)
        store.replace_hand(table, 1, played(2, "copas", {"2": 4, "3": 4, "4": 1}))
        store.cache.states.put(table.edit_token, behind)
        table = reload(table)
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())
        assert (
            store.read(table).ledger_copy()["hands"][0]["transfers"]
            != engine.settle(sample_session())["hands"][0]["transfers"]
        )

    def test_snapshot_after_a_deletion_is_not_reused(self) -> None:
        table = store.create_table(sample_session())
        behind = store.cache.states.get(table.edit_token)
        store.delete_hand(table, 3)
        store.add_hand(reload(table), {"pass": True})
        store.cache.states.put(table.edit_token, behind)
        table = reload(table)
        assert store.read(table).ledger_copy() == engine.settle(store.read(table).session_copy())
        assert len(store.read(table).ledger_copy()["hands"]) == 3
