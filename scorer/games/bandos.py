"""The juego de bandos (rules/bandos.md B1–B5): its hand form, house rules, teams, columns and sheet lines.

No money (tantos only), no passed hand, no closing: the game ends at the target (B4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import BooleanField, FieldList, Form, FormField, RadioField  # type: ignore[import-untyped]
from wtforms.validators import Optional  # type: ignore[import-untyped]

from scorer import hand_fields
from scorer.engine import bandos as rules_module
from scorer.games import exports, pots
from scorer.games import views as present
from scorer.games.base import Game, Option, given_rules
from scorer.games.fields import GameHandForm, RuleChoice, WholeField, between, options
from scorer.games.text import Text, _, _l, ngettext
from scorer.words import FALTA_WORDS, result_word, signed

TEAM_OF_SEAT = {1: "A", 2: "B", 3: "A", 4: "B", 5: "A", 6: "B"}  # B1


class FaltaForm(Form):  # type: ignore[misc]
    """One fault of the juego de bandos (B3): who, which, and optionally how many tantos."""

    seat = RadioField(_l("Quién"), choices=[], default="", validate_choice=False)
    falta = RadioField(
        _l("Falta"),
        choices=options([("fuera_de_turno", _l("fuera de turno")), ("renuncio", _l("renuncio"))]),
        default="fuera_de_turno",
        validate_choice=False,
    )
    points = WholeField(_l("Tantos (vacío: los de la partida)"), validators=[Optional(), between(0, 100, "B3")])


FALTA_ROWS = 3
PRIMERAS_NONE = hand_fields.BANDOS_PRIMERAS_NONE  # B5: under first_three_tricks nobody made the three first tricks


class BandosHandForm(GameHandForm):
    """A hand of the juego de bandos: primeras (A, B o nadie), capote, faltas."""

    ruleset = "bandos"
    primeras = RadioField(_l("Primeras"), choices=[], default="", validate_choice=False)
    literal = False  # B5 (scoring "first_three_tricks"): "nadie" is offered
    capote = BooleanField(_l("Capote: ese equipo hizo las seis bazas"))
    faltas = FieldList(FormField(FaltaForm), min_entries=FALTA_ROWS)

    def setup(self, rules: Mapping[str, Any]) -> None:
        def team(name: str) -> str:
            members = ", ".join(self.names[s] for s in self.names if TEAM_OF_SEAT.get(s) == name)
            return _("Equipo %(team)s: %(members)s", team=name, members=members)

        self.literal = rules.get("scoring") == "first_three_tricks"  # B5: the three first tricks may be split
        choices: list[tuple[str, Text]] = [("A", team("A")), ("B", team("B"))]
        if self.literal:
            choices.append((PRIMERAS_NONE, _l("nadie: se repartieron las tres primeras bazas")))
        self.primeras.choices = options([*choices, ("", _l("nadie (una falta acabó la mano)"))])
        self.penalties = {
            "fuera_de_turno": int(rules.get("fuera_de_turno", 1)),
            "renuncio": int(rules.get("renuncio", 1)),
        }
        self._seat_choices()

    def _seat_choices(self) -> None:
        for entry in self.faltas.entries:
            entry.form.seat.choices = options(
                [*((str(s), name) for s, name in self.names.items()), ("", _l("ninguna"))]
            )

    def fill(self, hand: Mapping[str, Any]) -> None:
        self.primeras.data = hand.get("primeras") or ""
        self.capote.data = bool(hand.get("capote"))
        faltas = list(hand.get("faltas") or [])
        while self.faltas.entries:
            self.faltas.pop_entry()
        for f in faltas:
            self.faltas.append_entry(
                {"seat": str(f.get("seat", "")), "falta": f.get("falta"), "points": f.get("points")}
            )
        while len(self.faltas.entries) < max(FALTA_ROWS, len(faltas) + 1):
            self.faltas.append_entry()
        self._seat_choices()

    def to_hand(self) -> dict[str, Any] | None:
        """Read by :func:`scorer.hand_fields.read_bandos`, the very lines a phone with no network runs."""
        rows = self.faltas.entries

        def get(name: str) -> Any:
            if not name.startswith("faltas-"):
                return getattr(self, name).data
            _faltas, i, key = name.split("-", 2)
            return rows[int(i)].form[key].data

        taken = self.take(hand_fields.read_bandos(get, tuple(self.names), len(rows), _))
        if any(entry.form.points.errors for entry in rows) and "faltas" not in self.problems:
            self.problem("faltas", _("Los tantos de una falta son un número de 0 a 100."))
            return None
        return taken


# ------------------------------------------------------------------ view-models


def faltas_text(faltas: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    """ "falta de Ana (renuncio, 4)"."""
    names = present.seat_names(players)
    parts = []
    for f in faltas:
        words = FALTA_WORDS.get(str(f.get("falta")), str(f.get("falta")))
        points = f" {f['points']}" if f.get("points") is not None else ""
        detail = f"{words},{points}" if points else words
        parts.append(_("falta de %(who)s (%(detail)s)", who=present._who(f.get("seat"), names), detail=detail))
    return ", ".join(parts)


def bandos_line(hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str]) -> present.HandLine:
    """ "5 · primeras B · falta de A1 (renuncio, 4) · A 5 · B 4"."""
    n = int(entry["n"])
    result = str(entry.get("result", ""))
    parts = [str(n)]
    primeras = hand.get("primeras")
    if primeras == PRIMERAS_NONE:
        parts.append(_("primeras de nadie"))
    elif primeras:
        parts.append(f"{'capote' if hand.get('capote') else 'primeras'} {primeras}")
    if hand.get("faltas"):
        parts.append(faltas_text(hand["faltas"], players))
    scores = entry.get("scores", {})
    for team, seats in present.TEAM_SEATS.items():
        parts.append(f"{team} {max(int(scores.get(str(s), 0)) for s in seats)}")
    if entry.get("winner"):
        parts.append(_("gana el equipo %(team)s", team=entry["winner"]))
    return present.HandLine(n, " · ".join(parts), result)


def bandos_summary(
    hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Mapping[str, int] | None, players: Sequence[str]
) -> str:
    """One sentence: who scored what, the faults, and the winner when the game ends."""
    said = [*_primeras_said(hand)]
    if hand.get("faltas"):
        said.append(faltas_text(hand["faltas"], players))
    changes = _score_changes(entry, previous or {}, present.seat_names(players))
    said.append(_("tantos: %(changes)s", changes=", ".join(changes)) if changes else _("tantos: nadie cambia"))
    if entry.get("winner"):
        said.append(_("fin del juego: gana el equipo %(team)s", team=entry["winner"]))
    text = "; ".join(said)
    return text[:1].upper() + text[1:]


def _primeras_said(hand: Mapping[str, Any]) -> list[str]:
    """Who scored the hand (B2, B5): a team's primeras or capote, or nobody when the first tricks were split."""
    primeras = hand.get("primeras")
    if primeras == PRIMERAS_NONE:
        return [_("las tres primeras bazas se repartieron: nadie se apunta la mano")]
    if not primeras:
        return []
    points = 2 if hand.get("capote") else 1
    return [
        ngettext(
            "%(what)s del equipo %(team)s: %(num)s tanto cada uno",
            "%(what)s del equipo %(team)s: %(num)s tantos cada uno",
            points,
            what="capote" if hand.get("capote") else "primeras",
            team=primeras,
        )
    ]


def _score_changes(entry: Mapping[str, Any], before: Mapping[str, int], names: Mapping[int, str]) -> list[str]:
    """ "Ana +1" for each player whose tantos moved."""
    changes = []
    for seat, name in names.items():
        d = int(entry.get("scores", {}).get(str(seat), 0)) - int(before.get(str(seat), 0))
        if d:
            changes.append(f"{name} {signed(d)}")
    return changes


def bandos_facts(hand: Mapping[str, Any], players: Sequence[str]) -> list[tuple[str, str]]:
    names = present.seat_names(players)
    facts = []
    primeras = hand.get("primeras")
    if primeras == PRIMERAS_NONE:
        facts.append((_("Primeras"), _("nadie: se repartieron las tres primeras bazas")))
    elif primeras:
        members = ", ".join(names.get(s, str(s)) for s in present.TEAM_SEATS.get(str(primeras), ()))
        facts.append((_("Primeras"), _("equipo %(team)s (%(members)s)", team=primeras, members=members)))
    else:
        facts.append((_("Primeras"), _("nadie (una falta acabó la mano)")))
    facts.append((_("Capote"), _("sí") if hand.get("capote") else _("no")))
    for i, f in enumerate(hand.get("faltas") or [], 1):
        words = FALTA_WORDS.get(str(f.get("falta")), str(f.get("falta")))
        who = present._who(f.get("seat"), names)
        if f.get("points") is not None:
            said = _("%(who)s: %(falta)s, %(points)s tantos", who=who, falta=words, points=f["points"])
        else:
            said = _("%(who)s: %(falta)s", who=who, falta=words)
        facts.append((_("Falta %(n)s", n=i), said))
    return facts


# ------------------------------------------------------------------ the CSV export


def faltas_cells(names: Mapping[int, str], hand: Mapping[str, Any]) -> str:
    faltas = hand.get("faltas")
    if not isinstance(faltas, list):
        return ""
    parts = []
    for f in faltas:
        if isinstance(f, Mapping):
            kind = str(f.get("falta", ""))
            points = f" {f['points']}" if f.get("points") is not None else ""
            who = exports.name_cell(names, f.get("seat"))
            parts.append(f"{who} {FALTA_WORDS.get(kind, kind.replace('_', ' '))}{points}")
    return ", ".join(parts)


OPTIONS = (
    Option(
        "bd_target",
        "target",
        lambda: WholeField(_l("Meta (tantos)"), default=12, validators=[Optional(), between(1, 1000, "B4")]),
        _l("Tantos con los que se gana el juego."),
    ),
    Option(
        "bd_scoring",
        "scoring",
        lambda: RuleChoice(
            _l("Quién se apunta la mano"),
            choices=options(
                [
                    ("first_to_three", _l("el primero en tres bazas")),
                    ("first_three_tricks", _l("las tres primeras bazas")),
                ]
            ),
            default="first_to_three",
            rule="B5",
        ),
        _l(
            "Quién se apunta la mano: el bando que llega antes a tres bazas, o el que gana las tres primeras "
            "(si se reparten, nadie)."
        ),
    ),
    Option(
        "bd_fuera_de_turno",
        "fuera_de_turno",
        lambda: WholeField(_l("Falta: fuera de turno"), default=1, validators=[Optional(), between(0, 100, "B3")]),
        _l("Tantos de castigo por jugar fuera de turno sin asistir al palo."),
    ),
    Option(
        "bd_renuncio",
        "renuncio",
        lambda: WholeField(_l("Falta: renuncio"), default=1, validators=[Optional(), between(0, 100, "B3")]),
        _l("Tantos de castigo por negarse a seguir jugando (acaba la mano)."),
    ),
)


class Bandos(Game):
    """Six players in two teams, no money: tantos up to the target (B1–B5)."""

    ruleset = "bandos"
    hand_form_class = BandosHandForm
    options = OPTIONS
    option_defaults = rules_module.OPTION_DEFAULTS
    help = _l(
        "Seis jugadores en dos equipos, sin dinero: tantos hasta la meta. Equipo A: asientos 1, 3, 5; "
        "equipo B: 2, 4, 6."
    )
    count_hint = _l(" Dos equipos de tres: A en los asientos 1, 3, 5 y B en los 2, 4, 6.")
    money = False
    can_pass = False  # B2
    closings = ()  # B4: it ends by itself at the target
    closing_rule = "B4"
    teams = True
    options_template = "games/bandos/options.html"
    seats_help = _l(
        "Bandos: seis jugadores. Equipo A: asientos 1, 3 y 5; equipo B: asientos 2, 4 y 6"
        " (compañeros y contrarios alternan)."
    )
    pot_panel = "games/bandos/pot.html"
    over_panel = "games/bandos/over.html"
    hand_state = "games/bandos/hand_state.html"
    hand_fields = "games/bandos/hand_fields.html"
    summary_fields = (("primeras", _l("primeras")), ("capote", _l("capote")), ("faltas", _l("faltas")))
    preview_heading = _l("Tantos de esta mano")
    preview_button = _l("Ver tantos")

    def line(self, hand: Mapping[str, Any], entry: Mapping[str, Any], players: Sequence[str]) -> present.HandLine:
        return bandos_line(hand, entry, players)

    def over_words(self, ledger: Mapping[str, Any]) -> str:
        return _("El juego ha terminado: ganó el equipo %(team)s. No se anotan más manos.", team=ledger.get("winner"))

    def game_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], name: str) -> present.GameView:
        rules = session.get("rules") or {}
        players = list(session.get("players", []))
        winner = ledger.get("winner")
        over = bool(ledger.get("over"))
        next_dealer = ledger.get("next_dealer")
        return present.GameView(
            self.ruleset,
            name,
            target=int(rules.get("target", 12)),
            over=over,
            teams=present.teams_view(players, ledger.get("scores", {}), winner),
            winner=winner,
            turn=present.turn(players, next_dealer) if isinstance(next_dealer, int) and not over else None,
            can_pass=False,
            can_close=False,
        )

    def state_words(self, entry: Mapping[str, Any], rules: Mapping[str, Any], players: Sequence[str]) -> str:
        scores = entry.get("scores", {})
        seats = present.TEAM_SEATS
        parts = [f"{team} {max(int(scores.get(str(s), 0)) for s in members)}" for team, members in seats.items()]
        text = _("mejor de cada equipo: %(scores)s", scores=", ".join(parts))
        return text + (" · " + _("gana el equipo %(team)s", team=entry["winner"]) if entry.get("winner") else "")

    def summary(
        self, session: Mapping[str, Any], hand: Mapping[str, Any], entry: Mapping[str, Any], previous: Any
    ) -> str:
        players = list(session.get("players", []))
        return bandos_summary(hand, entry, (previous or {}).get("scores"), players)

    def hand_view(self, session: Mapping[str, Any], ledger: Mapping[str, Any], n: int) -> pots.GameHandView:
        """A hand's page: its faltas, and each team's tantos before and after it."""
        players = tuple(session.get("players", []))
        names = present.seat_names(players)
        rules = session.get("rules") or {}
        hand, entry = session["hands"][n - 1], ledger["hands"][n - 1]
        prev_entry = ledger["hands"][n - 2] if n > 1 else None
        dealer = entry.get("dealer")
        facts = bandos_facts(hand, players) if "close" not in hand else present.hand_facts(hand, players)
        zero = {str(s): 0 for s in names}
        before_scores = (prev_entry or {}).get("scores", zero)
        return pots.GameHandView(
            n=n,
            line=bandos_line(hand, entry, players),
            summary=self.summary(session, hand, entry, prev_entry),
            facts=facts,
            transfers=[],
            dealer=present._who(dealer, names) if dealer is not None else None,
            before=self.state_words(prev_entry or {"scores": zero}, rules, players),
            after=self.state_words(entry, rules, players),
            balances_before=[],
            balances_after=[],
            teams_before=present.teams_view(players, before_scores, None),
            teams_after=present.teams_view(players, entry.get("scores", {}), entry.get("winner")),
        )

    def csv(self, players: Sequence[str], hands: Sequence[Mapping[str, Any]], ledger: Mapping[str, Any]) -> str:
        """Juego de bandos: Nº, Da, Primeras, Capote, Faltas, Resultado, each player's tantos after it, Ganador."""
        names = dict(enumerate(players, 1))
        out, writer = exports.csv_writer()
        header = [_("Nº"), _("Da"), _("Primeras"), _("Capote"), _("Faltas"), _("Resultado"), *players, _("Ganador")]
        writer.writerow([exports.escape_cell(c) for c in header])
        for hand, entry in zip(hands, ledger.get("hands", []), strict=True):
            scores = entry.get("scores") or {}
            primeras = hand.get("primeras")
            winner = entry.get("winner")
            row = [
                entry.get("n"),
                exports.name_cell(names, entry.get("dealer")),
                _("nadie") if primeras == PRIMERAS_NONE else _("equipo %(team)s", team=primeras) if primeras else "",
                "capote" if hand.get("capote") else "",
                faltas_cells(names, hand),
                result_word(entry.get("result", ""), "bandos"),
                *(int(scores.get(str(seat), 0)) for seat in range(1, len(players) + 1)),
                _("equipo %(team)s", team=winner) if winner else "",
            ]
            writer.writerow([exports.cell(c) for c in row])
        return out.getvalue()

    def rules_lines(self, rules: Mapping[str, Any]) -> list[str]:
        r = given_rules(rules)
        return [
            _("Se juega a %(target)s tantos.", target=r.get("target", 12)),
            _(
                "Falta por jugar fuera de turno: %(fuera)s; renuncio: %(renuncio)s.",
                fuera=r.get("fuera_de_turno", 1),
                renuncio=r.get("renuncio", 1),
            ),
            _("Se apunta la mano quien gana las tres primeras bazas; si se reparten, nadie.")
            if r.get("scoring", "first_to_three") == "first_three_tricks"
            else _("Se apunta la mano el bando que llega antes a tres bazas."),  # B2, B5
        ]
