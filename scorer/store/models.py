"""Stored data: the input of each table only (players, rules, hands with their dealer, history).

Balances, plato and cartulina are never stored; the engine derives them (see scorer.store).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorer.store.db import db

HEADER_KEYS = ("format", "players", "rules", "first_dealer")


def utcnow() -> dt.datetime:
    """Now in UTC, naive (every stored time is UTC)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


class Table(db.Model):  # type: ignore[name-defined,misc]
    """A table (partida): the session file without its hands, and two tokens."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    # the session file minus "hands", in its own key order (app keys kept)
    header: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    closed_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # the keeper said the evening is ending: play on until the plato is won, then close (R30)
    ending_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    # bumped by every write: serializes writers and keys the settlement cache
    revision: Mapped[int] = mapped_column(Integer, default=0)
    # the language its sheet (PDF and HTML) prints in, whoever looks at it: the app key "language" of
    # the session file; kept here, not in ``header``, so that the keeper can change it
    language: Mapped[str] = mapped_column(String(8), default="es", server_default="es")

    hands: Mapped[list[Hand]] = relationship(
        back_populates="table", order_by="Hand.seq", cascade="all, delete-orphan", passive_deletes=True
    )

    @property
    def players(self) -> list[str]:
        return list(self.header.get("players") or [])

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.header.get("rules") or {})

    @property
    def ruleset(self) -> str:
        return str(self.rules.get("ruleset", "tresillo"))

    @property
    def first_dealer(self) -> int:
        return int(self.header.get("first_dealer") or 1)

    @property
    def meta(self) -> dict[str, Any]:
        """The app keys of the session file (name, date, place, notes, tanto_value …)."""
        return {k: v for k, v in self.header.items() if k not in HEADER_KEYS}

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    @property
    def ending(self) -> bool:
        return self.ending_at is not None and self.closed_at is None

    def __repr__(self) -> str:
        return f"<Table {self.id} {self.name!r}>"


class Hand(db.Model):  # type: ignore[name-defined,misc]
    """One entry of the session's hands; ``seq`` orders them, deleted ones stay for restore."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("table_id", "seq", name="uq_hands_table_seq"),
        UniqueConstraint("table_id", "request_id", name="uq_hands_table_request"),
        # a table's live hands in order, and its deleted ones, without reading the others (0005_perf)
        Index("ix_hands_table_deleted_seq", "table_id", "deleted_at", "seq"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    request_id: Mapped[str | None] = mapped_column(String(100), nullable=True)
    # sha256 of the body sent with request_id: the same key with another body is refused (422)
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    deleted_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)

    table: Mapped[Table] = relationship(back_populates="hands")

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None


class HandEvent(db.Model):  # type: ignore[name-defined,misc]
    """Append-only history: create, edit, delete, restore of a hand (before/after as stored)."""

    __tablename__ = "hand_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


# ------------------------------------------------------------------ peñas


class Pena(db.Model):  # type: ignore[name-defined,misc]
    """A peña: the same people evening after evening; its own edit and view tokens, like a table."""

    __tablename__ = "penas"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_token: Mapped[str] = mapped_column(String(64), unique=True)
    view_token: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)

    people: Mapped[list[Person]] = relationship(
        back_populates="pena", order_by="Person.id", cascade="all, delete-orphan", passive_deletes=True
    )
    links: Mapped[list[PenaTable]] = relationship(
        back_populates="pena", order_by="PenaTable.id", cascade="all, delete-orphan", passive_deletes=True
    )


class Person(db.Model):  # type: ignore[name-defined,misc]
    """One person of a peña's roster; tables point at the id, so a rename keeps the history."""

    __tablename__ = "pena_people"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pena_id: Mapped[int] = mapped_column(ForeignKey("penas.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    nickname: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)

    pena: Mapped[Pena] = relationship(back_populates="people")


class PenaTable(db.Model):  # type: ignore[name-defined,misc]
    """A table (an evening) that belongs to a peña: which person each name of the table is.

    ``names`` maps every name that sat at the table (the players and those who sat down
    later, R33) to a person id; ``seats`` is the seat → person id of the players at the start.
    """

    __tablename__ = "pena_tables"
    __table_args__ = (UniqueConstraint("table_id", name="uq_pena_tables_table"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pena_id: Mapped[int] = mapped_column(ForeignKey("penas.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    names: Mapped[dict[str, Any]] = mapped_column(JSON)
    attached_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)

    pena: Mapped[Pena] = relationship(back_populates="links")
    table: Mapped[Table] = relationship()


class Snapshot(db.Model):  # type: ignore[name-defined,misc]
    """Derived data: the engine's settlement of a table's first ``count`` live hands, as JSON.

    Written after writes so that a freshly started worker opens a long table without
    settling it again (scorer/web/settled.py). Never trusted over the hands: used only
    when ``digest`` (of the (id, revision) of the hands it settled) matches the live
    hands and ``checksum`` matches ``data``; otherwise ignored and rebuilt.
    """

    __tablename__ = "snapshots"
    __table_args__ = (UniqueConstraint("table_id", "count", name="uq_snapshots_table_count"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    count: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)  # the table's revision when it was made
    digest: Mapped[str] = mapped_column(String(64))
    checksum: Mapped[str] = mapped_column(String(64))
    data: Mapped[str] = mapped_column(Text)  # {"engine": snapshot, "entries": [...], "hands": [...]}
    created_at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)


# ------------------------------------------------------------------ answers
# Stored answers: input data, like the hands (migration 0007_answers).
#
# An answer belongs to one *version* of a hand: the id of the hand's latest history event
# (create, edit, delete, restore) when it was given. Editing, deleting or restoring a hand
# writes a new event, so the answers given before stop being current without being touched:
# the history keeps every one of them. Answering again adds a row; the latest row of a
# person for the current version is his answer.


class Answer(db.Model):  # type: ignore[name-defined,misc]
    """One person's word on one version of a hand: agrees, or not and why."""

    __tablename__ = "answers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    # the id of the hand's latest HandEvent when answered (0 if it had none): the version answered
    version: Mapped[int] = mapped_column(Integer)
    hand_revision: Mapped[int] = mapped_column(Integer)  # the hand's revision then (the API's ETag)
    hand: Mapped[dict[str, Any]] = mapped_column(JSON)  # the hand as it was answered
    person: Mapped[str] = mapped_column(String(80))
    agrees: Mapped[bool] = mapped_column(Boolean)
    note: Mapped[str] = mapped_column(String(400), default="")
    at: Mapped[dt.datetime] = mapped_column(DateTime, default=utcnow)
