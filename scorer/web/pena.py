"""The peña's pages (blueprint ``pena``): standings, evenings, roster, a person's statistics, attach, season PDF.

The peña has its own edit link (``/p/<edit token>``) and view link (``/p/<view token>``): only the
edit link changes the roster or the evenings. A table of the peña is linked with the same kind of
token the peña's link is (the view link of the peña never reveals a table's edit link).
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from decimal import Decimal
from typing import Any

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask import session as browser
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response as BaseResponse
from wtforms import HiddenField, RadioField, StringField, SubmitField, TextAreaField
from wtforms.validators import Length, Optional

from scorer import words
from scorer.pena import charts, stats
from scorer.web import messages, services
from scorer.web import pena_services as ps
from scorer.web.forms import GAME_LABELS, ImportForm, game_choices
from scorer.web.games import seat_label
from scorer.web.models import Pena, Table

bp = Blueprint("pena", __name__)

Page = str | tuple[str, int] | BaseResponse
SEATS = 6
PREFILL_KEY = "pena_nueva"  # the peña a new table made from its roster goes to
PREFILL_SECONDS = 3 * 3600


# ------------------------------------------------------------------ errors


def _spanish(exc: services.ServiceError) -> str:
    """A refusal of the peña's pages in Spanish, from its code (scorer.web.messages)."""
    if isinstance(exc, services.NotFound):
        return messages.render("pena_not_found")
    if isinstance(exc, services.Forbidden):
        return messages.render("pena_view_link")
    return messages.message(exc)


@bp.errorhandler(services.ServiceError)
def service_error(exc: services.ServiceError) -> tuple[str, int]:
    return render_template("error.html", message=_spanish(exc), status=exc.status), exc.status


# ------------------------------------------------------------------ forms


class NewPenaForm(FlaskForm):
    request_id = HiddenField()  # the same form sent twice makes one peña
    name = StringField(_l("Nombre de la peña"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    people = TextAreaField(
        _l("Personas (una por línea; el apodo tras una barra: «Roberto / Berto»)"),
        validators=[Optional(), Length(max=5000)],
    )
    submit = SubmitField(_l("Crear la peña"))

    def roster(self) -> list[tuple[str, str | None]]:
        result = []
        for line in (self.people.data or "").splitlines():
            name, _sep, nick = line.partition("/")
            if name.strip():
                result.append((name.strip(), nick.strip() or None))
        return result


class PersonForm(FlaskForm):
    name = StringField(_l("Nombre"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    nickname = StringField(_l("Apodo (opcional)"), validators=[Optional(), Length(max=ps.NAME_MAX)])
    submit = SubmitField(_l("Guardar"))


class PickForm(FlaskForm):
    """Players of a new table, in seat order, from the roster or new."""

    game = RadioField(_l("Juego"), choices=game_choices, default="tresillo")
    submit = SubmitField(_l("Seguir: reglas y empezar"))


class AttachForm(FlaskForm):
    link = StringField(_l("Enlace de la partida (o su código)"), validators=[Optional(), Length(max=300)])
    submit = SubmitField(_l("Buscar la partida"))


class ConfirmForm(FlaskForm):
    table = HiddenField()
    submit = SubmitField(_l("Añadir a la peña"))


class SeasonForm(FlaskForm):
    class Meta:
        csrf = False

    desde = StringField(_l("Desde"), validators=[Optional()])
    hasta = StringField(_l("Hasta"), validators=[Optional()])


# ---------------------------------------------------------------- helpers


def _season() -> tuple[dt.date | None, dt.date | None, str | None]:
    """The date range of the query string (``desde``, ``hasta``, ISO dates) and a complaint if one is wrong."""
    found: list[dt.date | None] = []
    error = None
    for key in ("desde", "hasta"):
        text = (request.args.get(key) or "").strip()
        if not text:
            found.append(None)
            continue
        try:
            found.append(dt.date.fromisoformat(text))
        except ValueError:
            found.append(None)
            error = _("La fecha «%(text)s» no es válida: usa el calendario (aaaa-mm-dd).", text=text)
    return found[0], found[1], error


def _money(amount: Decimal | None, currency: str, *, sign: bool = True) -> str:
    if amount is None:
        return ""
    return words.money_text(1, amount, currency, sign=sign)


def _names(pena: Pena) -> dict[int, str]:
    return {p.id: ps.label(p) for p in pena.people}


def _table_token(table: Table, can_edit: bool) -> str:
    return table.edit_token if can_edit else table.view_token


def ledger_context(pena: Pena, evenings: list[stats.Evening], can_edit: bool) -> dict[str, Any]:
    """The standings, the evening table, the settle-up and the open pots, as texts."""
    ledger = stats.lifetime_ledger(evenings)
    names = _names(pena)
    currency = ledger.currency
    tables = {t.id: t for _link, t in ps.tables_of(pena)}
    standings = [
        {
            "id": s.person,
            "name": names.get(int(str(s.person)), "?"),
            "evenings": s.evenings,
            "money": "" if ledger.tantos_only else _money(s.money, currency),
            "tantos": None if s.tantos is None else words.signed(s.tantos),
            "sign": "pos" if s.money > 0 else "neg" if s.money < 0 else "",
        }
        for s in ledger.standings
    ]
    columns = [s.person for s in ledger.standings]
    rows = []
    for line in ledger.lines:
        e = line.evening
        table = tables.get(int(str(e.key)))
        rows.append(
            {
                "name": e.name,
                "date": e.date,
                "game": words.GAME_SHORT_NAMES.get(e.ruleset, e.ruleset),
                "url": url_for("main.table", token=_table_token(table, can_edit)) if table is not None else "",
                "value": words.decimal_text(e.value) if e.value is not None else "",
                "cells": [
                    {
                        "tantos": words.signed(line.tantos[p]) if p in line.tantos else "",
                        "money": _money(line.money.get(p), e.currency) if p in line.tantos else "",
                    }
                    for p in columns
                ],
                "pot": line.pot,
                "unmatched": line.unmatched,
                "confirm": url_for("pena.confirm", token=pena.edit_token, table=table.edit_token)
                if can_edit and table is not None and line.unmatched
                else "",
                "open": not e.closed,
            }
        )
    payments = [
        {
            "payer": names.get(int(str(p.payer)), "?"),
            "payee": names.get(int(str(p.payee)), "?"),
            "money": _("%(n)s tantos", n=words.plain(p.amount))
            if ledger.tantos_only
            else _money(stats.payment_money(p.amount, ledger.places), currency, sign=False),
        }
        for p in ledger.payments
    ]
    pots = [
        {
            "name": line.evening.name,
            "date": line.evening.date,
            "pot": words.plain(line.pot),
            "money": _money(stats.money(line.evening, line.pot), line.evening.currency, sign=False),
            "word": words.GAME_POT_WORDS.get(line.evening.ruleset, _("el plato")),
        }
        for line in ledger.open_pots
    ]
    others = [e for e in evenings if not e.money_game]
    return {
        "standings": standings,
        "columns": [names.get(int(str(p)), "?") for p in columns],
        "rows": rows,
        "payments": payments,
        "pots": pots,
        "same_value": words.decimal_text(ledger.same_value) if ledger.same_value is not None else None,
        "show_tantos": ledger.same_value is not None or ledger.tantos_only,
        "tantos_only": ledger.tantos_only,
        "currency": currency,
        "others": [
            {
                "name": e.name,
                "date": e.date,
                "game": words.GAME_NAMES.get(e.ruleset, e.ruleset),
                "url": url_for("main.table", token=_table_token(tables[int(str(e.key))], can_edit))
                if int(str(e.key)) in tables
                else "",
            }
            for e in others
        ],
        "chart": _balance_chart(ledger, names),
        "ledger": ledger,
    }


def _balance_chart(ledger: stats.Ledger, names: dict[int, str]) -> str | None:
    """Each person's running balance after each evening: in tantos when they mean one thing, else in money."""
    people = [s.person for s in ledger.standings][:8]
    if not people or not ledger.lines:
        return None
    use_tantos = ledger.same_value is not None or ledger.tantos_only
    running: list[list[Decimal]] = []
    for person in people:
        total = Decimal(0)
        points = [total]
        for line in ledger.lines:
            total += Decimal(line.tantos.get(person, 0)) if use_tantos else line.money.get(person, Decimal(0))
            points.append(total)
        running.append(points)
    unit = "tantos" if use_tantos else (ledger.currency or _("dinero"))
    largest = max((abs(v) for points in running for v in points), default=Decimal(0))
    scale = Decimal(1)
    if not use_tantos and largest < 50:  # small sums: whole units would flatten every line
        scale, unit = Decimal(100), _("céntimos de %(unit)s", unit=unit) if ledger.currency else _("céntimos")
    series = [[int((v * scale).to_integral_value()) for v in points] for points in running]
    return charts.evenings_chart([names.get(int(str(p)), "?") for p in people], series, unit=unit)


STAT_ROWS = [
    ("evenings", _l("Noches jugadas"), None),
    ("hands", _l("Manos en juego"), ("tresillo", "pozo_viuda", "ombre")),
    ("jugador", _l("Manos de jugador"), ("tresillo", "pozo_viuda", "ombre")),
    ("won", "Ganadas", ("tresillo", "pozo_viuda", "ombre")),
    ("puesta", "Puestas", ("tresillo", "pozo_viuda", "ombre")),
    ("codillo", _l("Codillos recibidos"), ("tresillo", "pozo_viuda", "ombre")),
    ("codillos_given", _l("Codillos dados"), ("tresillo", "pozo_viuda", "ombre")),
    ("rendidas", "Rendidas", ("tresillo",)),
    ("defences", _l("Defensas"), ("tresillo",)),
    ("defences_won", _l("Defensas ganadas"), ("tresillo",)),
    ("bolas_made", _l("Bolas hechas"), ("tresillo", "pozo_viuda")),
    ("bolas_cut", _l("Bolas cortadas"), ("tresillo", "pozo_viuda")),
    ("bandos_won", _l("Partidas de bandos ganadas"), ("bandos",)),
]
STAT_GAMES = {key: games for key, _label, games in STAT_ROWS if games is not None}
RATES = {"won": "won_rate", "puesta": "puesta_rate", "codillo": "codillo_rate"}


def stats_context(result: stats.Stats, currency: str) -> dict[str, Any]:
    """The statistics as labelled lines: only those of the games played."""
    data = result.as_dict()
    lines = []
    for key, label, games in STAT_ROWS:
        if games is not None and not result.games & set(games):
            continue
        value = str(data[key])
        rate = data.get(RATES.get(key, ""))
        if rate is not None:
            value += f" ({rate} %)"
        lines.append({"key": key, "label": str(label), "value": value})
    if result.games & set(stats.JUGADOR_GAMES):
        money = _money(result.biggest_plato_money, currency, sign=False)
        lines.append(
            {
                "key": "biggest_plato",
                "label": _("Mayor plato cobrado"),
                "value": _("%(n)s tantos (%(money)s)", n=words.plain(result.biggest_plato), money=money)
                if money
                else _("%(n)s tantos", n=words.plain(result.biggest_plato)),
            }
        )
    if result.money_evenings:
        lines.append({"key": "money", "label": _("Saldo total"), "value": _money(result.money, currency)})
        lines.append(
            {
                "key": "average_money",
                "label": _("Media por noche"),
                "value": _money(result.average_money.quantize(Decimal("0.01")), currency)
                if result.average_money is not None
                else "",
            }
        )
    lances = sorted(result.by_lance.items(), key=lambda kv: (-kv[1], kv[0]))
    outcomes = [("ganadas", result.won), ("puestas", result.puesta), ("codillos", result.codillo)]
    if result.games & set(STAT_GAMES["rendidas"]):  # the games that have rendidas (R25)
        outcomes.append(("rendidas", result.rendidas))
    trumps = sorted(result.by_trump.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "lines": lines,
        "lances": [(words.lance_word(k), v) for k, v in lances],
        "trumps": [(words.suit_text(k), v) for k, v in trumps],
        "games": [f"{words.GAME_NAMES.get(g, g)}: {n}" for g, n in sorted(result.evenings_by_game.items())],
        "lance_chart": charts.mix_chart([(words.lance_word(k), v) for k, v in lances], title=_("Lances como jugador"))
        if lances
        else None,
        "trump_chart": charts.mix_chart([(words.suit_text(k), v) for k, v in trumps], title=_("Triunfos como jugador"))
        if trumps
        else None,
        "outcome_chart": charts.mix_chart(outcomes, title=_("Resultados como jugador")) if result.jugador else None,
    }


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


def _remember(pena: Pena) -> None:
    """This browser created the peña or opened its edit link: list it on /penas."""
    kept = browser.get("penas")
    tokens = [t for t in kept if isinstance(t, str)] if isinstance(kept, list) else []
    if tokens[:1] != [pena.edit_token]:
        browser["penas"] = [pena.edit_token, *(t for t in tokens if t != pena.edit_token)][:REMEMBERED]
    browser.permanent = True


# -------------------------------------------------------------------- pages


@bp.get("/penas")
def penas() -> str:
    """This browser's peñas (their edit links), and the way to a new one."""
    kept = browser.get("penas")
    tokens = [t for t in kept if isinstance(t, str)] if isinstance(kept, list) else []
    found = []
    for token in tokens:
        try:
            pena, can_edit = ps.open_pena(token)
        except services.ServiceError:
            continue
        if can_edit:
            found.append(pena)
    return render_template("pena/list.html", penas=found)


@bp.route("/penas/nueva", methods=["GET", "POST"])
def new_pena() -> Page:
    form = NewPenaForm()
    error = None
    made = browser.get("pena_made")
    if form.validate_on_submit() and isinstance(made, dict) and made.get("id") == form.request_id.data:
        return redirect(url_for("pena.page", token=str(made.get("token"))))  # sent twice: the first one
    if form.validate_on_submit():
        try:
            pena = ps.create_pena(form.name.data, form.roster())
        except services.Invalid as exc:
            error = messages.message(exc)
        else:
            _remember(pena)
            if form.request_id.data:
                browser["pena_made"] = {"id": form.request_id.data[:64], "token": pena.edit_token}
            flash(_("Peña creada. Guarda este enlace: es el que permite cambiarla."))
            return redirect(url_for("pena.page", token=pena.edit_token))
    elif form.is_submitted():
        error = _("Revisa los campos marcados.")
    status = 400 if form.is_submitted() else 200
    if not form.request_id.data:
        form.request_id.data = uuid.uuid4().hex
    return render_template("pena/new.html", form=form, error=error), status


@bp.get("/p/<token>")
def page(token: str) -> Page:
    pena, can_edit = ps.open_pena(token)
    if can_edit:
        _remember(pena)
    start, end, error = _season()
    evenings = ps.evenings(pena, start, end)
    context = ledger_context(pena, evenings, can_edit)
    peña_stats = stats_context(stats.statistics(evenings), context["currency"])
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
        except services.Invalid as exc:
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
        pena = ps.require_edit(token)
        if form.validate_on_submit():
            try:
                ps.rename_person(pena, person_id, form.name.data, form.nickname.data)
            except services.Invalid as exc:
                flash(messages.message(exc), "error")
            else:
                flash(_("Nombre cambiado: sus noches siguen siendo suyas."))
        return redirect(url_for("pena.person", token=token, person_id=person_id))
    start, end, error = _season()
    evenings = ps.evenings(pena, start, end)
    mine = [e for e in evenings if person_id in e.people.values()]
    ledger = stats.lifetime_ledger(mine)
    result = stats.statistics(evenings, person_id)
    tables = {t.id: t for _l, t in ps.tables_of(pena)}
    nights = []
    for line in ledger.lines:
        if person_id not in line.tantos:
            continue
        table = tables.get(int(str(line.evening.key)))
        nights.append(
            {
                "name": line.evening.name,
                "date": line.evening.date,
                "game": words.GAME_SHORT_NAMES.get(line.evening.ruleset, line.evening.ruleset),
                "tantos": words.signed(line.tantos[person_id]),
                "money": _money(line.money.get(person_id), line.evening.currency),
                "url": url_for("main.table", token=_table_token(table, can_edit)) if table else "",
            }
        )
    chart = _balance_chart(
        stats.Ledger(
            lines=ledger.lines,
            standings=[s for s in ledger.standings if s.person == person_id],
            same_value=ledger.same_value,
            currency=ledger.currency,
        ),
        _names(pena),
    )
    return render_template(
        "pena/person.html",
        pena=pena,
        token=token,
        can_edit=can_edit,
        person=who,
        label=ps.label(who),
        stats=stats_context(result, ledger.currency),
        nights=nights,
        chart=chart,
        form=form,
        season=SeasonForm(request.args),
        season_args=_season_args(),
        season_error=error,
    )


@bp.route("/p/<token>/nueva", methods=["GET", "POST"])
def new_table(token: str) -> Page:
    """Pick the players from the roster, seat by seat; then the usual new-table form, filled in."""
    pena = ps.require_edit(token)
    form = PickForm()
    error = None
    seats = [
        {
            "n": n,
            "label": seat_label(n),
            "chosen": request.form.get(f"seat{n}", ""),
            "new": request.form.get(f"new{n}", ""),
        }
        for n in range(1, SEATS + 1)
    ]
    if form.validate_on_submit():
        names: list[str] = []
        for seat in seats:
            new = " ".join(seat["new"].split())
            if new:
                names.append(new)
            elif seat["chosen"]:
                try:
                    names.append(ps.person_of(pena, int(seat["chosen"])).name)
                except (ValueError, services.NotFound):
                    error = _("Asiento %(n)s: esa persona no está en la peña.", n=seat["n"])
            else:
                names.append("")
        while names and not names[-1]:
            names.pop()
        if error is None:
            if "" in names:
                error = _("Los asientos van seguidos: no dejes uno vacío entre dos ocupados.")
            elif len({ps.fold(n) for n in names}) < len(names):
                error = _("La misma persona no puede sentarse dos veces.")
            elif len(names) < 3:
                error = _("Hacen falta al menos tres jugadores.")
        if error is None:
            args = {"pena": pena.edit_token, "game": form.game.data or "tresillo"}
            args.update({f"player{i}": n for i, n in enumerate(names, 1)})
            return redirect(url_for("main.new_table", **args))
    status = 400 if form.is_submitted() else 200
    people = [(p.id, ps.label(p)) for p in pena.people]
    return render_template(
        "pena/pick.html", pena=pena, token=token, form=form, seats=seats, people=people, error=error
    ), status


def new_table_prefill() -> dict[str, Any] | None:
    """For ``/nueva``: on ``GET /nueva?pena=<edit token>&player1=…`` the form's data, remembering the peña.

    A plain ``GET /nueva`` forgets it: only the form opened from the peña adds its table to it.
    """
    if request.method != "GET":
        return None
    token = request.args.get("pena")
    if not token:
        browser.pop(PREFILL_KEY, None)
        return None
    try:
        pena = ps.require_edit(token)
    except services.ServiceError:
        browser.pop(PREFILL_KEY, None)
        return None
    browser[PREFILL_KEY] = {"token": pena.edit_token, "at": int(time.time())}
    data: dict[str, Any] = {"name": pena.name}
    game = request.args.get("game")
    if game in GAME_LABELS:
        data["game"] = game
    for n in range(1, SEATS + 1):
        name = request.args.get(f"player{n}")
        if name:
            data[f"player{n}"] = name[: ps.NAME_MAX]
    return data


def pena_names() -> list[str]:
    """The roster of the peña the new table is for (suggestions for the name fields)."""
    kept = browser.get(PREFILL_KEY)
    if not isinstance(kept, dict):
        return []
    try:
        pena, _ = ps.open_pena(str(kept.get("token")))
    except services.ServiceError:
        return []
    return [p.name for p in pena.people]


def after_table_created(table: Table) -> None:
    """The new table was made from a peña's form: it becomes an evening of the peña (new names become people)."""
    kept = browser.pop(PREFILL_KEY, None)
    if not isinstance(kept, dict) or int(kept.get("at") or 0) < time.time() - PREFILL_SECONDS:
        return
    try:
        pena = ps.require_edit(str(kept.get("token")))
    except services.ServiceError:
        return
    session = services.session_of(table)
    choices = {n: ps.NEW for n in stats.names_that_sat(session) if not ps.match_name(pena, n).sure}
    try:
        ps.attach_checked(pena, table, choices)
    except services.ServiceError as exc:
        flash(_("La partida no se ha añadido a la peña: %(reason)s", reason=messages.message(exc)), "error")
        return
    flash(_("Partida añadida a la peña %(pena)s.", pena=pena.name))


@bp.route("/p/<token>/unir", methods=["GET", "POST"])
def attach(token: str) -> Page:
    """Attach an existing table (its link) or a session file (imported here) to the peña."""
    pena = ps.require_edit(token)
    form = AttachForm(prefix="t")
    upload = ImportForm(prefix="f")
    error = None
    if request.method == "POST" and "t-submit" in request.form and form.validate_on_submit():
        try:
            table = ps.table_by_token(form.link.data or "")
        except services.ServiceError:
            error = _("No encontramos esa partida: pega su enlace completo.")
        else:
            return redirect(url_for("pena.confirm", token=token, table=table.edit_token))
    elif request.method == "POST" and "f-submit" in request.form and upload.validate_on_submit():
        text = upload.content()
        if text is not None:
            from scorer.web.views import import_text

            table, error = import_text(text)
            if table is not None:
                flash(_("Partida importada. Di quién es cada nombre."))
                return redirect(url_for("pena.confirm", token=token, table=table.edit_token))
    status = 400 if request.method == "POST" else 200
    return render_template("pena/attach.html", pena=pena, token=token, form=form, upload=upload, error=error), status


@bp.route("/p/<token>/unir/<table>", methods=["GET", "POST"])
def confirm(token: str, table: str) -> Page:
    """Each name of the table → a person of the roster, or a new person; the unsure ones are asked."""
    pena = ps.require_edit(token)
    target = services.require_edit(table)  # only the keeper of a table can give it to a peña
    form = ConfirmForm()
    error = None
    if form.validate_on_submit():
        choices = {m.name: request.form.get(f"name-{i}", "") for i, m in enumerate(ps.matches(pena, target), 1)}
        try:
            ps.attach_checked(pena, target, choices)
        except services.ServiceError as exc:
            error = messages.message(exc)
        else:
            flash(_("Partida añadida a la peña."))
            return redirect(url_for("pena.page", token=token))
    rows = []
    for i, match in enumerate(ps.matches(pena, target), 1):
        chosen = request.form.get(f"name-{i}") or (str(match.person.id) if match.person else "")
        if not chosen and not match.candidates:
            chosen = ps.NEW
        rows.append({"i": i, "match": match, "chosen": chosen})
    return render_template(
        "pena/confirm.html",
        pena=pena,
        token=token,
        table=target,
        form=form,
        rows=rows,
        people=[(p.id, ps.label(p)) for p in pena.people],
        error=error,
        new=ps.NEW,
    ), (400 if form.is_submitted() else 200)


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
        stats=stats_context(stats.statistics(evenings), ledger["currency"]),
        people=[(ps.label(p), s) for p, s in people],
    )
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = 'inline; filename="temporada.pdf"'
    response.headers["Cache-Control"] = "private, no-cache"
    return response
