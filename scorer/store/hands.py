"""The hands of a table: preview, add (a replay of a request id answered again), replace, delete, restore, close."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from scorer import limits
from scorer.engine import SessionError, Settlement
from scorer.evening import is_event
from scorer.games import game_of
from scorer.store.db import db
from scorer.store.errors import Conflict, Invalid, Moved, NotFound, ServiceError, Unprocessable
from scorer.store.links import check_open
from scorer.store.models import Hand, Table, utcnow
from scorer.store.settled import Settled, extend, resettled
from scorer.store.state import live_at, number, read
from scorer.store.writes import body_hash, check_hand, event, is_close, with_dealer, write

MAX_REQUEST_ID_LENGTH = limits.REQUEST_ID_MAX


def preview_hand(table: Table, hand: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry the hand would have as the next one; saves nothing."""
    data = check_hand(hand)
    try:
        settlement = read(table).settlement.add(data)
    except SessionError as exc:
        raise Invalid.of(exc) from None
    return copy.deepcopy(settlement.entries[-1])


def _by_request(table: Table, request_id: str) -> Hand | None:
    query = select(Hand).where(Hand.table_id == table.id, Hand.request_id == request_id)
    return db.session.scalars(query).first()


def hand_for_request(table: Table, request_id: str | None) -> int | None:
    """The number of the live hand saved with ``request_id`` (a form sent twice), if any."""
    if not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_REQUEST_ID_LENGTH:
        return None
    if any(limits.char_problem(c) for c in request_id):
        return None
    hand = _by_request(table, request_id)
    if hand is None or hand.deleted:
        return None
    return number(read(table).settled, hand.id)


def _same_body(hand: Hand, digest: str | None) -> None:
    if digest is not None and hand.request_hash is not None and hand.request_hash != digest:
        raise Unprocessable("this Idempotency-Key was already used with another hand")


def _replay(table: Table, hand: Hand, digest: str | None = None) -> tuple[int, dict[str, Any]]:
    """The answer already given to a request: the hand's number and ledger entry (422 for another body)."""
    _same_body(hand, digest)
    if hand.deleted:
        raise Conflict("this hand was already saved, then deleted")
    state = read(table).settled
    n = number(state, hand.id)
    if n is None:
        # This request read the table before the other one (the same request id, a double submit racing
        # itself) committed the hand, and the cache may not have its state yet: read the revision again.
        db.session.refresh(table)
        state = read(table).settled
        n = number(state, hand.id)
    if n is None:  # deleted by another writer since this request's table was read
        raise Conflict("this hand was already saved, then deleted")
    return n, copy.deepcopy(state.settlement.entries[n - 1])


def replay_request(table: Table, request_id: str, digest: str) -> tuple[int, dict[str, Any]] | None:
    """The answer already given to ``request_id`` (None when it was never used), as :func:`add_hand`
    gives it: Unprocessable (422) for another body (``digest``), Conflict when deleted since."""
    existing = _by_request(table, request_id)
    return None if existing is None else _replay(table, existing, digest)


def _check_request_id(request_id: str | None) -> None:
    if request_id is None:
        return
    if not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_REQUEST_ID_LENGTH:
        raise Invalid(
            f"request id must be 1 to {MAX_REQUEST_ID_LENGTH} characters", about="", code="request_id_too_long"
        )
    if any(limits.char_problem(c) for c in request_id):
        raise Invalid("request id must be printable", about="", code="request_id_not_printable")


def add_hand(
    table: Table,
    hand: dict[str, Any],
    *,
    request_id: str | None = None,
    digest: str | None = None,
    judged: int | None = None,
) -> tuple[int, dict[str, Any]]:
    """Append a hand; the same ``request_id`` twice gives the first hand back (double submit).

    ``digest`` is what tells a replay from another body under the same ``request_id`` (by default
    the hand's own hash; the offline queue gives the hash of the form's fields). ``judged``: the
    table's revision the caller judged the hand against (the offline queue); if another write came
    in since, nothing is written and :class:`Moved` is raised, under the table's write lock, so
    the caller judges again against what is stored (a replay of ``request_id`` is still answered).

    The request id is looked up only when the hand cannot be added: the database refuses a second
    hand with it (its unique key), and a replay may also find the table closed since (a retried
    closing answers its 201 again), moved on, or the hand no longer valid there. Each of these
    rolls the write back, then the hand saved with it, if any, is the answer."""
    data = check_hand(hand)
    digest = digest or body_hash(data)
    _check_request_id(request_id)
    try:
        check_open(table)
        settlement = write(table, lambda state: _append(table, state, data, request_id, digest, judged))
    except (IntegrityError, ServiceError):
        existing = _by_request(table, request_id) if request_id is not None else None
        if existing is None:
            raise
        return _replay(table, existing, digest)
    return settlement.count, copy.deepcopy(settlement.entries[-1])


def _append(
    table: Table, state: Settled, data: dict[str, Any], request_id: str | None, digest: str, judged: int | None
) -> tuple[Settlement, Settled]:
    """Inside the write: ``data`` settled on top of the table's state and stored as its next hand."""
    if judged is not None and state.revision != judged:
        raise Moved(f"the table moved from revision {judged} to {state.revision} meanwhile")
    check_open(table)
    try:
        settlement, checkpoints = extend(state.settlement, state.checkpoints, (data,))
    except SessionError as exc:
        raise Invalid.of(exc) from None
    stored = with_dealer(data, settlement.entries[-1])
    last = db.session.scalar(select(func.max(Hand.seq)).where(Hand.table_id == table.id)) or 0
    row = Hand(
        table_id=table.id,
        seq=last + 1,
        data=stored,
        revision=1,
        request_id=request_id,
        request_hash=digest if request_id is not None else None,
        created_at=utcnow(),
    )
    db.session.add(row)
    db.session.flush()  # a request id saved before: IntegrityError, the write rolled back
    event(table, row, "create", None, stored)
    if is_close(stored):
        table.closed_at = utcnow()
    return settlement, Settled(
        table.revision, (*state.keys, (row.id, 1)), (*state.hands, stored), settlement, checkpoints
    )


def _resettle(
    state: Settled,
    n: int,
    hands: tuple[dict[str, Any], ...],
    renumber: Callable[[int], int],
    context: Callable[[int], str],
) -> tuple[Settlement, tuple[Settlement, ...]]:
    """Settle the live hands changed from hand ``n`` on, from the last checkpoint before it.

    Invalid names the (renumbered) hand that breaks.
    """
    try:
        return resettled(state, n, hands)
    except SessionError as exc:
        if exc.hand is None:
            raise Invalid.of(exc) from None
        number = renumber(exc.hand)
        raise Invalid.of(exc, hand=number, context=context(number)) from None


def _replaced(
    state: Settled, n: int, data: dict[str, Any]
) -> tuple[Settlement, tuple[Settlement, ...], tuple[dict[str, Any], ...]]:
    """The table settled with hand ``n`` replaced by ``data`` (keeping its dealer); its checkpoints and hands."""
    new = dict(data)
    old_dealer = state.hands[n - 1].get("dealer")
    if new.get("dealer") is None and old_dealer is not None and not is_event(new):
        new["dealer"] = old_dealer  # api.md: a hand keeps the dealer it was played with
    hands = (*state.hands[: n - 1], new, *state.hands[n:])
    settlement, checkpoints = _resettle(
        state, n, hands, lambda m: m, lambda m: "" if m == n else f" (after the change to hand {n})"
    )
    return settlement, checkpoints, hands


def replace_hand(table: Table, n: int, hand: dict[str, Any], *, revision: int | None = None) -> dict[str, Any]:
    """Replace hand ``n`` (keeping its dealer) and re-settle every later hand; its new ledger entry."""
    data = check_hand(hand, n)
    check_open(table)

    def work(state: Settled) -> tuple[Settlement, Settled]:
        check_open(table)
        target = live_at(table, n, state)
        if revision is not None and target.revision != revision:
            raise Conflict(f"hand {n} was changed meanwhile: reload it and try again")
        settlement, checkpoints, hands = _replaced(state, n, data)
        stored = with_dealer(hands[n - 1], settlement.entries[n - 1])
        hands = (*hands[: n - 1], stored, *hands[n:])
        before = target.data
        target.data = stored
        target.revision = target.revision + 1
        event(table, target, "edit", before, stored)
        if is_close(hands[-1]):
            table.closed_at = utcnow()
        keys = (*state.keys[: n - 1], (target.id, target.revision), *state.keys[n:])
        return settlement, Settled(table.revision, keys, hands, settlement, checkpoints)

    settlement = write(table, work)
    return copy.deepcopy(settlement.entries[n - 1])


def preview_replace(table: Table, n: int, hand: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry hand ``n`` would have if replaced (keeping its dealer); saves nothing.

    Invalid names the hand that breaks: ``n`` itself, or a later hand the change would make impossible.
    """
    data = check_hand(hand, n)
    state = read(table).settled
    live_at(table, n, state)
    settlement, _checkpoints, _hands = _replaced(state, n, data)
    return copy.deepcopy(settlement.entries[n - 1])


def delete_hand(table: Table, n: int) -> None:
    """Take hand ``n`` out of the ledger (kept in the history, restorable); Invalid if a later hand breaks."""
    check_open(table)

    def work(state: Settled) -> tuple[None, Settled]:
        check_open(table)
        target = live_at(table, n, state)
        hands = (*state.hands[: n - 1], *state.hands[n:])
        settlement, checkpoints = _resettle(
            state, n, hands, lambda m: m + 1 if m >= n else m, lambda m: f" (if hand {n} were deleted)"
        )
        target.deleted_at = utcnow()
        event(table, target, "delete", target.data, None)
        keys = (*state.keys[: n - 1], *state.keys[n:])
        return None, Settled(table.revision, keys, hands, settlement, checkpoints)

    write(table, work)


def restore_hand(table: Table, hand_id: int) -> int:
    """Put a deleted hand back at its place; its number."""
    check_open(table)

    def work(state: Settled) -> tuple[int, Settled]:
        check_open(table)
        in_range = isinstance(hand_id, int) and 0 < hand_id <= limits.ID_MAX  # D7: 2^63 overflows the database
        target = db.session.get(Hand, hand_id) if in_range else None
        if target is None or target.table_id != table.id or not target.deleted:
            raise NotFound(f"no deleted hand {hand_id} in this table")
        earlier = select(func.count(Hand.id)).where(
            Hand.table_id == table.id, Hand.deleted_at.is_(None), Hand.seq < target.seq
        )
        n = int(db.session.scalar(earlier) or 0) + 1
        hands = (*state.hands[: n - 1], target.data, *state.hands[n - 1 :])
        settlement, checkpoints = _resettle(
            state, n, hands, lambda m: m, lambda m: "" if m == n else f" (if hand {n} were restored)"
        )
        target.deleted_at = None
        event(table, target, "restore", None, target.data)
        if is_close(hands[-1]):
            table.closed_at = utcnow()
        keys = (*state.keys[: n - 1], (target.id, target.revision), *state.keys[n - 1 :])
        return n, Settled(table.revision, keys, hands, settlement, checkpoints)

    return write(table, work)


def close_table(table: Table, how: str | None = None, *, request_id: str | None = None) -> int:
    """Close the table (R30) and make it read-only; its number. ``how``: Tresillo's ``devolver`` or ``repartir``."""
    closings = game_of(table.ruleset).closings or ("devolver",)  # bandos: the engine refuses it (B4)
    word = how or closings[0]
    if how is not None and (len(closings) < 2 or how not in closings):
        raise Invalid(f"unknown closing {how!r}: devolver or repartir (R30)", code="closing_unknown")
    n, _entry = add_hand(table, {"close": word}, request_id=request_id)
    return n
