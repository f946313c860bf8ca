"""Answers to the hands: the one place where they meet the database.

A person seated at a hand says whether the hand is right (*De acuerdo*) or not (*No es así*,
with a short note). Answers are input data: they are never changed or deleted, and a hand's
answers are those given to its current version (see :mod:`.models`). An answer does not bump
the table's revision: a keeper's open hand form stays good while the others answer.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import current_app
from sqlalchemy import func, select

from scorer import evening, limits
from scorer.store import settled
from scorer.store.db import db
from scorer.store.errors import NotFound
from scorer.store.models import Answer, Hand, HandEvent, Table, utcnow
from scorer.store.state import read
from scorer.words import translate as _


class Refused(Exception):
    """An answer that is not saved: ``status``, ``message`` in English (the API), ``spanish`` (the pages)."""

    def __init__(self, status: int, message: str, spanish: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.spanish = spanish


@dataclass(frozen=True, slots=True)
class Given:
    """An answer as shown: who, agrees or not, the note, when; ``current`` if it is about the hand as it is now."""

    person: str
    agrees: bool
    note: str
    at: dt.datetime
    current: bool
    version: int
    hand_revision: int
    hand: Mapping[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"person": self.person, "agrees": self.agrees, "note": self.note, "at": iso(self.at)}


def iso(at: dt.datetime) -> str:
    """A stored (naive UTC) time as ISO 8601 with its Z: ``2026-12-01T16:30:05Z``."""
    return at.replace(microsecond=0).isoformat() + "Z"


def _given(row: Answer, current: bool) -> Given:
    return Given(row.person, row.agrees, row.note, row.at, current, row.version, row.hand_revision, row.hand)


# ------------------------------------------------------------------ who sat where


def seatings(session: Mapping[str, Any], ledger: Mapping[str, Any]) -> list[dict[int, str]]:
    """Who sat where at each entry (R33), and after the last one."""
    return evening.seatings(session.get("players") or [], ledger.get("hands") or [], session.get("hands") or [])


def seats_and_people(
    session: Mapping[str, Any], ledger: Mapping[str, Any]
) -> tuple[list[dict[int, str]], tuple[str, ...]]:
    """:func:`seatings`, and everyone who sat at the table: those seated now first, then whoever left (R33)."""
    seats = seatings(session, ledger)
    now = [seats[-1][s] for s in sorted(seats[-1])]
    return seats, tuple(dict.fromkeys(now + evening.names_used(session, ledger)))


def seated_at(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> list[str]:
    """The people seated at entry ``n``, in seat order: those who may answer it."""
    seating = seatings(session, ledger)[n - 1]
    return [seating[seat] for seat in sorted(seating)]


# ------------------------------------------------------------------ reading


def versions_of(hand_ids: Sequence[int]) -> dict[int, int]:
    """The current version (latest history event id, 0 without one) of each hand."""
    if not hand_ids:
        return {}
    query = (
        select(HandEvent.hand_id, func.max(HandEvent.id))
        .where(HandEvent.hand_id.in_(hand_ids))
        .group_by(HandEvent.hand_id)
    )
    found = {int(h): int(v) for h, v in db.session.execute(query)}
    return {h: found.get(h, 0) for h in hand_ids}


def version_of(hand_id: int) -> int:
    """The current version of one hand."""
    return versions_of([hand_id])[hand_id]


def _latest_per_person(rows: Sequence[Answer]) -> list[Answer]:
    """The last answer of each person (rows in id order): answering again replaces."""
    latest: dict[str, Answer] = {}
    for row in rows:
        latest[row.person] = row
    return list(latest.values())


# The columns the pages read (not the hand as answered: only the history shows it).
_SHOWN = (
    Answer.id, Answer.hand_id, Answer.person, Answer.agrees, Answer.note, Answer.at, Answer.version,
    Answer.hand_revision,
)  # fmt: skip
# The current version of the answered hand: its latest history event (hand_events.hand_id is indexed).
_VERSION_NOW = (
    select(func.coalesce(func.max(HandEvent.id), 0)).where(HandEvent.hand_id == Answer.hand_id).scalar_subquery()
)

# table's edit token → (its revision, its answers' stamp, hand id → current answers): the same pages shown
# again read one number from the database. Every answer changes the stamp, every change of a hand
# the revision; the key is read from the database, so several workers stay right.
_current_cache: dict[str, tuple[int, int, dict[int, list[Given]]]] = {}
CACHE_TABLES = 256


def current(table: Table, answers_stamp: int | None = None) -> dict[int, list[Given]]:
    """Hand id → the answers to its current version (one per person, latest), for the hands that have any.

    Shared and cached per (revision, stamp): treat it as read-only.
    """
    mark = stamp(table) if answers_stamp is None else answers_stamp
    if mark == 0:
        return {}
    cached = _current_cache.get(table.edit_token)
    if cached is not None and cached[:2] == (table.revision, mark):
        return cached[2]
    query = select(*_SHOWN).where(Answer.table_id == table.id, Answer.version == _VERSION_NOW).order_by(Answer.id)
    latest: dict[tuple[int, str], Given] = {}
    for _i, hand_id, person, agrees, note, at, version, revision in db.session.execute(query):
        latest[(int(hand_id), person)] = Given(person, bool(agrees), note, at, True, version, revision, {})
    by_hand: dict[int, list[Given]] = {}
    for (hand_id, _person), given in latest.items():
        by_hand.setdefault(hand_id, []).append(given)
    if len(_current_cache) >= CACHE_TABLES:
        _current_cache.clear()
    _current_cache[table.edit_token] = (table.revision, mark, by_hand)
    return by_hand


def latest_of(table: Table, person: str) -> dict[int, Given]:
    """Hand id → ``person``'s latest answer to it, whatever version it was about (``current`` not set)."""
    query = select(*_SHOWN).where(Answer.table_id == table.id, Answer.person == person).order_by(Answer.id)
    return {
        int(h): Given(p, bool(a), note, at, False, version, revision, {})
        for _i, h, p, a, note, at, version, revision in db.session.execute(query)
    }


def history(table: Table, hand_id: int) -> list[Given]:
    """Every answer ever given to a hand, oldest first; ``current`` marks those that still count."""
    rows = list(
        db.session.scalars(
            select(Answer).where(Answer.table_id == table.id, Answer.hand_id == hand_id).order_by(Answer.id)
        )
    )
    version = version_of(hand_id)
    counting = {r.id for r in _latest_per_person([r for r in rows if r.version == version])}
    return [_given(r, r.id in counting) for r in rows]


def stamp(table: Table) -> int:
    """Changes with every answer given at the table (what the watchers' page polls, with the revision)."""
    return int(db.session.scalar(select(func.max(Answer.id)).where(Answer.table_id == table.id)) or 0)


class LiveIds(Sequence[int]):
    """The ids of the table's live hands, in order (hand ``n`` is ``ids[n - 1]``), read from its cached state."""

    def __init__(self, table: Table) -> None:
        self.keys = read(table).settled.keys  # (id, revision) per live hand, shared: never copied

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [int(k) for k, _ in self.keys[index]]
        return int(self.keys[index][0])


def live_ids(table: Table) -> LiveIds:
    """The ids of the table's live hands, in order (hand ``n`` is ``ids[n - 1]``)."""
    return LiveIds(table)


_numbers_cache: dict[str, tuple[int, int, dict[int, list[Given]]]] = {}


def by_number(table: Table, answers_stamp: int | None = None) -> dict[int, list[Given]]:
    """Hand number → its current answers, for the live hands that have any (cached like :func:`current`)."""
    mark = stamp(table) if answers_stamp is None else answers_stamp
    answers = current(table, mark)
    if not answers:
        return {}
    cached = _numbers_cache.get(table.edit_token)
    if cached is not None and cached[:2] == (table.revision, mark):
        return cached[2]
    numbers = {n: answers[i] for n, (i, _r) in enumerate(read(table).settled.keys, 1) if i in answers}
    if len(_numbers_cache) >= CACHE_TABLES:
        _numbers_cache.clear()
    _numbers_cache[table.edit_token] = (table.revision, mark, numbers)
    return numbers


def of_hand(table: Table, n: int) -> list[Given]:
    """The current answers of live hand ``n`` (NotFound if there is none)."""
    ids = live_ids(table)
    if not 1 <= n <= len(ids):
        raise NotFound(f"hand {n}: no such hand")
    return current(table).get(ids[n - 1], [])


# ------------------------------------------------------------------ writing


def _note_problem(note: str) -> None:
    """A note too long, or with a character that is not stored, as Refused."""
    problem = limits.text_problem(note, limits.ANSWER_NOTE_MAX)
    if problem is None:
        return
    code, params = problem
    if code == "text_too_long":
        raise Refused(
            422,
            f"note is longer than {limits.ANSWER_NOTE_MAX} characters",
            _("La nota pasa de %(limit)s caracteres: dilo más corto.", limit=limits.ANSWER_NOTE_MAX),
        )
    shown = f"{limits.CHAR_WORDS[params['kind']]} {params['char']}"
    raise Refused(
        422,
        f"note contains {shown}",
        _("La nota tiene un carácter que no se guarda (%(char)s).", char=params["char"]),
    )


def _clean_note(agrees: object, note: object) -> tuple[bool, str]:
    """Whether the person agrees and the note as stored; Refused for a wrong value or a bare disagreement."""
    if not isinstance(agrees, bool):
        raise Refused(422, "agrees must be true or false", _("Di si estás de acuerdo o no."))
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise Refused(422, "note must be a string", _("La nota tiene que ser un texto."))
    note = "" if limits.shows_nothing(note) else note.strip()  # zero-width spaces say nothing
    _note_problem(note)
    if not agrees and not note:
        raise Refused(422, "a disagreement needs a note saying what is wrong (e.g. \"eran 4 estuches\")",
                      _("Di en una nota qué no es así (por ejemplo, «eran 4 estuches»)."))  # fmt: skip
    return agrees, note


def _seated(session: Mapping[str, Any], ledger: Mapping[str, Any], n: int, person: str) -> str:
    """The person's name when seated at hand ``n``; else Refused."""
    seated = seated_at(session, ledger, n)
    name = person.strip()
    if name not in seated:
        shown = name if len(name) <= limits.NAME_MAX else name[: limits.NAME_MAX] + "…"
        raise Refused(
            422,
            f"{shown!r} was not seated at hand {n} (seated: {', '.join(seated)})",
            _("%(name)s no estaba sentado en la mano %(n)s: solo responden los que la jugaron.", name=shown, n=n),
        )
    return name


def check(table: Table, n: int, person: object, agrees: object, note: object) -> tuple[int, str, bool, str]:
    """What is wrong with an answer to hand ``n``, as Refused; else the hand's id and the clean values."""
    if table.closed:
        raise Refused(403, "the table is closed: its hands can no longer be answered",
                      _("La partida está cerrada: sus manos ya no se responden."))  # fmt: skip
    state = read(table)
    session, ledger = state.session, state.ledger
    ids = live_ids(table)
    if not 1 <= n <= min(len(ids), len(ledger.get("hands") or [])):
        raise Refused(404, f"hand {n}: no such hand", _("La mano %(n)s no existe.", n=n))
    if not isinstance(person, str) or not person.strip():
        raise Refused(422, "person must be the name of someone seated at the hand",
                      _("Elige quién eres entre los que están sentados."))  # fmt: skip
    agrees, note = _clean_note(agrees, note)
    return ids[n - 1], _seated(session, ledger, n, person), agrees, note


def record(
    table: Table, n: int, person: object, agrees: object, note: object, *, version: int | None = None
) -> list[Given]:
    """Save ``person``'s answer to hand ``n`` (replacing his earlier one); the hand's current answers.

    ``version`` (a page's form) is the version the person saw: if the hand changed since, the
    answer is refused (409) rather than given to content he did not see.
    """
    hand_id, name, agree, text = check(table, n, person, agrees, note)
    with settled.one_writer(current_app.instance_path, db.engine.dialect.name):
        try:
            hand = db.session.get(Hand, hand_id)
            now = version_of(hand_id)
            if hand is None or hand.deleted or (version is not None and version != now):
                raise Refused(
                    409,
                    f"hand {n} changed meanwhile: read it again and answer",
                    _("La mano %(n)s ha cambiado mientras la mirabas: vuelve a mirarla y responde.", n=n),
                )
            db.session.add(
                Answer(
                    table_id=table.id,
                    hand_id=hand_id,
                    version=now,
                    hand_revision=hand.revision,
                    hand=hand.data,
                    person=name,
                    agrees=agree,
                    note=text,
                    at=utcnow(),
                )
            )
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
    return current(table).get(hand_id, [])
