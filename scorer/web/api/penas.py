"""The peñas' JSON API (docs/pena-api.md): the token rules of the tables' API (``scorer.web.api``).

Writes need the peña's edit token and ``Content-Type: application/json``; the view token reads.
Statistics and ledgers are computed on every request from the evenings, never stored.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping
from decimal import Decimal
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from scorer import store
from scorer.pena import stats
from scorer.store import ServiceError
from scorer.store import penas as ps
from scorer.store.db import db
from scorer.store.penas import Invalid
from scorer.web.api.common import answer_errors_in_json, json_body, only

bp = Blueprint("pena_api", __name__, url_prefix="/api/penas")


answer_errors_in_json(bp)


PERSON_KEYS = ("name", "nickname")


def _object(body: Any) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise Invalid("the body must be a JSON object")
    return body


def _season() -> tuple[dt.date | None, dt.date | None]:
    """The season of the query string (``from``, ``to``: ISO dates); Invalid names the first one that is not a date."""
    texts = [request.args.get(key) for key in ("from", "to")]
    start, end, wrong = ps.season_dates(texts[0], texts[1])
    if wrong:
        raise Invalid(f"{('from', 'to')[wrong[0]]}: {texts[wrong[0]]!r} is not a date (YYYY-MM-DD)")
    return start, end


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _pena_json(pena: Any, can_edit: bool) -> dict[str, Any]:
    tables = []
    for link, table in ps.tables_of(pena):
        token = table.edit_token if can_edit else table.view_token
        tables.append(
            {
                "token": token,
                "name": table.name,
                "date": ps.evening_date(table),
                "ruleset": table.ruleset,
                "closed": table.closed,
                "people": link.names,
            }
        )
    tables.sort(key=lambda t: (t["date"], t["name"]))
    answer = {
        "name": pena.name,
        "view_token": pena.view_token,
        "view_url": url_for("pena.page", token=pena.view_token, _external=True),
        "people": ps.people_json(pena.people),
        "tables": tables,
    }
    if can_edit:
        answer["edit_token"] = pena.edit_token
        answer["edit_url"] = url_for("pena.page", token=pena.edit_token, _external=True)
    return answer


@bp.post("")
def create() -> tuple[Response, int, dict[str, str]]:
    body = _object(json_body())
    only(body, ("name", "people"), "a peña")
    people = body.get("people") or []
    if not isinstance(people, list):
        raise Invalid("people must be a list")
    roster = []
    for item in people:
        if isinstance(item, str):
            roster.append((item, None))
        elif isinstance(item, Mapping):
            roster.append((item.get("name"), item.get("nickname")))
        else:
            raise Invalid("each person is a name or {name, nickname}")
    pena = ps.create_pena(body.get("name"), roster)
    answer = _pena_json(pena, True)
    return jsonify(answer), 201, {"Location": url_for("pena_api.get", token=pena.edit_token)}


@bp.get("/<token>")
def get(token: str) -> Response:
    pena, can_edit = ps.open_pena(token)
    return jsonify(_pena_json(pena, can_edit))


@bp.post("/<token>/people")
def add_person(token: str) -> tuple[Response, int]:
    pena = ps.require_edit(token)
    body = _object(json_body())
    only(body, PERSON_KEYS, "a person")
    person = ps.add_person(pena, body.get("name"), body.get("nickname"))
    return jsonify(ps.people_json([person])[0]), 201


@bp.put("/<token>/people/<int:person_id>")
def rename_person(token: str, person_id: int) -> Response:
    pena = ps.require_edit(token)
    body = _object(json_body())
    only(body, PERSON_KEYS, "a person")
    person = ps.rename_person(pena, person_id, body.get("name"), body.get("nickname"))
    return jsonify(ps.people_json([person])[0])


def _attach_session(pena: Any, session: Any, choices: Mapping[str, Any]) -> tuple[Any, Any]:
    """A session file imported as a new table of the peña; nothing saved when a name is unsure."""
    if not isinstance(session, Mapping):
        raise Invalid("session must be a session file (an object)")
    # check the names first, so that nothing is saved when one is unsure
    unsure = [
        n
        for n in stats.names_that_sat(session)
        if n not in choices and not ps.match_name(pena, n).sure and ps.match_name(pena, n).candidates
    ]
    if unsure:
        raise Invalid(f"{unsure[0]}: say which person it is in people")
    table = store.create_table(dict(session))
    try:
        link = ps.attach(pena, table, choices)
    except ServiceError:
        db.session.delete(table)  # nothing saved: the imported table goes too
        db.session.commit()
        raise
    return table, link


@bp.post("/<token>/tables")
def attach(token: str) -> tuple[Response, int]:
    """Attach a table (``table``: its edit token) or import a session file (``session``) into the peña.

    ``people`` maps names to a person id or ``"nueva"``; unsure names without it are refused (400).
    """
    pena = ps.require_edit(token)
    body = _object(json_body())
    only(body, ("table", "session", "people"), "an attachment")
    choices = body.get("people") or {}
    if not isinstance(choices, Mapping):
        raise Invalid('people must map names to a person id or "nueva"')
    if "session" in body:
        table, link = _attach_session(pena, body["session"], choices)
    else:
        table = store.require_edit(str(body.get("table") or ""))
        link = ps.attach_checked(pena, table, choices)
    return jsonify(token=table.edit_token, view_token=table.view_token, people=link.names, seats=link.seats), 201


@bp.get("/<token>/tables/<table>/matches")
def matches(token: str, table: str) -> Response:
    """How the names of a table match the roster: ``person`` when sure, ``candidates`` when not."""
    pena, _ = ps.open_pena(token)
    target, _ = store.open_table(table)
    return jsonify(
        matches=[
            {
                "name": m.name,
                "person": m.person.id if m.person else None,
                "candidates": [p.id for p in m.candidates],
            }
            for m in ps.matches(pena, target)
        ]
    )


@bp.delete("/<token>/tables/<table>")
def detach(token: str, table: str) -> Response:
    pena = ps.require_edit(token)
    target, _ = store.open_table(table)
    ps.detach(pena, target)
    return jsonify(detached=True)


def _key(person: Hashable) -> str:
    return str(person)


@bp.get("/<token>/ledger")
def ledger(token: str) -> Response:
    pena, _ = ps.open_pena(token)
    start, end = _season()
    evenings = ps.evenings(pena, start, end)
    result = stats.lifetime_ledger(evenings)
    return jsonify(
        evenings=[
            {
                "table": int(str(line.evening.key)),
                "name": line.evening.name,
                "date": line.evening.date,
                "ruleset": line.evening.ruleset,
                "tanto_value": None if line.evening.value is None else str(line.evening.value),
                "tantos": {_key(p): t for p, t in line.tantos.items()},
                "money": {_key(p): str(m) for p, m in line.money.items()},
                "pot": line.pot,
                "unmatched": line.unmatched,
            }
            for line in result.lines
        ],
        standings=[
            {"person": s.person, "evenings": s.evenings, "money": str(s.money), "tantos": s.tantos}
            for s in result.standings
        ],
        tanto_value=None if result.same_value is None else str(result.same_value),
        tantos_only=result.tantos_only,
        payments=[
            {"from": p.payer, "to": p.payee, "tantos": p.amount}
            if result.tantos_only
            else {"from": p.payer, "to": p.payee, "money": str(stats.payment_money(p.amount, result.places))}
            for p in result.payments
        ],
        open_pots=[{"table": int(str(line.evening.key)), "pot": line.pot} for line in result.open_pots],
    )


@bp.get("/<token>/stats")
def statistics(token: str) -> Response:
    pena, _ = ps.open_pena(token)
    start, end = _season()
    evenings = ps.evenings(pena, start, end)
    return jsonify(
        pena=stats.statistics(evenings).as_dict(),
        people={_key(p.id): stats.statistics(evenings, p.id).as_dict() for p in pena.people},
    )


@bp.get("/<token>/people/<int:person_id>/stats")
def person_statistics(token: str, person_id: int) -> Response:
    pena, _ = ps.open_pena(token)
    person = ps.person_of(pena, person_id)
    start, end = _season()
    evenings = ps.evenings(pena, start, end)
    return jsonify(person=ps.people_json([person])[0], stats=stats.statistics(evenings, person_id).as_dict())
