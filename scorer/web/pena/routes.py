"""The peña's pages (blueprint ``pena``): standings, evenings, roster, a person's statistics, attach, season PDF.

The peña has its own edit link (``/p/<edit token>``) and view link (``/p/<view token>``): only the
edit link changes the roster or the evenings. A table of the peña is linked with the same kind of
token the peña's link is (the view link of the peña never reveals a table's edit link).
"""

from __future__ import annotations

import datetime as dt
import uuid

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask import session as browser
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorer import store
from scorer.pena import stats
from scorer.store import penas as ps
from scorer.store.models import Pena, Table
from scorer.web.common import messages
from scorer.web.common.forms import ImportForm
from scorer.web.common.pages import Page, refusals_as_pages
from scorer.web.common.remember import import_text, keep_first, kept_tokens
from scorer.web.pena.forms import (
    AttachForm,
    ConfirmForm,
    NewPenaForm,
    PersonForm,
    PickForm,
    SeasonForm,
    posted_seats,
    read_pick,
)
from scorer.web.pena.present import confirm_rows, ledger_context, person_chart, person_nights, stats_context

bp = Blueprint("pena", __name__)


def _refusal(exc: store.ServiceError) -> str:
    """A refusal of the peña's pages in Spanish, from its code (scorer.web.common.messages)."""
    if isinstance(exc, store.NotFound):
        return messages.render("pena_not_found")
    if isinstance(exc, store.Forbidden):
        return messages.render("pena_view_link")
    return messages.message(exc)


refusals_as_pages(bp, _refusal)


# ---------------------------------------------------------------- helpers


def _season() -> tuple[dt.date | None, dt.date | None, str | None]:
    """The date range of the query string (``desde``, ``hasta``, ISO dates) and a complaint if one is wrong."""
    texts = [(request.args.get(key) or "").strip() for key in ("desde", "hasta")]
    start, end, wrong = ps.season_dates(texts[0], texts[1])
    if not wrong:
        return start, end, None
    return start, end, _("La fecha «%(text)s» no es válida: usa el calendario (aaaa-mm-dd).", text=texts[wrong[-1]])


def _links(pena: Pena, can_edit: bool) -> dict[str, str] | None:
    if not can_edit:
        return None
    return {
        "edit": url_for("pena.page", token=pena.edit_token, _external=True),
        "view": url_for("pena.page", token=pena.view_token, _external=True),
    }


def _season_args() -> dict[str, str]:
    return {k: v for k in ("desde", "hasta") if (v := (request.args.get(k) or "").strip())}


REMEMBERED = 20  # edit tokens of peñas kept in the signed cookie
PENAS = "penas"  # their key in it


# -------------------------------------------------------------------- pages


@bp.get("/penas")
def penas() -> str:
    """This browser's peñas (their edit links), and the way to a new one."""
    found = [pena for pena in map(_kept_pena, kept_tokens(PENAS, REMEMBERED)) if pena is not None]
    return render_template("pena/list.html", penas=found)


def _kept_pena(token: str) -> Pena | None:
    """The peña of a kept edit link; None when it is gone or the link no longer edits it."""
    try:
        pena, can_edit = ps.open_pena(token)
    except store.ServiceError:
        return None
    return pena if can_edit else None


@bp.route("/penas/nueva", methods=["GET", "POST"])
def new_pena() -> Page:
    form = NewPenaForm()
    error = None
    if form.validate_on_submit():
        made, error = _create_pena(form)
        if made is not None:
            return made
    elif form.is_submitted():
        error = _("Revisa los campos marcados.")
    status = 400 if form.is_submitted() else 200
    if not form.request_id.data:
        form.request_id.data = uuid.uuid4().hex
    return render_template("pena/new.html", form=form, error=error), status


def _create_pena(form: NewPenaForm) -> tuple[BaseResponse | None, str | None]:
    """The new peña, and its page to go to; or why not. The same form sent twice goes to the first one."""
    made = browser.get("pena_made")
    if isinstance(made, dict) and made.get("id") == form.request_id.data:
        return redirect(url_for("pena.page", token=str(made.get("token")))), None
    try:
        pena = ps.create_pena(form.name.data, form.roster())
    except store.Invalid as exc:
        return None, messages.message(exc)
    keep_first(pena.edit_token, PENAS, REMEMBERED)
    if form.request_id.data:
        browser["pena_made"] = {"id": form.request_id.data[:64], "token": pena.edit_token}
    flash(_("Peña creada. Guarda este enlace: es el que permite cambiarla."))
    return redirect(url_for("pena.page", token=pena.edit_token)), None


@bp.get("/p/<token>")
def page(token: str) -> Page:
    pena, can_edit = ps.open_pena(token)
    if can_edit:
        keep_first(pena.edit_token, PENAS, REMEMBERED)
    start, end, error = _season()
    evenings = ps.evenings(pena, start, end)
    context = ledger_context(pena, evenings, can_edit)
    peña_stats = stats_context(stats.statistics(evenings), context["currency"], whole=True)
    return render_template(
        "pena/page.html",
        pena=pena,
        token=token,
        can_edit=can_edit,
        ledger=context,
        stats=peña_stats,
        season=SeasonForm(request.args),
        season_args=_season_args(),
        season_error=error,
        links=_links(pena, can_edit),
        people=[(p, ps.label(p)) for p in pena.people],
        person_form=PersonForm(formdata=None),
    )


@bp.post("/p/<token>/personas")
def add_person(token: str) -> Page:
    pena = ps.require_edit(token)
    form = PersonForm()
    if form.validate_on_submit():
        try:
            person = ps.add_person(pena, form.name.data, form.nickname.data)
        except store.Invalid as exc:
            flash(messages.message(exc), "error")
        else:
            flash(_("%(name)s está en la peña.", name=person.name))
    else:
        flash(_("No se ha añadido a nadie: revisa el nombre."), "error")
    return redirect(url_for("pena.page", token=token) + "#personas")


@bp.route("/p/<token>/personas/<int:person_id>", methods=["GET", "POST"])
def person(token: str, person_id: int) -> Page:
    pena, can_edit = ps.open_pena(token)
    who = ps.person_of(pena, person_id)
    form = PersonForm(data={"name": who.name, "nickname": who.nickname or ""})
    if request.method == "POST":
        return _rename(token, person_id, form)
    start, end, error = _season()
    evenings = ps.evenings(pena, start, end)
    ledger = stats.lifetime_ledger([e for e in evenings if person_id in e.people.values()])
    return render_template(
        "pena/person.html",
        pena=pena,
        token=token,
        can_edit=can_edit,
        person=who,
        label=ps.label(who),
        stats=stats_context(stats.statistics(evenings, person_id), ledger.currency),
        nights=person_nights(pena, ledger, person_id, can_edit),
        chart=person_chart(pena, ledger, person_id),
        form=form,
        season=SeasonForm(request.args),
        season_args=_season_args(),
        season_error=error,
    )


def _rename(token: str, person_id: int, form: PersonForm) -> BaseResponse:
    """A new name (or nickname) for a person of the roster: the keeper's link only."""
    pena = ps.require_edit(token)
    if form.validate_on_submit():
        try:
            ps.rename_person(pena, person_id, form.name.data, form.nickname.data)
        except store.Invalid as exc:
            flash(messages.message(exc), "error")
        else:
            flash(_("Nombre cambiado: sus noches siguen siendo suyas."))
    return redirect(url_for("pena.person", token=token, person_id=person_id))


@bp.route("/p/<token>/nueva", methods=["GET", "POST"])
def new_table(token: str) -> Page:
    """Pick the players from the roster, seat by seat; then the usual new-table form, filled in."""
    pena = ps.require_edit(token)
    form = PickForm()
    error = None
    seats = posted_seats()
    if form.validate_on_submit():
        names, error = read_pick(pena, seats)
        if error is None:
            return redirect(_new_table_url(pena, form.game.data or "tresillo", names))
    status = 400 if form.is_submitted() else 200
    return render_template(
        "pena/pick.html", pena=pena, token=token, form=form, seats=seats, people=_roster(pena), error=error
    ), status


def _new_table_url(pena: Pena, game: str, names: list[str]) -> str:
    """The usual new-table form, filled in with the game and the players picked, for this peña."""
    args = {"pena": pena.edit_token, "game": game}
    args.update({f"player{i}": n for i, n in enumerate(names, 1)})
    return url_for("tables.new_table", **args)


def _roster(pena: Pena) -> list[tuple[int, str]]:
    """The people of the peña as (id, label), for the choices of the forms."""
    return [(p.id, ps.label(p)) for p in pena.people]


@bp.route("/p/<token>/unir", methods=["GET", "POST"])
def attach(token: str) -> Page:
    """Attach an existing table (its link) or a session file (imported here) to the peña."""
    pena = ps.require_edit(token)
    form = AttachForm(prefix="t")
    upload = ImportForm(prefix="f")
    found, error = _posted_table(form, upload) if request.method == "POST" else (None, None)
    if found is not None:
        return redirect(url_for("pena.confirm", token=token, table=found.edit_token))
    status = 400 if request.method == "POST" else 200
    return render_template("pena/attach.html", pena=pena, token=token, form=form, upload=upload, error=error), status


def _posted_table(form: AttachForm, upload: ImportForm) -> tuple[Table | None, str | None]:
    """The table the keeper gave: by its link (the first form) or by a session file (the second)."""
    if "t-submit" in request.form and form.validate_on_submit():
        return _table_of_link(form.link.data or "")
    if "f-submit" in request.form and upload.validate_on_submit():
        return _imported_table(upload)
    return None, None


def _table_of_link(link: str) -> tuple[Table | None, str | None]:
    """The table of a link pasted (or its code), or why not."""
    try:
        return ps.table_by_token(link), None
    except store.ServiceError:
        return None, _("No encontramos esa partida: pega su enlace completo.")


def _imported_table(upload: ImportForm) -> tuple[Table | None, str | None]:
    """A new table from the session file sent, or why nothing was imported."""
    text = upload.content()
    if text is None:
        return None, None
    table, error = import_text(text)
    if table is not None:
        flash(_("Partida importada. Di quién es cada nombre."))
    return table, error


@bp.route("/p/<token>/unir/<table>", methods=["GET", "POST"])
def confirm(token: str, table: str) -> Page:
    """Each name of the table → a person of the roster, or a new person; the unsure ones are asked."""
    pena = ps.require_edit(token)
    target = store.require_edit(table)  # only the keeper of a table can give it to a peña
    form = ConfirmForm()
    sent = form.validate_on_submit()
    error = _attach_chosen(pena, target) if sent else None
    if sent and error is None:
        flash(_("Partida añadida a la peña."))
        return redirect(url_for("pena.page", token=token))
    return render_template(
        "pena/confirm.html",
        pena=pena,
        token=token,
        table=target,
        form=form,
        rows=confirm_rows(pena, target, request.form),
        people=_roster(pena),
        error=error,
        new=ps.NEW,
    ), (400 if form.is_submitted() else 200)


def _attach_chosen(pena: Pena, table: Table) -> str | None:
    """Attach the table with the person chosen for each of its names; why not, when it cannot be."""
    choices = {m.name: request.form.get(f"name-{i}", "") for i, m in enumerate(ps.matches(pena, table), 1)}
    try:
        ps.attach_checked(pena, table, choices)
    except store.ServiceError as exc:
        return messages.message(exc)
    return None


@bp.get("/p/<token>/temporada.pdf")
def season_pdf(token: str) -> Response:
    from scorer.pena.season import render_pdf

    pena, can_edit = ps.open_pena(token)
    start, end, _error = _season()
    evenings = ps.evenings(pena, start, end)
    ledger = ledger_context(pena, evenings, can_edit)
    people = [
        (p, stats_context(stats.statistics(evenings, p.id), ledger["currency"]))
        for p in pena.people
        if any(p.id in e.people.values() for e in evenings)
    ]
    pdf = render_pdf(
        pena=pena.name,
        start=start,
        end=end,
        ledger=ledger,
        stats=stats_context(stats.statistics(evenings), ledger["currency"], whole=True),
        people=[(ps.label(p), s) for p, s in people],
    )
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = 'inline; filename="temporada.pdf"'
    response.headers["Cache-Control"] = "private, no-cache"
    return response
