"""What the offline queue sends, and where it may go: never two copies of a deal.

A phone with no network keeps what the keeper saves as entries (static/offline.js) and sends them,
in order, to ``POST /api/tables/<edit token>/entries/form`` (scorer/web/api/entries.py). Each entry says
the state it was made against:

- ``deal``: the number it takes (the table's next entry when the phone last knew it, plus the
  entries queued before it);
- ``revision``: the table's revision the phone last knew (the form's, or the page's);
- ``before``: the Idempotency-Keys of the entries queued before it, still waiting then.

The server records it only if that deal is still free and the table is that state plus those
entries: every entry before it saved, nothing else written since. Otherwise it is refused with
409 and a reason the keeper can read, in the page's language ("la mano 3 ya la anotó otro
teléfono: Benito · entrada ♦ · 5-3-1 · ganada"), and the phone keeps it to compare, correct or
discard. A body without ``deal`` (a queue kept by an older page) is judged as before: its ``after``,
its ``dealer`` and the form's hidden ``deal`` / ``table_revision``.

A closed table refuses every entry first (403, ``closed``); a taken deal carries the hand that took
it (``taken_hand``). The judging and the write are one step: the write is made only if the table is
still at the revision the entry was judged against (``store.add_hand(judged=…)``, under the
table's write lock), and a refusal only if the table did not move meanwhile; otherwise the entry is
judged again (``api.entries.JUDGE_ATTEMPTS``), so two phones racing for a deal are told the truth.

The same Idempotency-Key sent again is answered with what was saved (the answer was lost on the way
back); sent with other fields it is refused with 422, by the very check of ``/hands``
(:func:`store.replay_request`): the body's hash here is the hash of the form's fields.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from scorer import evening, limits, store
from scorer.games import game_of
from scorer.games import views as present
from scorer.store import Invalid, ServiceError
from scorer.web.common import messages

BEFORE_MAX = 500  # entries a phone may have waiting before one (far more than a night's deals)
DEAL_MAX = 10**6
# the fields that say where an entry goes, not what it is: not part of what a replay must repeat
PLACE_FIELDS = ("csrf_token", "request_id", "preview", "deal", "table_revision")
# the keys of a body (static/offline.js sends them all); any other is refused, naming it (422)
ENTRY_KEYS = ("form", "fields", "after", "dealer", "deal", "revision", "before")


class Refused(ServiceError):
    """A queued form the server will not record; ``problems`` are messages per field.

    ``reason`` is why, alone (what the queue shows under "no se ha guardado"); ``message`` (the
    answer's ``error``) says it in one sentence. ``taken``: the number of the hand that took the
    entry's deal (another phone's), when that is why, and ``taken_hand`` that hand (its number, its
    words, its session entry; the route adds the entry as sent). ``closed``: the table was closed."""

    def __init__(
        self,
        message: str,
        status: int,
        problems: dict[str, list[str]] | None = None,
        reason: str | None = None,
        taken: int | None = None,
        taken_hand: dict[str, Any] | None = None,
        closed: bool = False,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.problems = problems or {"general": [message]}
        self.reason = reason or message
        self.taken = taken
        self.taken_hand = taken_hand
        self.closed = closed


@dataclass(frozen=True)
class Entry:
    """A queued entry as sent: which form, its fields, and the state it was made against."""

    form: str
    fields: MultiDict[str, str]
    after: str | None
    dealer: int | None
    deal: int | None
    revision: int | None
    before: tuple[str, ...]

    def digest(self) -> str:
        """The hash of what the entry is (its form and fields, not where it goes)."""
        pairs = sorted((k, v) for k, v in self.fields.items(multi=True) if k not in PLACE_FIELDS)
        text = json.dumps({"form": self.form, "fields": pairs}, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode("ascii")).hexdigest()


def _items(raw: Any) -> Any:
    """The fields as (name, value) items: an object's, or a list's pairs."""
    if isinstance(raw, dict):
        return raw.items()
    if isinstance(raw, list):
        return raw
    raise Invalid("fields must be an object or a list of [name, value] pairs", about="")


def _values(name: str, value: Any) -> list[str]:
    """A field's value or values (a list: a field sent more than once), each a string."""
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(one, str) for one in values):
        raise Invalid(f"field {name!r}: values are strings", about="")
    return values


def _fields(raw: Any) -> MultiDict[str, str]:
    pairs: list[tuple[str, str]] = []
    for item in _items(raw):
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str)):
            raise Invalid("each field is a [name, value] pair", about="")
        name, value = item
        pairs.extend((name, one) for one in _values(name, value))
    return MultiDict(pairs)


def _whole(body: dict[str, Any], name: str, low: int, high: int, what: str) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid(f"{name} must be {what}, or null", about="")
    return value


def _key(value: Any, name: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= limits.REQUEST_ID_MAX:
        raise Invalid(f"{name} must be Idempotency-Keys of 1 to {limits.REQUEST_ID_MAX} characters", about="")
    return value


def _form(body: dict[str, Any], kinds: Any) -> str:
    form = body.get("form", "hand")
    if not isinstance(form, str) or form not in kinds:
        shown = form if isinstance(form, str) and len(form) <= 40 else type(form).__name__
        raise Invalid(f"unknown form {shown!r}: one of {', '.join(kinds)}", about="")
    return form


def _after(body: dict[str, Any]) -> str | None:
    after = body.get("after")
    if after is not None and not isinstance(after, str):
        raise Invalid("after must be the Idempotency-Key of the entry before, or null", about="")
    return after


def _before(body: dict[str, Any]) -> list[Any]:
    """The keys of the entries before (their shape: each key is read after the fields)."""
    before = body.get("before", [])
    if before is None:
        return []
    if not isinstance(before, list) or len(before) > BEFORE_MAX:
        raise Invalid(f"before must be a list of at most {BEFORE_MAX} Idempotency-Keys", about="")
    return before


def parse(body: Any, kinds: Any) -> Entry:
    """The entry of a request body; 400 with what is wrong for anything but the shape above."""
    if not isinstance(body, dict):
        raise Invalid("the body must be an object", about="")
    form = _form(body, kinds)
    after = _after(body)
    before = _before(body)
    return Entry(
        form=form,
        fields=_fields(body.get("fields")),
        after=after,
        dealer=_whole(body, "dealer", -(2**31), 2**31, "the seat the form was made for"),
        deal=_whole(body, "deal", 1, DEAL_MAX, "the number of the deal the entry takes"),
        revision=_whole(body, "revision", 0, 10**limits.REVISION_DIGITS_MAX - 1, "the table's revision"),
        before=tuple(_key(k, "before") for k in before),
    )


def stale(why: str) -> str:
    """An entry written offline for another state of the table, in the page's language."""
    return gettext("La partida ha cambiado desde que se anotó esto sin conexión (%(why)s): no se ha guardado.", why=why)


def hand_words(table: Any, n: int) -> str:
    """Hand ``n`` as the table page lists it, without its number: "Benito · entrada ♦ · 5-3-1 · ganada · +35"."""
    session, ledger = store.read(table).session, store.read(table).ledger
    hands, entries = list(session.get("hands", [])), list(ledger.get("hands", []))
    seats = evening.seatings(tuple(session.get("players", [])), entries, hands)
    line = present.hand_line(
        hands[n - 1] if n - 1 < len(hands) else {},
        entries[n - 1],
        present.previous_balances(ledger, n - 1),
        [seats[n - 1][s] for s in sorted(seats[n - 1])],
        present.ruleset_of(session),
    )
    return line.text.split(" · ", 1)[-1]


def _check_dealer(table: Any, dealer: int | None) -> None:
    if dealer is None:  # the form was made for a deal by this seat (its data-dealer)
        return
    dealing = int(store.read(table).ledger_copy().get("next_dealer") or 1)
    if dealer != dealing:
        names = table.players
        who = names[dealer - 1] if 1 <= dealer <= len(names) else str(dealer)
        now = names[dealing - 1]
        why = gettext("se anotó para cuando daba %(before)s, y ahora da %(now)s", before=who, now=now)
        raise Refused(stale(why), 409)


def check_open(table: Any) -> None:
    """Refuse (403, ``closed``) any entry for a table that was closed (R30, P11, O7, B4): before any
    other judging, so that its closing is never told as a hand another phone took."""
    if not table.closed:
        return
    rule = game_of(table.ruleset).closing_rule
    reason = gettext("la partida se cerró (%(rule)s): ya no se puede guardar nada en ella", rule=rule)
    said = messages.render("table_closed", {"rule": rule})  # "La partida está cerrada (R30): ya no se puede cambiar."
    raise Refused(said, 403, {"general": [reason]}, reason=reason, closed=True)


def taken_hand(table: Any, n: int) -> dict[str, Any]:
    """Hand ``n`` as recorded, for a refusal: its number, its words, its entry of the session file."""
    hands = store.read(table).session.get("hands", [])
    recorded = copy.deepcopy(hands[n - 1]) if 0 < n <= len(hands) else None
    return {"n": n, "words": hand_words(table, n), "hand": recorded}


def check_place(table: Any, entry: Entry) -> None:
    """Refuse (409) an entry whose deal is no longer free, or written for another state of the table."""
    if entry.deal is None:
        _check_place_by_after(table, entry)
        return
    count = store.read(table).settlement.count
    if entry.deal <= count:  # taken: by another phone (this phone's own copy is a replay, found before)
        taken = taken_hand(table, entry.deal)
        reason = gettext("la mano %(n)s ya la anotó otro teléfono: %(hand)s", n=entry.deal, hand=taken["words"])
        said = gettext("No se ha guardado: %(reason)s", reason=reason)
        raise Refused(said, 409, reason=reason, taken=entry.deal, taken_hand=taken)
    missing = [key for key in entry.before if store.hand_for_request(table, key) is None]
    if missing:
        raise Refused(stale(gettext("la anotación anterior de la cola no está guardada")), 409)
    if entry.deal != count + 1:
        why = gettext("era para la mano %(deal)s y ya va por la %(now)s", deal=entry.deal, now=count + 1)
        raise Refused(stale(why), 409)
    if entry.revision is not None and table.revision != entry.revision + len(entry.before):
        raise Refused(stale(gettext("alguien la cambió mientras tanto")), 409)
    _check_dealer(table, entry.dealer)
    entry.fields.poplist("deal")  # its place is checked: the form's own hidden copies are not needed
    entry.fields.poplist("table_revision")


def _check_place_by_after(table: Any, entry: Entry) -> None:
    """An entry of a queue kept before deals were numbered: its dealer, the entry before, the form's hidden fields."""
    fields = entry.fields
    count = store.read(table).settlement.count
    _check_dealer(table, entry.dealer)
    if entry.after is not None:
        previous = store.hand_for_request(table, entry.after)
        if previous is None:
            raise Refused(stale(gettext("la anotación anterior de la cola no está guardada")), 409)
        if previous != count:
            raise Refused(stale(gettext("después de la mano %(n)s se anotó otra", n=previous)), 409)
        fields.poplist("deal")  # written offline after that entry: its place is right after it
        fields.poplist("table_revision")
        return
    deal = (fields.get("deal") or "").strip()
    if deal and deal != str(count + 1):
        why = gettext("era para la mano %(deal)s y ya va por la %(now)s", deal=deal, now=count + 1)
        raise Refused(stale(why), 409)
    revision = (fields.get("table_revision") or "").strip()
    if revision and revision != str(table.revision):
        raise Refused(stale(gettext("alguien la cambió mientras tanto")), 409)
