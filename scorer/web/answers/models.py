"""Stored answers: input data, like the hands (migration 0007_answers).

An answer belongs to one *version* of a hand: the id of the hand's latest history event
(create, edit, delete, restore) when it was given. Editing, deleting or restoring a hand
writes a new event, so the answers given before stop being current without being touched:
the history keeps every one of them. Answering again adds a row; the latest row of a
person for the current version is his answer.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from scorer.web.extensions import db
from scorer.web.models import utcnow


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
