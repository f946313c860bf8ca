"""A table's hand table as a CSV file, in the table's language (the cells are the games': scorer.games.exports)."""

from __future__ import annotations

from flask_babel import force_locale

from scorer import store
from scorer.catalogs import language_or_default
from scorer.games.exports import hands_csv, with_rules
from scorer.store.models import Table


def export_csv(table: Table) -> str:
    """The hand table as CSV, every cell escaped against formula injection."""
    session = store.read(table).session_copy()
    with force_locale(language_or_default(table.language)):  # the table's language, as its sheet
        text = hands_csv(table.players, session["hands"], store.read(table).settlement.ledger(), session)
        return with_rules(text, session)
