"""The hand form of the table's pages: its page, a form made for an earlier state of the table
refused, the engine's refusals next to their fields, the live payments as the keeper taps."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, render_template, url_for
from flask_babel import gettext as _

from scorer import store
from scorer.games import game_of, tresillo_views
from scorer.games.fields import HandFormBase
from scorer.games.views import names_at
from scorer.web.common import messages
from scorer.web.common.forms import read_hand
from scorer.web.common.pages import Page
from scorer.web.tables import present as table_present

# the fields whose messages the live preview reports, in the order the form shows them
LIVE_FIELDS = ("jugador", "trump", "lance", "tricks", "estuches", "contraestuches", "primeras", "bola", "rendida",
               "defensor", "matadores", "matadores_en", "capote", "faltas", "general")  # fmt: skip


def hand_page(table: Any, token: str, form: HandFormBase, n: int | None, preview: Any, status: int) -> tuple[str, int]:
    """The game's hand form page (new hand when ``n`` is None, else the correction of hand ``n``)."""
    game = game_of(table.ruleset)
    page = render_template(game.hand_template, table=table, token=token, form=form, n=n, preview=preview, game=game)
    return page, status


def preselect(form: HandFormBase, jugador: str | None) -> None:
    """``?jugador=2`` from the table page's name buttons: the Jugador is already chosen (one tap saved)."""
    field = getattr(form, "jugador", None)
    if field is not None and jugador and jugador.isdigit() and int(jugador) in form.seats:
        field.data = jugador


def _stale_words(form: HandFormBase, table: Any, n: int) -> str | None:
    """Why a form made for another deal or another revision of the table is refused; None when it fits."""
    deal, revision = (form.deal.data or "").strip(), (form.table_revision.data or "").strip()
    if deal and deal != str(n):
        return _(
            "Este formulario era para la mano %(deal)s, pero la partida ya va por la mano %(n)s"
            " (quizá volviste atrás después de guardar): no se ha guardado nada."
            " Vuelve a la mesa y anota la mano desde allí.",
            deal=deal,
            n=n,
        )
    if revision and revision != str(table.revision):
        return _(
            "La partida ha cambiado desde que abriste este formulario de la mano %(n)s: no se ha guardado nada,"
            " para no anotar una mano con datos viejos. Vuelve a la mesa y anota la mano desde allí.",
            n=n,
        )
    return None


def stale_form(table: Any, token: str, form: HandFormBase, n: int) -> Page | None:
    """A hand form opened for an earlier state of the table (Back after Guardar, another phone wrote
    meanwhile) is refused with an explanation and a way back: nothing is saved. A form without the
    hidden fields (an API-like client) is judged on its content alone."""
    message = _stale_words(form, table, n)
    if message is None:
        return None
    page = render_template(
        "error.html",
        message=message,
        status=409,
        back=url_for("tables.table", token=token),
        back_label=_("Volver a la mesa"),
        title=_("Formulario caducado"),
    )
    return page, 409


def refusal_words(exc: store.Invalid, n: int) -> tuple[str, str]:
    """An engine refusal as (field, Spanish message); a later hand it breaks is named in general."""
    field, message = messages.explain(exc)
    if exc.hand is not None and exc.hand != n:
        return "general", _(
            "Con este cambio la mano %(n)s dejaría de ser posible: %(reason)s", n=exc.hand, reason=message
        )
    return field, message


def attach(form: HandFormBase, exc: store.Invalid, n: int) -> None:
    """An engine refusal as a Spanish message next to the field it concerns."""
    form.problem(*refusal_words(exc, n))


def hand_preview(
    table: Any,
    session: dict[str, Any],
    ledger: dict[str, Any],
    entry: dict[str, Any],
    n: int,
    hand: dict[str, Any] | None = None,
) -> Any:
    """What the hand does, in words: the game's own preview (Tresillo: the plato) or the pots or teams."""
    game = game_of(table.ruleset)
    if game.preview is not None:
        return game.preview(session, ledger, entry, n)
    entries = ledger.get("hands", [])
    previous = entries[n - 2] if 2 <= n <= len(entries) + 1 else None
    return table_present.game_preview(session, hand or {}, entry, previous)


def summary_of(preview: Any) -> str:
    """The one-line summary of a hand's preview (Tresillo's is a dict, the other games' a GamePreview)."""
    return str(preview["summary"] if isinstance(preview, dict) else preview.summary)


def _gaps(form: HandFormBase) -> tuple[list[str], dict[str, list[str]]]:
    """The form's messages: what is still missing (a form being filled in) and what is wrong, per field."""
    problems: dict[str, list[str]] = {}
    missing: list[str] = []
    for name in LIVE_FIELDS:  # a field not filled in yet is a form still being filled in, not a mistake
        gaps = form.missing(name)
        for message in form.messages(name):
            (missing if message in gaps else problems.setdefault(name, [])).append(message)
    if getattr(getattr(form, "csrf_token", None), "errors", None):
        problems["general"] = [_("El formulario ha caducado: vuelve a cargar la página.")]
    return missing, problems


def _after_words(preview: Any) -> tuple[str, str, Any]:
    """The preview's (after, summary, transfers): Tresillo's plato after the hand, or the game's state."""
    if isinstance(preview, dict):
        after = _("Después: plato %(amount)s, %(words)s.", amount=preview["plato"].amount, words=preview["plato"].words)
        return after, preview["summary"], preview["transfers"]
    return _("Después: %(after)s.", after=preview.after), preview.summary, preview.transfers


def live_problem(message: str) -> Response:
    """The live preview's answer when the whole form is refused (a closed table, a stale form)."""
    return jsonify(ok=False, missing=[], problems={"general": [message]})


def live_json(
    table: Any, form: HandFormBase, n: int, entry_of: Any, session: dict[str, Any], ledger: dict[str, Any]
) -> Response:
    """What the hand form shows as the keeper taps: the engine's payments, or what is missing or wrong."""
    hand = read_hand(form) if form.validate() else None
    missing, problems = _gaps(form)
    if hand is None or problems:
        return jsonify(ok=False, missing=missing, problems=problems)
    try:
        entry = entry_of(hand)
    except store.Invalid as exc:
        field, message = refusal_words(exc, n)
        return jsonify(ok=False, missing=[], problems={field: [message]})
    after, summary, transfers = _after_words(hand_preview(table, session, ledger, entry, n, hand))
    seated = names_at(session, ledger, n) if game_of(table.ruleset).evening else table.players
    return jsonify(
        ok=True,
        summary=summary,
        after=after,
        result=tresillo_views.result_phrase(hand, entry, seated),
        transfers=[
            {"source": t.source, "target": t.target, "amount": t.amount, "concept": t.concept, "detail": t.detail}
            for t in transfers
        ],
    )
