"""The stored tables, shared by every blueprint: the one place where models meet the engine.

The pages (``scorer.web.tables``, ``evening``, ``pena``) and the API parse their input, call one
function here and present the answer; what only one of them uses lives in its own package
(``tables/services.py``, ``evening/services.py``, ``pena/services.py``).

Every write is one transaction that starts by bumping the table's ``revision`` (``UPDATE … SET
revision = revision + 1``): on PostgreSQL that locks the table's row, on SQLite it takes the
database's write lock, so two writers of one table run one after the other and each sees the hands
the other committed (the dealer rotation stays intact). Nothing is answered before the commit.

The settled state of each table is kept per revision (``scorer/web/settled.py``):
the table page reads it and the last few hands, a new hand costs one engine step,
an edit re-settles from the last checkpoint before the hand it changes.
"""

from __future__ import annotations

import bisect
import copy
import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from scorer import engine, limits, words
from scorer.engine import SessionError, Settlement
from scorer.evening import is_event
from scorer.games import game_of
from scorer.limits import LimitError
from scorer.web import settled
from scorer.web.common.i18n import DEFAULT_LANGUAGE, language_or_default
from scorer.web.extensions import db
from scorer.web.models import Hand, HandEvent, Pena, Table, utcnow
from scorer.web.settled import Cache, Key, Settled, Window, extend, resettled

TOKEN_BYTES = 24  # 192 random bits, 32 URL-safe characters
MAX_TOKEN_LENGTH = 64
MAX_REQUEST_ID_LENGTH = limits.REQUEST_ID_MAX
WRITE_ATTEMPTS = 4
NOT_HANDS = ("close", "ajuste", "sienta", "favor")  # entries of the ledger that are not hands played

T = TypeVar("T")


# ------------------------------------------------------------------ errors


class ServiceError(Exception):
    """A request that cannot be served; ``message`` (English) is the API's, ``code`` and ``params`` the pages'.

    The pages render ``code`` through :mod:`scorer.web.messages`; they never read ``message``.
    """

    status: int = 500
    default_code = "failed"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field: str | None = None
        self.params: dict[str, Any] = params


class NotFound(ServiceError):
    """Unknown token, hand or deleted hand."""

    status = 404
    default_code = "not_found"


class Forbidden(ServiceError):
    """A write with the view token (code ``view_link``), or to a closed table (``table_closed``)."""

    status = 403
    default_code = "view_link"


class Invalid(ServiceError):
    """Bad input, nothing saved; ``message`` is ``hand N: reason``, ``session: reason`` or, when about
    neither (a header, the request id, a body that is not JSON), just the reason (``about=""``).

    ``code``, ``field`` and ``params`` say the same as data (an engine code of
    :mod:`scorer.engine.errors`, a limits code or a service code): the pages render them
    with :mod:`scorer.web.messages`.
    """

    status = 400

    def __init__(
        self,
        reason: str,
        hand: int | None = None,
        *,
        about: str = "session",
        code: str = "invalid",
        field: str | None = None,
        **params: Any,
    ) -> None:
        prefix = f"hand {hand}" if hand is not None else about
        super().__init__(f"{prefix}: {reason}" if prefix else reason, code=code, **params)
        self.hand = hand
        self.reason = reason
        self.field = field

    @classmethod
    def limit(cls, exc: LimitError, *, about: str = "session") -> Invalid:
        """A value outside the limits (scorer.limits)."""
        return cls(exc.reason, exc.hand, about=about, code=exc.code, **exc.params)

    @classmethod
    def of(cls, exc: SessionError, *, hand: int | None = None, context: str = "") -> Invalid:
        """Wrap an engine error (its code, field and params too), optionally renumbering its hand."""
        number = exc.hand if hand is None else hand
        return cls(exc.reason + context, number, code=exc.code, field=exc.field, **exc.params)


class Conflict(ServiceError):
    """The hand changed since the form was opened."""

    status = 409
    default_code = "conflict"


class Unprocessable(ServiceError):
    """An Idempotency-Key sent again with another body."""

    status = 422
    default_code = "key_reused"


class Moved(ServiceError):
    """Another write came in between a caller's judging and its write: judge again (never answered as
    such by a caller that retries; 503 if it escapes)."""

    status = 503
    default_code = "moved"


# ------------------------------------------------------------------ values


@dataclass(frozen=True, slots=True)
class DeletedHand:
    """A hand out of the ledger that can be restored; ``n`` is the number it would take back."""

    hand_id: int
    n: int
    hand: dict[str, Any]
    deleted_at: dt.datetime | None


# ------------------------------------------------------- settlement cache

# Tables whose state a worker keeps: a busy night's tables all stay settled (a table of
# a few hundred hands takes well under 1 MB; a 3,000-hand one a few MB).
TABLES_KEPT = 512

# The latest settled state of each table (scorer/web/settled.py). Another process's write
# leaves this one's state a prefix of the new hands, or shares the hands before the one it
# changed: only what follows is settled again.
_cache: Cache[str, Settled] = Cache(TABLES_KEPT)
# JSON of the ledger and the session file per revision, as UTF-8 bytes: a json.loads of one is a
# fresh copy for the caller, many times cheaper than deep-copying the settled state, and the API
# sends them as they are (a 3,000-hand ledger is 3 MB: encoding it for every request cost 4 ms of
# CPU, more than the rest of the request; kept as bytes it also takes half the memory of a str).
_texts: Cache[tuple[str, int, str], JsonBody] = Cache(128)
# Tables shown from their persisted snapshot (a worker that has not settled them itself)
_windows: Cache[str, Window] = Cache(TABLES_KEPT)


_Cache = Cache  # the LRU, for the other services modules (pena/services.py)
_page_caches: list[Cache[Any, Any]] = []


def page_cache(size: int) -> Cache[Any, Any]:
    """A process-wide LRU of the pages' own (the hand list's pages, the scripts' words), emptied with
    the services' caches by :func:`forget_caches`."""
    cache: Cache[Any, Any] = Cache(size)
    _page_caches.append(cache)
    return cache


def forget_caches() -> None:
    """Empty this process's caches (as in a freshly started worker); tests and benchmarks use it."""
    _cache.clear()
    _texts.clear()
    _windows.clear()
    for cache in _page_caches:
        cache.clear()


# ---------------------------------------------------------------- helpers


def _new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def _live_hands(table: Table) -> list[Hand]:
    query = select(Hand).where(Hand.table_id == table.id, Hand.deleted_at.is_(None)).order_by(Hand.seq)
    return list(db.session.scalars(query))


def _header_session(table: Table, hands: list[dict[str, Any]]) -> dict[str, Any]:
    session = copy.deepcopy(dict(table.header))
    session.pop("hands", None)
    session["hands"] = hands
    return session


def _settle(table: Table, hands: list[dict[str, Any]]) -> Settlement:
    return engine.start(_header_session(table, hands))


def _begin(table: Table) -> Settlement:
    """The table settled with no hand (its header checked by the engine)."""
    return engine.start(_header_session(table, []))


def _check_hand(hand: object, n: int | None = None) -> dict[str, Any]:
    """A hand body within the limits; Invalid names hand ``n`` when known, nothing otherwise."""
    if not isinstance(hand, Mapping):
        raise Invalid(
            f"a hand must be an object, not {type(hand).__name__}",
            n,
            about="",
            code="hand_not_an_object",
            type=type(hand).__name__,
        )
    try:
        limits.check_hand(hand, n)
    except LimitError as exc:
        raise Invalid.limit(exc, about="") from None
    return dict(hand)


def _body_hash(hand: Mapping[str, Any]) -> str:
    """The hash of a hand body, whatever its key order or spacing."""
    text = json.dumps(hand, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def check_open(table: Table) -> None:
    if table.closed:
        rule = game_of(table.ruleset).closing_rule
        raise Forbidden(f"this table is closed ({rule}): it can no longer be changed", code="table_closed", rule=rule)


def _with_dealer(hand: dict[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The hand as stored: it keeps the dealer it was played with (api.md)."""
    stored = dict(hand)
    dealer = entry.get("dealer")
    if dealer is not None:
        stored["dealer"] = dealer
    return stored


def _keys(table: Table) -> list[Key]:
    query = select(Hand.id, Hand.revision).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))
    return [(int(i), int(r)) for i, r in db.session.execute(query.order_by(Hand.seq))]


def _load(table: Table, cached: Settled | None, revision: int) -> Settled:
    """The table's live hands settled, reusing what ``cached`` shares with them (a prefix of hands)."""
    keys = _keys(table)
    common = cached.common(keys) if cached is not None else 0
    if cached is not None and common == len(keys) == cached.count:
        return Settled(revision, cached.keys, cached.hands, cached.settlement, cached.checkpoints)
    if cached is not None and common > 0:
        base = cached.before(common + 1)
        checkpoints = cached.checkpoints_before(base)
        known = cached.hands[: base.count]
    else:
        base = _begin(table)
        checkpoints, known = (base,), ()
    ids = [i for i, _ in keys[len(known) :]]
    query = select(Hand.id, Hand.revision, Hand.data).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))
    if len(ids) <= 50:  # a few new hands: by id; many: the table's live hands (a long IN list is slow)
        query = query.where(Hand.id.in_(ids))
    rows = {int(i): ((int(i), int(r)), d) for i, r, d in db.session.execute(query)} if ids else {}
    # keys and data read together (a write committed between two reads is not mixed in; the
    # revision check of the caller then keeps such a state out of the cache)
    fresh = [rows[i] for i in ids if i in rows]
    hands = known + tuple(d for _, d in fresh)
    settlement, checkpoints = extend(base, checkpoints, hands[base.count :])
    return Settled(revision, tuple(keys[: len(known)]) + tuple(k for k, _ in fresh), hands, settlement, checkpoints)


def write(table: Table, work: Callable[[Settled], tuple[T, Settled | None]]) -> T:
    """Run ``work`` as one transaction holding the table's write lock; commit before answering.

    ``work`` gets the table's state before the write and returns its result and the
    state after it (or None when nothing changed), cached under the revision this
    write made (read before the commit: later writers bump it again).
    """
    with settled.one_writer(current_app.instance_path, db.engine.dialect.name):
        return _write_once(table, work)


def _write_once(table: Table, work: Callable[[Settled], tuple[T, Settled | None]]) -> T:
    for attempt in range(WRITE_ATTEMPTS):
        try:
            db.session.execute(
                update(Table).where(Table.id == table.id).values(revision=Table.revision + 1),
                execution_options={"synchronize_session": False},
            )
            db.session.refresh(table)
            before = _state_before_write(table)
            result, state = work(before)
            db.session.flush()
            db.session.commit()
            if state is not None:
                newer = _cache.get(table.edit_token)
                if newer is None or newer.revision <= state.revision:  # a later writer may have cached first
                    _cache.put(table.edit_token, state)
                if settled.worth_saving(before, state):
                    settled.save(table.id, state)  # for the next worker that opens this table
            return result
        except OperationalError as exc:
            db.session.rollback()
            # SQLite answers "database is locked" when the busy timeout runs out; try again
            if "locked" not in str(exc).lower() or attempt == WRITE_ATTEMPTS - 1:
                raise
        except BaseException:
            db.session.rollback()
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def same_hands(table: Table, state: Settled) -> Settled:
    """Inside a write that changes no hand: the same state under the revision it makes."""
    return Settled(table.revision, state.keys, state.hands, state.settlement, state.checkpoints)


def _state_before_write(table: Table) -> Settled:
    """Inside a write: the table's state before it (its revision already bumped by one)."""
    cached = _cache.get(table.edit_token)
    if cached is not None and cached.revision == table.revision - 1:
        return cached
    return _load(table, cached, table.revision - 1)


def _event(table: Table, hand: Hand, action: str, before: dict[str, Any] | None, after: dict[str, Any] | None) -> None:
    db.session.add(
        HandEvent(table_id=table.id, hand_id=hand.id, action=action, at=utcnow(), before=before, after=after)
    )


def _is_close(hand: Mapping[str, Any]) -> bool:
    return "close" in hand


# ------------------------------------------------------------------ tables


def token_shaped(token: object) -> bool:
    """Whether a value can be a token (URL-safe base64, 1 to 64 characters): the cookie's, a URL's."""
    return (
        isinstance(token, str)
        and 0 < len(token) <= MAX_TOKEN_LENGTH
        and token.isascii()
        and all(c.isalnum() or c in "-_" for c in token)
    )


def _default_name(session: Mapping[str, Any]) -> str:
    name = session.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()[:200]
    return "Partida del " + utcnow().strftime("%d/%m/%Y")


def create_table(session: dict[str, Any]) -> Table:
    """Store a new table from a session file; Invalid (nothing saved) unless the engine accepts it."""
    if not isinstance(session, Mapping):
        raise Invalid("the session must be a JSON object", code="session_not_an_object")
    try:
        limits.check_session(session)
    except LimitError as exc:
        raise Invalid.limit(exc) from None
    hands = session.get("hands")
    if hands is None:
        hands = []
    try:
        if not isinstance(hands, list):
            engine.start(session)  # the engine's own refusal ("hands must be a list")
        begin = engine.start({**session, "hands": []})
        # as engine.start(session), with a checkpoint every CHECKPOINT_EVERY hands (settled.py)
        settlement, checkpoints = extend(begin, (begin,), hands)
    except SessionError as exc:
        raise Invalid.of(exc) from None
    except RecursionError:
        raise Invalid("too deeply nested", code="too_deep") from None
    stored = [_with_dealer(h, e) for h, e in zip(hands, settlement.entries, strict=True)]
    header = copy.deepcopy({k: v for k, v in session.items() if k not in ("hands", "language")})
    table = Table(
        language=language_or_default(session.get("language")),
        edit_token=_new_token(),
        view_token=_new_token(),
        name=_default_name(session),
        header=header,
        created_at=utcnow(),
        closed_at=utcnow() if stored and _is_close(stored[-1]) else None,
        revision=0,
    )
    # Settled once, before the first INSERT: the write lock is held only for the inserts. The stored
    # hands carry the dealer the engine gave each (R2), so they settle exactly as ``session`` did.
    try:
        db.session.add(table)
        db.session.flush()
        ids = _insert_hands(table, stored)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    state = Settled(0, tuple((i, 1) for i in ids), tuple(stored), settlement, checkpoints)
    _cache.put(table.edit_token, state)
    settled.save(table.id, state)
    return table


def _insert_hands(table: Table, stored: Sequence[dict[str, Any]]) -> list[int]:
    """The hands of a new table and their "create" events, in two bulk INSERTs (D5: 10,000 hands < 2 s); their ids."""
    if not stored:
        return []
    rows = [
        {"table_id": table.id, "seq": seq, "data": data, "revision": 1, "created_at": table.created_at}
        for seq, data in enumerate(stored, 1)
    ]
    db.session.execute(insert(Hand.__table__), rows)  # one executemany (RETURNING goes row by row on SQLite)
    query = select(Hand.id).where(Hand.table_id == table.id).order_by(Hand.seq)
    ids = list(db.session.scalars(query))
    events = [
        {"table_id": table.id, "hand_id": i, "action": "create", "at": table.created_at, "before": None, "after": d}
        for i, d in zip(ids, stored, strict=True)
    ]
    db.session.execute(insert(HandEvent.__table__), events)
    return ids


Linked = TypeVar("Linked", Table, Pena)


def open_linked(model: type[Linked], token: object, unknown: str) -> tuple[Linked, bool]:
    """The table or peña of a token (its edit or view link) and whether the token may change it;
    NotFound, saying ``unknown``, otherwise."""
    found = None
    if token_shaped(token):
        query = select(model).where((model.edit_token == token) | (model.view_token == token))
        found = db.session.scalars(query).first()
    if found is None:
        raise NotFound(unknown)
    return found, secrets.compare_digest(found.edit_token, str(token))


def open_table(token: str) -> tuple[Table, bool]:
    """The table of a token and whether the token may change it; NotFound otherwise."""
    return open_linked(Table, token, "unknown table: check the link")


def require_edit(token: str) -> Table:
    """The table of an edit token; Forbidden for its view token."""
    table, can_edit = open_table(token)
    if not can_edit:
        raise Forbidden("this is the view link: it cannot change the table")
    return table


def unchanged(table: Table) -> bool:
    """Whether the table's revision is still the one loaded.

    A writer may commit between reading the table and reading its hands: what was
    read is cached only when the revision did not move, so a cached value is always
    its revision's.
    """
    return db.session.scalar(select(Table.revision).where(Table.id == table.id)) == table.revision


def revision_is(table: Table, revision: int) -> bool:
    """Whether the table's stored revision is ``revision`` (nothing written since it was read)."""
    return db.session.scalar(select(Table.revision).where(Table.id == table.id)) == revision


def state_of(table: Table) -> Settled:
    """The table's settled state at its revision (cached): shared, treat it as read-only."""
    cached = _cache.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    state = _load(table, cached, table.revision)
    if (cached is None or cached.revision < table.revision) and unchanged(table):
        _cache.put(table.edit_token, state)
        if cached is None:
            settled.save(table.id, state)  # settled from scratch: the next worker need not
    return state


def _session(table: Table, state: Settled) -> dict[str, Any]:
    session = dict(table.header)
    session.pop("hands", None)
    if table.language != DEFAULT_LANGUAGE:  # the app key of the sheet's language; absent: Spanish
        session["language"] = table.language
    session["hands"] = list(state.hands)
    return session


def session_view(table: Table) -> dict[str, Any]:
    """The session file, sharing the cached hands: read-only (``session_of`` gives a copy)."""
    return _session(table, state_of(table))


def derived(table: Table, name: str, build: Callable[[dict[str, Any], dict[str, Any]], T]) -> T:
    """``build(session, ledger)``, made once per revision of the table (read-only, shared).

    For the view-models of the pages: a page shown again costs no more at hand 3,000 than at hand 30.
    Kept per language too: the view-models hold words, numbers and money in the page's language.
    """
    source = _page_source(table)

    def make() -> T:
        if isinstance(source, Window):
            session, ledger = source.session_and_ledger(table.header)
        else:
            session, ledger = _session(table, source), source.ledger()
        return build(session, ledger)

    return kept(table, name, make)


def kept(table: Table, name: str, make: Callable[[], T]) -> T:
    """``make()``, made once per revision of the table and language of the page (read-only, shared)."""
    source = _page_source(table)
    name = f"{name}@{words.language()}"
    if name not in source.derived:
        source.derived[name] = make()
    value: T = source.derived[name]
    return value


def totals_of(table: Table) -> Mapping[str, Any]:
    """The ledger's keys but its hands (balances, plato, next_dealer, over …), read-only.

    As cheap as the table page: from the cached state, else the persisted snapshot.
    """
    source = _page_source(table)
    if isinstance(source, Window):
        if "totals" not in source.derived:
            source.derived["totals"] = source.settlement.totals()
        totals: Mapping[str, Any] = source.derived["totals"]
        return totals
    return source.ledger()  # its "hands" too: shared, never copied


def favor_session(table: Table) -> dict[str, Any]:
    """The session as far as its favour changes go (R34): the header, and the hands with the entries that
    change the favour suit in their places (the others may be empty). From the cached state, else from
    two small queries: a page shown from a snapshot settles nothing, and still says every change."""
    source = _page_source(table)
    if not isinstance(source, Window):
        return _session(table, source)
    live = (Hand.table_id == table.id, Hand.deleted_at.is_(None))
    seqs = list(db.session.scalars(select(Hand.seq).where(*live).order_by(Hand.seq)))
    hands: list[dict[str, Any]] = [{}] * len(seqs)
    changes = select(Hand.seq, Hand.data).where(*live, Hand.data["favor"].as_string().is_not(None))
    for seq, data in db.session.execute(changes):
        hands[bisect.bisect_left(seqs, seq)] = dict(data)
    return {**table.header, "hands": hands}


def page_settlement(table: Table) -> Settlement:
    """The settlement the table page is built from (the cached state's, else the persisted snapshot's):
    its ``count`` and ``totals()`` are the table's, its entries perhaps only the last ones; read-only."""
    return _page_source(table).settlement


def _page_source(table: Table) -> Settled | Window:
    """What the table page is built from: the cached state, else the persisted snapshot, else a settle."""
    cached = _cache.get(table.edit_token)
    if cached is not None and cached.revision == table.revision:
        return cached
    if cached is None and game_of(table.ruleset).windowed:
        shown = _windows.get(table.edit_token)
        if shown is not None and shown.revision == table.revision:
            return shown
        shown = settled.window(table.id, table.header, table.revision, _keys(table))
        if shown is not None:
            if unchanged(table):
                _windows.put(table.edit_token, shown)
            return shown
    return state_of(table)


def ledger_view(table: Table) -> dict[str, Any]:
    """The ledger, sharing the cached entries: read-only (``ledger_of`` gives a copy)."""
    return state_of(table).ledger()


@dataclass(frozen=True, slots=True)
class JsonBody:
    """A view as JSON: ``raw`` gives back the very same data to ``json.loads`` (a lone surrogate of
    data stored before the input limits included), ``sent`` is what the API answers, valid UTF-8
    (D2: such a surrogate goes as ``?``). Both are one object unless the data has a surrogate."""

    raw: bytes
    sent: bytes


def _cached_json(table: Table, name: str, view: Callable[[Table], dict[str, Any]]) -> JsonBody:
    """``view(table)`` as JSON with a final newline, cached per revision under ``name``."""
    key = (table.edit_token, table.revision, name)
    body = _texts.get(key)
    if body is None:
        text = json.dumps(view(table), ensure_ascii=False) + "\n"
        try:
            raw = sent = text.encode("utf-8")
        except UnicodeEncodeError:
            raw, sent = text.encode("utf-8", "surrogatepass"), text.encode("utf-8", "replace")
        body = JsonBody(raw, sent)
        if unchanged(table):
            _texts.put(key, body)
    return body


def session_json(table: Table) -> JsonBody:
    """The session file as JSON (cached per revision)."""
    return _cached_json(table, "session", session_view)


def session_of(table: Table) -> dict[str, Any]:
    """The session file as stored: app keys kept, every hand with its dealer; a fresh copy."""
    return dict(json.loads(session_json(table).raw))


def settlement_of(table: Table) -> Settlement:
    """The table settled by the engine (cached per revision); treat it as read-only."""
    return state_of(table).settlement


def ledger_json(table: Table) -> JsonBody:
    """The ledger as JSON (cached per revision)."""
    return _cached_json(table, "ledger", ledger_view)


def ledger_of(table: Table) -> dict[str, Any]:
    """The ledger, identical to ``scorer settle`` on ``session_of(table)``; a fresh copy."""
    return dict(json.loads(ledger_json(table).raw))


# ------------------------------------------------------------------- hands


def preview_hand(table: Table, hand: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry the hand would have as the next one; saves nothing."""
    data = _check_hand(hand)
    try:
        settlement = settlement_of(table).add(data)
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
    return _number(state_of(table), hand.id)


def _number(state: Settled, hand_id: int) -> int | None:
    """The number of a live hand in the table's state, None when it is not live."""
    return next((n for n, (i, _) in enumerate(state.keys, 1) if i == hand_id), None)


def _same_body(hand: Hand, digest: str | None) -> None:
    if digest is not None and hand.request_hash is not None and hand.request_hash != digest:
        raise Unprocessable("this Idempotency-Key was already used with another hand")


def _replay(table: Table, hand: Hand, digest: str | None = None) -> tuple[int, dict[str, Any]]:
    """The answer already given to a request: the hand's number and ledger entry (422 for another body)."""
    _same_body(hand, digest)
    if hand.deleted:
        raise Conflict("this hand was already saved, then deleted")
    state = state_of(table)
    n = _number(state, hand.id)
    if n is None:
        # This request read the table before the other one (the same request id, a double submit racing
        # itself) committed the hand, and the cache may not have its state yet: read the revision again.
        db.session.refresh(table)
        state = state_of(table)
        n = _number(state, hand.id)
    if n is None:  # deleted by another writer since this request's table was read
        raise Conflict("this hand was already saved, then deleted")
    return n, copy.deepcopy(state.settlement.entries[n - 1])


def replay_request(table: Table, request_id: str, digest: str) -> tuple[int, dict[str, Any]] | None:
    """The answer already given to ``request_id`` (None when it was never used), as :func:`add_hand`
    gives it: Unprocessable (422) for another body (``digest``), Conflict when deleted since."""
    existing = _by_request(table, request_id)
    return None if existing is None else _replay(table, existing, digest)


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
    the caller judges again against what is stored (a replay of ``request_id`` is still answered)."""
    data = _check_hand(hand)
    digest = digest or _body_hash(data)
    if request_id is not None:
        if not isinstance(request_id, str) or not 0 < len(request_id) <= MAX_REQUEST_ID_LENGTH:
            raise Invalid(
                f"request id must be 1 to {MAX_REQUEST_ID_LENGTH} characters", about="", code="request_id_too_long"
            )
        if any(limits.char_problem(c) for c in request_id):
            raise Invalid("request id must be printable", about="", code="request_id_not_printable")
        # a replay first: a retried closing answers its 201 again, though the table is closed now
        existing = _by_request(table, request_id)
        if existing is not None:
            return _replay(table, existing, digest)
    check_open(table)

    def work(state: Settled) -> tuple[tuple[Hand | None, Settlement], Settled | None]:
        if request_id is not None:
            again = _by_request(table, request_id)
            if again is not None:
                _same_body(again, digest)
                return (again, state.settlement), same_hands(table, state)
        if judged is not None and state.revision != judged:
            raise Moved(f"the table moved from revision {judged} to {state.revision} meanwhile")
        check_open(table)
        try:
            settlement, checkpoints = extend(state.settlement, state.checkpoints, (data,))
        except SessionError as exc:
            raise Invalid.of(exc) from None
        stored = _with_dealer(data, settlement.entries[-1])
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
        db.session.flush()
        _event(table, row, "create", None, stored)
        if _is_close(stored):
            table.closed_at = utcnow()
        after = Settled(table.revision, (*state.keys, (row.id, 1)), (*state.hands, stored), settlement, checkpoints)
        return (None, settlement), after

    try:
        replayed, settlement = write(table, work)
    except IntegrityError:
        # the same request_id committed by another worker in between
        existing = _by_request(table, request_id) if request_id is not None else None
        if existing is None:
            raise
        return _replay(table, existing, digest)
    if replayed is not None:
        return _replay(table, replayed, digest)
    return settlement.count, copy.deepcopy(settlement.entries[-1])


def live_at(table: Table, n: int, state: Settled | None = None) -> Hand:
    """The row of live hand ``n`` (NotFound otherwise), found through the table's state."""
    keys = (state or state_of(table)).keys
    if not isinstance(n, int) or not 1 <= n <= min(len(keys), limits.ID_MAX):
        raise NotFound(f"hand {n}: no such hand")
    hand = db.session.get(Hand, keys[n - 1][0])
    if hand is None or hand.deleted:  # gone since the state was read: never a wrong hand
        raise NotFound(f"hand {n}: no such hand")
    return hand


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
    data = _check_hand(hand, n)
    check_open(table)

    def work(state: Settled) -> tuple[Settlement, Settled]:
        check_open(table)
        target = live_at(table, n, state)
        if revision is not None and target.revision != revision:
            raise Conflict(f"hand {n} was changed meanwhile: reload it and try again")
        settlement, checkpoints, hands = _replaced(state, n, data)
        stored = _with_dealer(hands[n - 1], settlement.entries[n - 1])
        hands = (*hands[: n - 1], stored, *hands[n:])
        before = target.data
        target.data = stored
        target.revision = target.revision + 1
        _event(table, target, "edit", before, stored)
        if _is_close(hands[-1]):
            table.closed_at = utcnow()
        keys = (*state.keys[: n - 1], (target.id, target.revision), *state.keys[n:])
        return settlement, Settled(table.revision, keys, hands, settlement, checkpoints)

    settlement = write(table, work)
    return copy.deepcopy(settlement.entries[n - 1])


def preview_replace(table: Table, n: int, hand: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry hand ``n`` would have if replaced (keeping its dealer); saves nothing.

    Invalid names the hand that breaks: ``n`` itself, or a later hand the change would make impossible.
    """
    data = _check_hand(hand, n)
    state = state_of(table)
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
        _event(table, target, "delete", target.data, None)
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
        _event(table, target, "restore", None, target.data)
        if _is_close(hands[-1]):
            table.closed_at = utcnow()
        keys = (*state.keys[: n - 1], (target.id, target.revision), *state.keys[n - 1 :])
        return n, Settled(table.revision, keys, hands, settlement, checkpoints)

    return write(table, work)


def deleted_hands(table: Table) -> list[DeletedHand]:
    """The hands out of the ledger, with the number each would take back."""
    query = select(Hand).where(Hand.table_id == table.id, Hand.deleted_at.is_not(None)).order_by(Hand.seq)
    deleted = list(db.session.scalars(query))
    if not deleted:
        return []
    live = list(db.session.scalars(select(Hand.seq).where(Hand.table_id == table.id, Hand.deleted_at.is_(None))))
    return [
        DeletedHand(hand.id, bisect.bisect_left(sorted(live), hand.seq) + 1, copy.deepcopy(hand.data), hand.deleted_at)
        for hand in deleted
    ]


def hand_revision(table: Table, n: int) -> int:
    """The revision of hand ``n``, for the edit form's optimistic concurrency."""
    return live_at(table, n).revision


def close_table(table: Table, how: str | None = None, *, request_id: str | None = None) -> int:
    """Close the table (R30) and make it read-only; its number. ``how``: Tresillo's ``devolver`` or ``repartir``."""
    closings = game_of(table.ruleset).closings or ("devolver",)  # bandos: the engine refuses it (B4)
    word = how or closings[0]
    if how is not None and (len(closings) < 2 or how not in closings):
        raise Invalid(f"unknown closing {how!r}: devolver or repartir (R30)", code="closing_unknown")
    n, _entry = add_hand(table, {"close": word}, request_id=request_id)
    return n
