"""View-models of the answers: the marks per hand, the disagreements, who I am, and the sum that squares (R31)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer import store, words
from scorer.store import answers as service
from scorer.store.answers import Given
from scorer.store.models import Table

VERSIONS_AROUND = 60  # the hand list shows 50 hands a page, the table page the last 8


@dataclass(frozen=True, slots=True)
class Mark:
    """One hand as the answers leave it: ✓ ``agreed`` of ``seated``, the disagreements, my answer."""

    n: int
    version: int
    seated: tuple[str, ...]
    answers: tuple[Given, ...]
    me: str | None
    can_answer: bool  # the page may offer me the two answers for this hand
    earlier: Given | None  # my answer to what the hand was before it changed

    @property
    def agreed(self) -> int:
        return sum(1 for a in self.answers if a.agrees)

    @property
    def disputes(self) -> tuple[Given, ...]:
        return tuple(a for a in self.answers if not a.agrees)

    @property
    def mine(self) -> Given | None:
        return next((a for a in self.answers if a.person == self.me), None)

    @property
    def status(self) -> str:
        """``disputed``, ``agreed`` (everyone seated), ``partly`` (some, no one against) or ``open``."""
        if self.disputes:
            return "disputed"
        if not self.answers:
            return "open"
        return "agreed" if set(self.seated) <= {a.person for a in self.answers} else "partly"


@dataclass
class Page:
    """What a table page, the hand list or a hand page shows of the answers, built once per request."""

    table: Table
    token: str
    is_editor: bool
    me: str | None
    people: tuple[str, ...]  # who may say "I am …": everyone who sat at the table
    stamp: int
    by_number: dict[int, list[Given]]
    seatings: Sequence[Mapping[int, str]]
    versions: Callable[[int], int]
    _marks: dict[int, Mark] = field(default_factory=dict)

    @property
    def can_answer(self) -> bool:
        """The watchers' page of an open table, once the phone said who it is."""
        return not self.is_editor and not self.table.closed and self.me is not None

    @property
    def asks_who(self) -> bool:
        return not self.is_editor and not self.table.closed

    def seated(self, n: int) -> tuple[str, ...]:
        if not 1 <= n <= len(self.seatings) - 1:
            return ()
        seating = self.seatings[n - 1]
        return tuple(seating[s] for s in sorted(seating))

    def mark(self, n: int) -> Mark:
        """Hand ``n`` as the answers leave it, built once per page."""
        if n not in self._marks:
            self._marks[n] = self._new_mark(n)
        return self._marks[n]

    def _new_mark(self, n: int) -> Mark:
        seated = self.seated(n)
        answers = tuple(sorted(self.by_number.get(n, []), key=lambda a: _seat_order(a.person, seated)))
        if not (self.can_answer and self.me in seated):
            return Mark(n, 0, seated, answers, self.me, False, None)
        version = self.versions(n)
        mine = any(a.person == self.me for a in answers)
        return Mark(n, version, seated, answers, self.me, True, None if mine else self.mine_before(n, version))

    def latest(self, lines: Sequence[Any]) -> Any | None:
        """Of a page's hand lines (each with its ``n``), the latest one I may answer: offered on the first screen."""
        answerable = [line for line in lines if self.mark(line.n).can_answer]
        return max(answerable, key=lambda line: line.n) if answerable else None

    @functools.cached_property
    def _my_answers(self) -> dict[int, Given]:
        """Hand id → my latest answer to any version of it (one query for the whole page)."""
        return service.latest_of(self.table, self.me) if self.me is not None else {}

    def mine_before(self, n: int, version: int) -> Given | None:
        """My answer to what hand ``n`` was before it changed, when I have none to what it is now."""
        ids = service.live_ids(self.table)
        given = self._my_answers.get(ids[n - 1]) if 1 <= n <= len(ids) else None
        return given if given is not None and given.version != version else None

    def earlier(self, n: int) -> list[Given]:
        """The answers hand ``n`` had before it last changed (edited, deleted, restored): the history keeps them."""
        ids = service.live_ids(self.table)
        if not 1 <= n <= len(ids):
            return []
        now = self.versions(n)
        return [a for a in service.history(self.table, ids[n - 1]) if a.version != now]

    def when(self, given: Given) -> str:
        """When an answer was given, in the table's time zone if it has one."""
        return words.time_text(given.at, self.table.meta.get("timezone"))

    @property
    def disputes(self) -> list[tuple[int, Given]]:
        """Every disagreement standing, hand by hand: until the hand is changed or the answer is."""
        return [(n, a) for n in sorted(self.by_number) for a in self.by_number[n] if not a.agrees]


def _seat_order(person: str, seated: Sequence[str]) -> int:
    return seated.index(person) if person in seated else len(seated)


def page(table: Table, token: str, me: str | None) -> Page:
    """The answers' view-model of one page of ``table`` seen with ``token``; ``me`` from the phone's cookie."""
    is_editor = token == table.edit_token
    # once per revision; R33: those seated now first, then whoever left (he may still answer the hands he played)
    seatings, people = store.read(table).derived("answer_seatings", service.seats_and_people)
    if me is not None and me not in people:
        me = None  # a name this table never had (an old cookie): ask again
    answers_stamp = service.stamp(table)
    by_number = service.by_number(table, answers_stamp)
    known: dict[int, int] = {}

    def versions(n: int) -> int:
        """The version of hand ``n``; those of its neighbours too, in one query (a page shows hands in a row)."""
        if n not in known:
            ids = service.live_ids(table)
            numbers = range(max(1, n - VERSIONS_AROUND), min(len(ids), n + VERSIONS_AROUND) + 1)
            found = service.versions_of([ids[m - 1] for m in numbers])
            known.update((m, found[ids[m - 1]]) for m in numbers)
        return known[n]

    return Page(table, token, is_editor, me, people, answers_stamp, by_number, seatings, versions)
