"""One door to the stored tables: the models, the refusals, the reads and the writes of every table.

The web app's blueprints and the API parse their input, call one function here and present the
answer: ``from scorer import store``, then ``store.add_hand(table, hand)``, ``store.read(table).ledger``.
The peñas, the answers and the backup are submodules (``store.penas``, ``store.answers``,
``store.backup``). Nothing here imports the web app.

- :mod:`.db`, :mod:`.models`: the SQLAlchemy ``db`` and the stored rows (the input only: hands and history).
- :mod:`.errors`: what a request cannot be served for (``NotFound``, ``Invalid`` …), as data.
- :mod:`.links`: a table or peña by its link, and whether it may still change.
- :mod:`.state`: the reads of one table (its settled state per revision; reads never write).
- :mod:`.writes`, :mod:`.hands`: every write is one transaction under the table's write lock.
- :mod:`.settled`, :mod:`.cache`: the settled state per revision, its persisted snapshots, and
  every cache of the process with one ``forget()``.
"""

from __future__ import annotations

from scorer.store import answers, backup, cache, penas, settled  # the submodules the web uses
from scorer.store.cache import forget, page_cache
from scorer.store.db import db
from scorer.store.errors import Conflict, Forbidden, Invalid, Moved, NotFound, ServiceError, Unprocessable
from scorer.store.evenings import CLOSE_HOWS, closing_previews, set_ending
from scorer.store.exports import (
    HistoryEvent,
    TableSummary,
    export_session,
    hand_history,
    import_session,
    list_tables,
    set_language,
    table_history,
)
from scorer.store.hands import (
    MAX_REQUEST_ID_LENGTH,
    add_hand,
    close_table,
    delete_hand,
    hand_for_request,
    preview_hand,
    preview_replace,
    replace_hand,
    replay_request,
    restore_hand,
)
from scorer.store.links import (
    MAX_TOKEN_LENGTH,
    TOKEN_BYTES,
    check_open,
    new_token,
    open_linked,
    open_table,
    require_edit,
    revision_is,
    token_shaped,
    unchanged,
)
from scorer.store.settled import JsonBody
from scorer.store.state import (
    NOT_HANDS,
    DeletedHand,
    TableState,
    deleted_hands,
    hand_revision,
    live_at,
    read,
)
from scorer.store.writes import WRITE_ATTEMPTS, create_table, same_hands, write

__all__ = [
    "CLOSE_HOWS",
    "MAX_REQUEST_ID_LENGTH",
    "MAX_TOKEN_LENGTH",
    "NOT_HANDS",
    "TOKEN_BYTES",
    "WRITE_ATTEMPTS",
    "Conflict",
    "DeletedHand",
    "Forbidden",
    "HistoryEvent",
    "Invalid",
    "JsonBody",
    "Moved",
    "NotFound",
    "ServiceError",
    "TableState",
    "TableSummary",
    "Unprocessable",
    "add_hand",
    "answers",
    "backup",
    "cache",
    "check_open",
    "close_table",
    "closing_previews",
    "create_table",
    "db",
    "delete_hand",
    "deleted_hands",
    "export_session",
    "forget",
    "hand_for_request",
    "hand_history",
    "hand_revision",
    "import_session",
    "list_tables",
    "live_at",
    "new_token",
    "open_linked",
    "open_table",
    "page_cache",
    "penas",
    "preview_hand",
    "preview_replace",
    "read",
    "replace_hand",
    "replay_request",
    "require_edit",
    "restore_hand",
    "revision_is",
    "same_hands",
    "set_ending",
    "set_language",
    "settled",
    "table_history",
    "token_shaped",
    "unchanged",
    "write",
]
