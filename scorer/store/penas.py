"""Peñas in the database: roster, tables of a peña, and the evenings handed to :mod:`scorer.pena.stats`.

Token rules are the tables' (``services``): an edit token and a view token, unguessable;
writes need the edit token. Tables point at person ids, never at names, so renaming a
person keeps the history.
"""

from __future__ import annotations

import datetime as dt
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from scorer import limits, words
from scorer.pena.stats import Evening, names_that_sat
from scorer.store import cache, errors
from scorer.store.db import db
from scorer.store.errors import Forbidden, NotFound
from scorer.store.links import TOKEN_BYTES, open_linked, open_table, unchanged
from scorer.store.models import Pena, PenaTable, Person, Table, utcnow
from scorer.store.state import read


class Invalid(errors.Invalid):
    """Bad input about a peña: ``message`` is ``peña: reason``; nothing was saved."""

    def __init__(self, reason: str, *, code: str = "invalid", **params: Any) -> None:
        super().__init__(reason, code=code, **params)
        self.message = f"peña: {reason}"
        self.args = (self.message,)


NAME_MAX = limits.NAME_MAX  # as a player's name at a table
NEW = "nueva"  # the choice "a new person" in a matching form


# What _clean checks, in the English of the API (the pages: scorer.web.common.messages.LIMIT_WORDS).
WHAT_WORDS = {
    "pena_name": "the peña's name",
    "a_person_name": "a person's name",
    "a_nickname": "a nickname",
    "person_name": "the person's name",
    "nickname": "the nickname",
}


def _clean(text: object, what: str, *, required: bool = True) -> str | None:
    if text is None or (isinstance(text, str) and not text.strip()):
        if required:
            raise Invalid(f"{WHAT_WORDS[what]} is missing", code="name_missing", what=what)
        return None
    if not isinstance(text, str):
        raise Invalid(f"{WHAT_WORDS[what]} must be text", code="text_not_a_string", what=what)
    value = " ".join(text.split())
    problem = limits.text_problem(value, NAME_MAX)  # the table's limits: length, printable text only
    if problem is not None:
        error = limits.LimitError(problem[0], what=WHAT_WORDS[what], **problem[1])
        raise Invalid(error.reason, code=problem[0], what=what, **problem[1])
    return value


def fold(text: str) -> str:
    """A name for matching: no case, no accents, single spaces."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(plain.casefold().split())


# ------------------------------------------------------------------ peñas


def create_pena(name: object, people: Iterable[tuple[object, object]] = ()) -> Pena:
    """A new peña with its roster; Invalid (nothing saved) for a missing name or a repeated person."""
    title = _clean(name, "pena_name")
    pena = Pena(
        edit_token=secrets.token_urlsafe(TOKEN_BYTES),
        view_token=secrets.token_urlsafe(TOKEN_BYTES),
        name=title or "",
        created_at=utcnow(),
    )
    seen: set[str] = set()
    for person_name, nickname in people:
        clean = _clean(person_name, "a_person_name")
        assert clean is not None
        if fold(clean) in seen:
            raise Invalid(f"{clean} is twice in the roster", code="name_twice", name=clean)
        seen.add(fold(clean))
        pena.people.append(
            Person(name=clean, nickname=_clean(nickname, "a_nickname", required=False), created_at=utcnow())
        )
    db.session.add(pena)
    db.session.commit()
    return pena


def season_dates(first: str | None, last: str | None) -> tuple[dt.date | None, dt.date | None, list[int]]:
    """A season's first and last day from their ISO texts (empty: open at that end), and which of the
    two (0, 1) are not dates (that end left open): the page and the API each say so in their words."""
    found: list[dt.date | None] = []
    wrong: list[int] = []
    for i, text in enumerate((first, last)):
        try:
            found.append(dt.date.fromisoformat(text) if text else None)
        except ValueError:
            found.append(None)
            wrong.append(i)
    return found[0], found[1], wrong


def open_pena(token: str) -> tuple[Pena, bool]:
    """The peña of a token and whether the token may change it; NotFound otherwise."""
    return open_linked(Pena, token, "unknown peña: check the link")


def require_edit(token: str) -> Pena:
    pena, can_edit = open_pena(token)
    if not can_edit:
        raise Forbidden("this is the peña's view link: it cannot change the peña", code="pena_view_link")
    return pena


def person_of(pena: Pena, person_id: object) -> Person:
    person = next((p for p in pena.people if p.id == person_id), None)
    if person is None:
        raise NotFound(f"no person {person_id} in this peña", code="pena_not_found")
    return person


def _unique(pena: Pena, name: str, keep: Person | None = None) -> None:
    """Invalid when another person of the roster has this name (case and accents aside)."""
    for other in pena.people:
        if other is not keep and fold(other.name) == fold(name):
            raise Invalid(f"{name} is already in the roster", code="already_in_roster", name=name)


def add_person(pena: Pena, name: object, nickname: object = None) -> Person:
    clean = _clean(name, "person_name")
    assert clean is not None
    nick = _clean(nickname, "nickname", required=False)
    _unique(pena, clean)
    person = Person(name=clean, nickname=nick, created_at=utcnow())
    pena.people.append(person)
    db.session.commit()
    return person


def rename_person(pena: Pena, person_id: int, name: object, nickname: object = None) -> Person:
    """A new name or nickname; the tables keep pointing at the same person."""
    person = person_of(pena, person_id)
    clean = _clean(name, "person_name")
    assert clean is not None
    _unique(pena, clean, keep=person)
    person.name = clean
    person.nickname = _clean(nickname, "nickname", required=False)
    db.session.commit()
    return person


def label(person: Person) -> str:
    return f"{person.name} ({person.nickname})" if person.nickname else person.name


# ---------------------------------------------------------- name matching


@dataclass(frozen=True, slots=True)
class Match:
    """A name of a table and the person it is: ``person`` when sure, ``candidates`` when unsure."""

    name: str
    person: Person | None
    candidates: list[Person]

    @property
    def sure(self) -> bool:
        return self.person is not None


def _alike(person: Person, key: str, first: str) -> bool:
    """Whether a person of the roster is like the folded name ``key`` (whose first word is ``first``)."""
    name = fold(person.name)
    nickname = fold(person.nickname) if person.nickname else ""
    return name.split(" ")[0] == first or name.startswith(key) or key.startswith(name) or nickname.startswith(key)


def match_name(pena: Pena, name: str) -> Match:
    """Sure when the name (or nickname) is one person's, accents and case aside; unsure when it is only alike."""
    key = fold(name)
    exact = [p for p in pena.people if key in (fold(p.name), fold(p.nickname) if p.nickname else None)]
    if len(exact) == 1:
        return Match(name, exact[0], [])
    if exact:
        return Match(name, None, exact)
    first = key.split(" ")[0] if key else ""
    return Match(name, None, [p for p in pena.people if first and _alike(p, key, first)])


def matches(pena: Pena, table: Table) -> list[Match]:
    """Every name that sat at the table, matched against the roster (an existing link wins)."""
    link = link_of(table)
    session = read(table).session_copy()
    result = []
    for name in names_that_sat(session):
        linked = link.names.get(name) if link is not None and link.pena_id == pena.id else None
        if linked is not None:
            result.append(Match(name, person_of(pena, linked), []))
        else:
            result.append(match_name(pena, name))
    return result


# ------------------------------------------------------------------ tables


def link_of(table: Table) -> PenaTable | None:
    return db.session.scalars(select(PenaTable).where(PenaTable.table_id == table.id)).first()


def _unchosen(pena: Pena, name: str, linked: int | None) -> Person | None:
    """A name with no choice: its earlier person, else the one it surely matches, else a new one."""
    if linked is not None:
        return person_of(pena, linked)
    found = match_name(pena, name)
    if found.sure:
        return found.person
    if found.candidates:
        who = ", ".join(p.name for p in found.candidates)
        raise Invalid(f"{name}: say which person it is ({who}) or a new one", code="which_person", name=name, who=who)
    return None


def _chosen(pena: Pena, name: str, choice: object) -> Person | None:
    """A name with a choice: a new person (``"nueva"``: None), or the person of that id."""
    if choice == NEW:
        if any(fold(p.name) == fold(name) for p in pena.people):
            raise Invalid(
                f"{name} is already in the roster: choose that person", code="already_in_roster_choose", name=name
            )
        return None
    try:
        return person_of(pena, int(str(choice)))
    except (ValueError, NotFound):
        raise Invalid(f"{name}: no person {choice!r} in this peña", code="no_such_person", name=name) from None


def _choose(pena: Pena, name: str, choice: object, linked: int | None) -> Person | None:
    """The person a name of a table is; None for a new person. Invalid when it is unsure."""
    if choice is None or choice == "":
        return _unchosen(pena, name, linked)
    return _chosen(pena, name, choice)


def attach(pena: Pena, table: Table, choices: Mapping[str, object] | None = None) -> PenaTable:
    """Make the table an evening of the peña (again: its names are matched anew); nothing saved on Invalid.

    ``choices`` maps names of the table to a person id or ``"nueva"`` (a new person of that
    name); names not in it keep their earlier person or are matched by :func:`match_name`: a
    name that is not sure is refused (Invalid names it) unless it matches nobody at all, when
    it becomes a new person.
    """
    existing = link_of(table)
    if existing is not None and existing.pena_id != pena.id:
        raise Invalid("this table already belongs to another peña", code="table_in_other_pena")
    session = read(table).session_copy()
    chosen = _people_of(pena, names_that_sat(session), dict(choices or {}), existing)
    try:
        link = _link(pena, table, existing, chosen, [str(n) for n in session.get("players") or []])
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return link


def _people_of(
    pena: Pena, sat: Iterable[str], choices: Mapping[str, object], existing: PenaTable | None
) -> dict[str, Person | None]:
    """Each name that sat → its person (None: a new one); Invalid when two names are one person."""
    linked = existing.names if existing is not None else {}
    chosen = {name: _choose(pena, name, choices.get(name), linked.get(name)) for name in sat}
    known = [p.id for p in chosen.values() if p is not None]
    new_keys = [fold(n) for n, p in chosen.items() if p is None]
    if len(set(known)) < len(known) or len(set(new_keys)) < len(new_keys):
        raise Invalid("two names of the table are the same person", code="same_person_twice")
    return chosen


def _link(
    pena: Pena, table: Table, existing: PenaTable | None, chosen: Mapping[str, Person | None], players: Sequence[str]
) -> PenaTable:
    """The table's link to the peña with its names and seats, the new people added to the roster."""
    people: dict[str, Person] = {}
    for name, person in chosen.items():
        if person is None:
            person = Person(name=" ".join(name.split())[:NAME_MAX], nickname=None, created_at=utcnow())
            pena.people.append(person)
        people[name] = person
    db.session.flush()
    names = {name: person.id for name, person in people.items()}
    link = existing or PenaTable(pena_id=pena.id, table_id=table.id, attached_at=utcnow())
    link.names = names
    link.seats = {str(i): names[n] for i, n in enumerate(players, 1)}
    if existing is None:
        db.session.add(link)
    return link


def attach_checked(pena: Pena, table: Table, choices: Mapping[str, object] | None = None) -> PenaTable:
    """:func:`attach` (kept for the callers' readability: nothing is saved when it refuses)."""
    return attach(pena, table, choices)


def detach(pena: Pena, table: Table) -> None:
    link = link_of(table)
    if link is None or link.pena_id != pena.id:
        raise NotFound("this table is not an evening of this peña")
    db.session.delete(link)
    db.session.commit()


def tables_of(pena: Pena) -> list[tuple[PenaTable, Table]]:
    query = select(PenaTable, Table).join(Table, Table.id == PenaTable.table_id).where(PenaTable.pena_id == pena.id)
    return [(link, table) for link, table in db.session.execute(query)]


def evening_date(table: Table) -> str:
    date = table.header.get("date")
    if isinstance(date, str) and date:
        return date[:10]
    return table.created_at.date().isoformat()


def _documents(table: Table) -> tuple[dict[str, Any], dict[str, Any]]:
    """The session file and the ledger of a table; the same objects while its revision stays (do not change them)."""
    key = (table.edit_token, table.revision)
    found = cache.documents.get(key)
    if found is None:
        found = (read(table).session_copy(), read(table).ledger_copy())
        if unchanged(table):  # a write in between: the documents may be of a later revision
            cache.documents.put(key, found)
    return found


def evenings(pena: Pena, start: dt.date | None = None, end: dt.date | None = None) -> list[Evening]:
    """The peña's evenings, oldest first, each with its session, ledger and name → person."""
    from scorer.pena.stats import in_season

    result = []
    for link, table in tables_of(pena):
        session, ledger = _documents(table)
        people: dict[str, int] = {str(k): int(v) for k, v in link.names.items()}
        sat = tuple(names_that_sat(session))
        for name in sat:  # R33 newcomers entered after the attach
            if name not in people:
                found = match_name(pena, name)
                if found.person is not None:
                    people[name] = found.person.id
        evening = Evening(
            key=table.id,
            name=table.name,
            date=evening_date(table),
            session=session,
            ledger=ledger,
            people=people,
            value=words.tanto_value(table.header.get("tanto_value")),
            currency=words.currency_sign(table.header.get("currency")),
            closed=table.closed,
            sat=sat,
        )
        if in_season(evening, start, end):
            result.append(evening)
    result.sort(key=lambda e: (e.date, int(str(e.key))))
    return result


def table_by_token(token: str) -> Table:
    """The table of a link or a token (edit or view)."""
    token = token.strip().rstrip("/").rsplit("/", 1)[-1]
    table, _ = open_table(token)
    return table


def people_json(people: Sequence[Person]) -> list[dict[str, Any]]:
    return [{"id": p.id, "name": p.name, "nickname": p.nickname} for p in people]


def pena_of_table(table: Table) -> Pena | None:
    """The peña a table belongs to, if any (for a link back from the table's page)."""
    link = link_of(table)
    return None if link is None else db.session.get(Pena, link.pena_id)


def roster_for_table(table: Table) -> list[str]:
    """The names of the roster of the table's peña, for the suggestions of a change of player (R33).

    A name picked from here is matched to its person by itself (:func:`evenings`); any other
    name is asked on the peña's page.
    """
    pena = pena_of_table(table)
    return [] if pena is None else sorted((p.name for p in pena.people), key=fold)
