"""Who sat where (R33), asked many times of one history: the same answer as walking it afresh."""

from __future__ import annotations

from typing import Any

from scorer import evening, people


def history(n: int, change_at: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    entries: list[dict[str, Any]] = [{"result": "entrada"} for _ in range(n)]
    hands: list[dict[str, Any]] = [{} for _ in range(n)]
    entries[change_at] = {"result": "sienta", "seating": {"1": "Eva", "2": "Bea", "3": "Carlos"}}
    return entries, hands


def test_seatings_follow_a_change_of_player_and_stay_right_when_asked_again() -> None:
    entries, hands = history(50, 20)
    first = evening.seatings(("Ana", "Bea", "Carlos"), entries, hands)
    assert first[20] == {1: "Ana", 2: "Bea", 3: "Carlos"} and first[21] == {1: "Eva", 2: "Bea", 3: "Carlos"}
    assert len(first) == 51 and first[-1][1] == "Eva"
    again = evening.seatings(("Ana", "Bea", "Carlos"), list(entries), list(hands))  # copies of the lists
    assert again == first
    # another history: other players, a shorter one, one ending in another entry
    assert evening.seatings(("Zoe", "Bea", "Carlos"), entries, hands)[0][1] == "Zoe"
    assert len(evening.seatings(("Ana", "Bea", "Carlos"), entries[:30], hands[:30])) == 31
    other, other_hands = history(50, 40)
    assert evening.seatings(("Ana", "Bea", "Carlos"), other, other_hands)[30][1] == "Ana"


def test_names_and_changes_read_from_shared_seatings() -> None:
    entries, hands = history(10, 4)
    session = {"players": ["Ana", "Bea", "Carlos"], "hands": hands}
    ledger = {"hands": entries}
    assert evening.names_used(session, ledger) == ["Ana", "Bea", "Carlos", "Eva"]
    now = evening.seating_now(session, ledger)
    now[1] = "x"  # the caller's own copy
    assert evening.seating_now(session, ledger)[1] == "Eva"
    seats = evening.seatings(session["players"], entries, hands)
    assert people.changed(seats) and not people.changed(seats[:4])


def test_pending_puestas_add_up_per_person() -> None:
    cartulina = [
        {"person": "Ana", "amount": 10, "state": "pendiente"},
        {"person": "Ana", "amount": 5, "state": "pendiente"},
        {"person": "Bea", "amount": 7, "state": "cobrada"},
        {"person": "Eva", "amount": 3, "state": "pendiente"},
    ]
    lines = people.balances({"Ana": 4, "Bea": -4, "Eva": 0}, {1: "Ana", 2: "Bea"}, cartulina)
    assert [(b.seat, b.name, b.tantos, b.pending) for b in lines] == [
        (1, "Ana", 4, 15),
        (2, "Bea", -4, 0),
        (0, "Eva", 0, 3),
    ]


def test_a_history_that_grows_is_read_on_from_where_it_was() -> None:
    entries, hands = history(60, 50)
    players = ("Ana", "Bea", "Carlos")
    whole = evening._seatings(players, entries, hands)  # walked afresh
    for n in (10, 30, 51, 55, 60):  # the history as it grew, each time with one or more new entries
        assert evening.seatings(players, entries[:n], hands[:n]) == [*whole[:n], whole[n]]
    # the same entries after an edit (a new object in the middle): not the kept answer
    edited = [*entries[:40], {"result": "sienta", "seating": {"1": "Zoe", "2": "Bea", "3": "Carlos"}}, *entries[41:]]
    assert evening.seatings(players, edited, hands)[45][1] == "Zoe"
    # a change of player written only in the session (no seating in its entry), added after a kept history
    more = [*entries, {"result": "sienta"}, {"result": "entrada"}]
    more_hands = [*hands, {"sienta": {"seat": 2, "player": "Dora"}}, {}]
    assert evening.seatings(players, more, more_hands)[-1] == {1: "Eva", 2: "Dora", 3: "Carlos"}
    assert evening.seatings(players, more, more_hands[:60])[-1] == {1: "Eva", 2: "Bea", 3: "Carlos"}


def test_the_very_lists_asked_again_are_read_again_once_they_grew() -> None:
    """The views of one page hand the same lists: answered at once; the same lists grown since (a hand
    appended in place) are not the history answered, and the change of player they add is seen."""
    entries, hands = history(30, 10)
    players = ("Ana", "Bea", "Carlos")
    first = evening.seatings(players, entries, hands)
    assert evening.seatings(players, entries, hands) is first  # the very same lists: the same answer
    entries.append({"result": "sienta", "seating": {"1": "Eva", "2": "Dora", "3": "Carlos"}})
    hands.append({})
    grown = evening.seatings(players, entries, hands)
    assert len(grown) == 32 and grown[-1] == {1: "Eva", 2: "Dora", 3: "Carlos"}
    assert grown[:31] == first


def test_whose_each_puesta_is_read_the_same_fast_or_slow() -> None:
    """owners() reads the ledger's integers directly and anything else as puesta_owner() does."""
    entries, hands = history(10, 4)
    seats = evening.seatings(("Ana", "Bea", "Carlos"), entries, hands)
    cartulina: list[dict[str, Any]] = [
        {"id": 1, "owner": 1, "hand": 2, "amount": 5, "state": "cobrada"},  # before the change: Ana's
        {"id": 2, "owner": 1, "hand": 8, "amount": 5, "state": "pendiente"},  # after it: Eva's
        {"id": 3, "owner": "2", "hand": "3", "amount": 5, "state": "anulada"},  # written as text
        {"id": 4, "owner": 3, "hand": 99, "amount": 5, "state": "pendiente"},  # past the history: seated now
        {"id": 5, "owner": 7, "hand": 2, "amount": 5, "state": "cobrada"},  # no such seat: its number
        {"id": 6, "owner": True, "hand": 2, "amount": 5, "state": "cobrada"},  # not a seat
    ]
    assert people.owners(cartulina, seats) == [people.puesta_owner(e, seats) for e in cartulina]
    assert people.owners(cartulina, seats)[:5] == ["Ana", "Eva", "Bea", "Carlos", "7"]
    owned = people.with_owners(cartulina, seats)
    assert [e["person"] for e in owned] == people.owners(cartulina, seats)
    assert all("person" not in e for e in cartulina)  # copies: the ledger's entries are left alone


def test_the_favour_history_of_a_shared_table_is_read_on_from_where_it_was() -> None:
    """favor_history_shared() gives favor_history()'s answer: a history that grew, one edited in the
    middle (a new hand object), another table's suit, an empty one."""
    hands: list[dict[str, Any]] = [{} for _ in range(40)]
    hands[5], hands[30] = {"favor": "copas"}, {"favor": "oros"}
    session = {"rules": {"favor_suit": "bastos"}, "hands": hands}
    for n in (3, 10, 31, 40):
        part = {**session, "hands": hands[:n]}
        assert list(evening.favor_history_shared(part)) == evening.favor_history(part)
    edited = {**session, "hands": [*hands[:20], {"favor": "espadas"}, *hands[21:]]}
    assert list(evening.favor_history_shared(edited)) == evening.favor_history(edited)
    assert [s.suit for s in evening.favor_history_shared(edited)] == ["bastos", "copas", "espadas", "oros"]
    other = {"rules": {}, "hands": hands}
    assert evening.favor_history_shared(other)[0] == evening.FavorSpan(1, None)
    assert list(evening.favor_history_shared({"hands": []})) == [evening.FavorSpan(1, None)]
