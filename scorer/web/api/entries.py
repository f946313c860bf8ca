"""The offline queue's entries: ``POST /api/tables/<token>/entries/form``, on the API's
blueprint ``api``. A form kept by the phone is read by the very code of the form's own page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import Response, current_app, jsonify, request
from flask_babel import gettext
from flask_wtf.csrf import generate_csrf

from scorer import limits, store
from scorer.store import Invalid
from scorer.store.db import db
from scorer.web.api import queue
from scorer.web.api.common import BodyKey, json_body, only
from scorer.web.api.forms import OFFLINE_FORMS
from scorer.web.api.queue import Refused
from scorer.web.api.routes import bp
from scorer.web.common import messages
from scorer.web.common.pages import refusal
from scorer.web.common.table import keepers_table

# ------------------------------------------------------------ forms kept offline
# A form saved with no network is kept by the phone (static/offline.js) as its fields, exactly as
# the form had them, with an Idempotency-Key; when the network returns the queue is sent here in
# order. The fields are read by the very code of the form's own POST (scorer/web/api/forms.py): the
# phone knows nothing of the game. A refusal answers 4xx with the Spanish reason per field, and
# the entry stays on the phone to be corrected or discarded.
#
# Body: {"form": "hand" | "pass" | …, "fields": {name: value or [values]} or [[name, value], …],
#        "deal", "revision", "before": the state the entry was made against (never two
#        copies of a deal), "dealer": the seat the form was made for (its data-dealer), or null}.
# Where an entry may go, and what a malformed body gets: scorer/web/api/queue.py.


@bp.errorhandler(Refused)
def refused(exc: Refused) -> tuple[Response, int]:
    answer = jsonify(
        error=exc.message,
        reason=exc.reason,
        problems=exc.problems,
        taken=exc.taken,
        taken_hand=exc.taken_hand,
        closed=exc.closed,
    )
    return answer, exc.status


# How many times an entry is judged again when another write to its table came in between its
# judging and its write (each time another writer got in first: a few at a busy table at most).
JUDGE_ATTEMPTS = 8


@bp.post("/tables/<token>/entries/form")
def add_form_entry(token: str) -> tuple[Response, int]:
    try:
        body = json_body("", limits.HAND_BYTES_MAX)
        only(body, queue.ENTRY_KEYS, "an entry")
    except BodyKey as exc:  # said as the queue's other refusals: it stays on the phone to be discarded
        raise Refused(exc.message, exc.status) from None
    key = request.headers.get("Idempotency-Key") or ""
    if not 0 < len(key) <= limits.REQUEST_ID_MAX:
        raise Invalid(f"an Idempotency-Key header of 1 to {limits.REQUEST_ID_MAX} characters is needed", about="")
    entry = queue.parse(body, OFFLINE_FORMS)  # 400 with what is wrong for any other shape
    for _attempt in range(JUDGE_ATTEMPTS):
        try:
            return _judge_and_write(token, key, replace(entry, fields=entry.fields.copy()))
        except store.Moved:
            db.session.rollback()  # read the table again, as it is now
        except Refused as exc:
            if exc.taken_hand is not None:
                exc.taken_hand["entry"] = body  # the refused entry as sent, beside the hand that took its deal
            raise
    busy = gettext("La partida está recibiendo muchas anotaciones a la vez: no se ha guardado; se reintentará.")
    raise Refused(busy, 503)


def _judge_and_write(token: str, key: str, entry: queue.Entry) -> tuple[Response, int]:
    """Judge the entry against the table as read now and record it, unless another write came in
    between: then :class:`store.Moved` (from the write, under the table's lock, or from a refusal
    that the table's revision no longer backs), and the caller judges it again."""
    try:
        table = keepers_table()
    except (store.NotFound, store.Forbidden) as exc:  # an unknown link, the view link
        raise Refused(refusal(exc), exc.status) from None
    seen = table.revision  # every judgement below is of this revision, or it is made again
    try:
        return _record(table, key, entry, seen)
    except store.Moved:
        raise
    except Refused:
        _unless_moved(table, seen)
        raise
    except (store.Invalid, store.Conflict, store.Forbidden, store.NotFound) as exc:
        raise _refused(exc, table, seen) from None


def _record(table: Any, key: str, entry: queue.Entry, seen: int) -> tuple[Response, int]:
    """The entry judged against revision ``seen`` of the table and saved (or found already saved)."""
    fields = entry.fields
    try:  # sent again after the answer was lost: already recorded, once (422 with other fields)
        saved = store.replay_request(table, key, entry.digest())
    except store.Unprocessable:
        reused = gettext("Esta clave ya se usó para guardar otra anotación: no se ha guardado.")
        raise Refused(reused, 422) from None
    if saved is not None:
        return jsonify(n=saved[0], replayed=True, revision=table.revision), 200
    queue.check_open(table)  # a closed table first: its closing is no hand another phone took
    queue.check_place(table, entry)
    fields.poplist("preview")  # the queue saves; "Ver pagos" needs the network
    fields["request_id"] = key
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        fields["csrf_token"] = generate_csrf()  # the API's own protection: edit token + JSON
    hand = OFFLINE_FORMS[entry.form](table, fields)
    n, answer = store.add_hand(table, hand, request_id=key, digest=entry.digest(), judged=seen)
    return jsonify(n=n, hand=answer, revision=table.revision, message=gettext("Mano %(n)s anotada.", n=n)), 201


def _invalid(exc: store.Invalid, table: Any, seen: int) -> Refused:
    """An engine refusal, next to its field (a later hand it would break: in general)."""
    _unless_moved(table, seen)
    field, message = messages.explain(exc)
    count = store.read(table).settlement.count
    if exc.hand is not None and exc.hand != count + 1:
        field = "general"
        message = gettext("La mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message)
    said = gettext("No se ha guardado: %(reason)s", reason=message)
    return Refused(said, 422, {field: [message]}, reason=message)


def _conflict(_exc: store.Conflict, _table: Any, _seen: int) -> Refused:
    """The key's hand was saved, then deleted at the table: not again."""
    return Refused(gettext("Ya se había guardado y después se borró en la partida: descártala."), 409)


def _forbidden(exc: store.Forbidden, table: Any, seen: int) -> Refused:
    _unless_moved(table, seen)
    if exc.code == "table_closed":  # closed by another writer while this entry was judged
        queue.check_open(table)
    return Refused(refusal(exc), exc.status)


def _not_found(exc: store.NotFound, _table: Any, _seen: int) -> Refused:
    return Refused(refusal(exc), exc.status)


# how the queue says each refusal of the store (the entry stays on the phone, with the reason)
REFUSALS: dict[type[store.ServiceError], Callable[[Any, Any, int], Refused]] = {
    store.Invalid: _invalid,
    store.Conflict: _conflict,
    store.Forbidden: _forbidden,
    store.NotFound: _not_found,
}


def _refused(exc: store.ServiceError, table: Any, seen: int) -> Refused:
    """The store's refusal of an entry as the queue's (a refusal the table moved since is judged again)."""
    kind = next(k for k in REFUSALS if isinstance(exc, k))
    return REFUSALS[kind](exc, table, seen)


def _unless_moved(table: Any, seen: int) -> None:
    """A refusal stands only for the table as it was judged: another write since, and it is judged again
    (a retry that met its own first try is then a replay; a deal another phone took, a 409 that says so)."""
    if not store.revision_is(table, seen):
        raise store.Moved("the table moved while the entry was judged")
