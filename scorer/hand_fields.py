"""A hand read from the fields of its form: standard library only.

The server's hand forms (``scorer/games/<game>.py``) read their fields with :func:`read_tresillo`,
:func:`read_pozo_viuda`, :func:`read_ombre` and :func:`read_bandos`; a phone with no network runs these
very lines in Pyodide (``static/engine-worker.js``), with the engine, to show what a hand pays before
the server has it (:func:`offline_preview`). So what the phone shows offline is what the server
records: nothing of the reading is written twice.

Messages go through the ``_`` given (Flask-Babel's on the server; on the phone :func:`translated`: the page's
translations of them, sent with the form, or the Spanish text).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorer.engine import SessionError, settle
from scorer.engine.tresillo import LONG_SUITS, SUITS, active_seats

Gettext = Callable[..., str]


@dataclass
class Reading:
    """What a hand form's fields say: the hand (None when something is wrong or missing), the
    messages per field in order, which only say a field is not filled in yet, and the tricks count
    the reading filled in (two counts are enough: the third is what is left of the nine)."""

    hand: dict[str, Any] | None = None
    problems: list[tuple[str, str, bool]] = field(default_factory=list)  # (field, message, missing)
    third: tuple[int, int] | None = None

    def problem(self, name: str, message: str, *, missing: bool = False) -> None:
        self.problems.append((name, message, missing))


def seat_choice(value: Any, seats: Sequence[int]) -> int | None:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if seat in seats else None


def _whole(value: Any) -> int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.isascii() and text.isdigit() else None


def read_tricks(get: Callable[[str], Any], seats: Sequence[int], reading: Reading, _: Gettext) -> dict[str, int] | None:
    """The tricks of the seats that play (``tricks_<seat>``): two counts are enough."""
    given: dict[int, int] = {}
    for seat in seats:
        raw = get(f"tricks_{seat}")
        if raw in (None, ""):
            continue
        try:
            count = int(raw)
        except (TypeError, ValueError):
            reading.problem("tricks", _("«%(value)s» no es un número de bazas.", value=raw))
            return None
        if not 0 <= count <= 9:
            reading.problem("tricks", _("Cada jugador hace de 0 a 9 bazas."))
            return None
        given[seat] = count
    if len(given) < 2:
        reading.problem("tricks", _("Faltan las bazas: marca las del jugador y las de uno de la contra."), missing=True)
        return None
    if len(given) == 2:
        (missing,) = [s for s in seats if s not in given]
        rest = 9 - sum(given.values())
        if rest < 0:
            reading.problem("tricks", _("Las bazas suman %(count)s: son 9 en total.", count=sum(given.values())))
            return None
        given[missing] = rest  # the third is what is left of the nine
        reading.third = (missing, rest)
    elif sum(given.values()) > 9:
        reading.problem("tricks", _("Las bazas suman %(count)s: son 9 en total.", count=sum(given.values())))
        return None
    return {str(s): given[s] for s in seats}


def _estuches(get: Callable[[str], Any], key: str, trump: str | None, reading: Reading, _: Gettext) -> int:
    choice = get(key) or ""
    if choice == "":
        return 0
    if choice == "mas":
        count = _whole(get(f"{key}_mas"))
        top = 12 if trump in LONG_SUITS else 11
        if count is None or not 6 <= count <= top:
            reading.problem(key, _("¿Cuántos %(what)s? Escribe un número de 6 a %(top)s.", what=key, top=top))
            return 0
        return count
    if choice in ("3", "4", "5"):
        return int(choice)
    reading.problem(key, _("Elige cuántos %(what)s.", what=key))
    return 0


def read_lance(
    get: Callable[[str], Any], lances: Collection[str], reading: Reading, hand: dict[str, Any], _: Gettext
) -> None:
    """The lance (``entrada`` when none is chosen), one of ``lances``: Tresillo's and Ombre's forms."""
    lance = get("lance") or "entrada"
    if lance not in lances:
        reading.problem("lance", _("Elige el lance."))
    hand["lance"] = lance


def read_tresillo(get: Callable[[str], Any], seats: Sequence[int], lances: Collection[str], _: Gettext) -> Reading:
    """The hand dict of format.md from the form's fields (``get(name)``: the field's value, None when
    absent), for the seats that play and the lances the table offers."""
    reading = Reading()
    hand: dict[str, Any] = {}
    read_jugador(get, seats, reading, hand, _)
    read_lance(get, lances, reading, hand, _)
    trump = read_trump(get, reading, hand, _)
    estuches = _estuches(get, "estuches", trump, reading, _)
    contra = _estuches(get, "contraestuches", trump, reading, _)
    if estuches and contra:
        reading.problem("estuches", _("No puede haber estuches y contraestuches a la vez."))
    if estuches:
        hand["estuches"] = estuches
    if contra:
        hand["contraestuches"] = contra
    rendida = bool(get("rendida"))
    defensor = None
    if get("defensor"):
        defensor = seat_choice(get("defensor"), seats)
        if defensor is None:
            reading.problem("defensor", _("Elige el defensor entre los que juegan."))
    if rendida:
        hand["rendida"] = True
    if defensor is not None:
        hand["defensor"] = defensor
    if get("primeras") in ("jugador", "contra"):
        hand["primeras"] = get("primeras")
    if get("bola") in ("hecha", "cortada"):
        hand["bola"] = get("bola")
    if not rendida or defensor is not None:  # an undefended rendida has no tricks (format.md)
        tricks = read_tricks(get, seats, reading, _)
        if tricks is not None:
            hand["tricks"] = tricks
    reading.hand = None if reading.problems else hand
    return reading


def read_jugador(
    get: Callable[[str], Any], seats: Sequence[int], reading: Reading, hand: dict[str, Any], _: Gettext
) -> None:
    jugador = seat_choice(get("jugador"), seats)
    if jugador is None:
        reading.problem("jugador", _("Elige quién es el jugador."), missing=not get("jugador"))
    else:
        hand["jugador"] = jugador


def read_trump(get: Callable[[str], Any], reading: Reading, hand: dict[str, Any], _: Gettext) -> str | None:
    trump = get("trump") or None
    if trump not in SUITS:
        reading.problem("trump", _("Elige el triunfo."), missing=trump is None)
        return None
    hand["trump"] = trump
    return str(trump)


POZO_BLACK_SUITS = ("espadas", "bastos")


def read_pozo_viuda(get: Callable[[str], Any], seats: Sequence[int], lances: Collection[str], _: Gettext) -> Reading:
    """A hand of pozo y viuda (rules/pozo-viuda.md) from its form's fields; ``lances``: those the table
    admits (the contrabola only when its rules say)."""
    reading = Reading()
    hand: dict[str, Any] = {}
    read_jugador(get, seats, reading, hand, _)
    lance = get("lance") or "juego"
    if lance not in lances:
        if lance == "contrabola":
            reading.problem("lance", _("En esta partida no se admite la contrabola."))
        else:
            reading.problem("lance", _("Elige el lance."))
    hand["lance"] = lance
    trump = read_trump(get, reading, hand, _)
    matadores = _whole(get("matadores") or 0)
    matadores = -1 if matadores is None else matadores
    top = 3 if trump in POZO_BLACK_SUITS else 4
    if not 0 <= matadores <= 4:
        reading.problem("matadores", _("Los matadores son de 0 a 4."))
    elif matadores > top:
        reading.problem(
            "matadores",
            _("Con triunfo de %(trump)s hay como mucho 3 matadores: el punto solo es matador en rojo.", trump=trump),
        )
    elif matadores and lance == "contrabola":
        reading.problem("matadores", _("La contrabola se juega sin matadores: marca 0."))
    elif matadores:
        hand["matadores"] = matadores
    declared = lance in ("bola", "contrabola")
    if get("primeras") in ("jugador", "y"):  # "y": the checkbox of the earlier form
        if declared:
            reading.problem("primeras", _("Una %(lance)s declarada no tiene primeras: quita la marca.", lance=lance))
        else:
            hand["primeras"] = "jugador"
    if get("bola") in ("hecha", "cortada"):
        if declared:
            reading.problem("bola", _("Una %(lance)s declarada ya es la bola: deja «no» aquí.", lance=lance))
        else:
            hand["bola"] = get("bola")
    tricks = read_tricks(get, seats, reading, _)
    if tricks is not None:
        hand["tricks"] = tricks
    reading.hand = None if reading.problems else hand
    return reading


OMBRE_LANCES = ("entrada", "vuelta", "solo")


def read_ombre(get: Callable[[str], Any], seats: Sequence[int], _: Gettext) -> Reading:
    """A hand of Ombre sencillo (rules/ombre.md) from its form's fields."""
    reading = Reading()
    hand: dict[str, Any] = {}
    read_jugador(get, seats, reading, hand, _)
    read_lance(get, OMBRE_LANCES, reading, hand, _)
    read_trump(get, reading, hand, _)
    if get("matadores_en"):
        holder = seat_choice(get("matadores_en"), seats)
        if holder is None:
            reading.problem("matadores_en", _("Elige quién tuvo los tres matadores, o «nadie»."))
        else:
            hand["matadores_en"] = holder
    tricks = read_tricks(get, seats, reading, _)
    if tricks is not None:
        hand["tricks"] = tricks
    reading.hand = None if reading.problems else hand
    return reading


BANDOS_PRIMERAS_NONE = "none"  # B5: under first_three_tricks nobody made the three first tricks
BANDOS_FALTAS = ("fuera_de_turno", "renuncio")


def bandos_rows(get: Callable[[str], Any], most: int = 50) -> int:
    """How many rows of faltas the fields carry (``faltas-<i>-seat``…)."""
    rows = 0
    for i in range(most):
        if any(get(f"faltas-{i}-{key}") is not None for key in ("seat", "falta", "points")):
            rows = i + 1
    return rows


def read_bandos(get: Callable[[str], Any], seats: Sequence[int], rows: int, _: Gettext) -> Reading:
    """A hand of the juego de bandos (rules/bandos.md): primeras, capote and up to ``rows`` faltas
    (``faltas-<i>-seat``, ``-falta``, ``-points``), any of the ``seats``."""
    reading = Reading()
    hand: dict[str, Any] = {}
    primeras = get("primeras") or ""
    if primeras not in ("", "A", "B", BANDOS_PRIMERAS_NONE):
        reading.problem("primeras", _("Elige el equipo A, el B o nadie."))
    elif primeras:
        hand["primeras"] = primeras
    if get("capote") not in (None, "", False):
        if primeras:
            hand["capote"] = True
        else:
            reading.problem("capote", _("El capote es del equipo que hizo las seis bazas: elige antes sus primeras."))
    faltas = []
    bad_points = False
    for i in range(rows):
        raw = get(f"faltas-{i}-points")
        points = None if raw in (None, "") else _whole(raw)
        if raw not in (None, "") and (points is None or not 0 <= points <= 100):
            bad_points = True
            points = None
        chosen = get(f"faltas-{i}-seat")
        if not chosen:
            if points is not None:
                reading.problem("faltas", _("Falta %(n)s: elige quién la hizo.", n=i + 1))
            continue
        seat = seat_choice(chosen, seats)
        if seat is None:
            reading.problem("faltas", _("Falta %(n)s: elige quién la hizo.", n=i + 1))
            continue
        kind = get(f"faltas-{i}-falta") or "fuera_de_turno"
        if kind not in BANDOS_FALTAS:
            reading.problem("faltas", _("Falta %(n)s: elige «fuera de turno» o «renuncio».", n=i + 1))
            continue
        falta: dict[str, Any] = {"seat": seat, "falta": kind}
        if points is not None:
            falta["points"] = points
        faltas.append(falta)
    if bad_points:
        reading.problem("faltas", _("Los tantos de una falta son un número de 0 a 100."))
    if faltas:
        hand["faltas"] = faltas
    if not primeras and not faltas and not any(name == "primeras" for name, _m, _g in reading.problems):
        reading.problem(
            "primeras",
            _("Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano."),
            missing=True,
        )
    reading.hand = None if reading.problems else hand
    return reading


def read_hand_fields(
    ruleset: str, get: Callable[[str], Any], players: int, dealer: int, lances: Collection[str], _: Gettext
) -> Reading:
    """The hand of any game's form, as its server form reads it: the seats that play are those of
    ``build_hand_form`` (R3: with three or four players the alcalde is not offered; six all play)."""
    seats = active_seats(players, dealer) if players in (3, 4) else tuple(range(1, players + 1))
    if ruleset == "pozo_viuda":
        return read_pozo_viuda(get, seats, lances, _)
    if ruleset == "ombre":
        return read_ombre(get, seats, _)
    if ruleset == "bandos":
        return read_bandos(get, seats, bandos_rows(get), _)
    return read_tresillo(get, seats, lances, _)


def spanish(message: str, **params: Any) -> str:
    """The ``_`` of a phone with no network: the Spanish text itself."""
    return message % params if params else message


def translated(said: Mapping[str, str] | None) -> Gettext:
    """The ``_`` of a phone with no network: the page's translations of the reader's messages, sent by
    the page (``data-offline-words``); a message it lacks, and every message of a Spanish page, in Spanish."""
    if not said:
        return spanish

    def _(message: str, **params: Any) -> str:
        text = said.get(message) or message
        return text % params if params else text

    return _


def offline_preview(
    session: dict[str, Any],
    queued: Sequence[Mapping[str, Any]],
    fields: Mapping[str, Any],
    lances: Collection[str],
    said: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What the hand on the form does, after the entries waiting on the phone: the ledger entry the
    engine makes of it (``{"ok": True, "n", "entry", "hands": [the waiting entries' ledger entries]}``),
    or what keeps it from being worked out (``{"ok": False, "problems": {field: [messages]},
    "missing": [...]}``, or ``"unknown"``: a waiting entry this phone cannot read offline).

    ``queued``: the waiting entries, ``{"form": "hand" | "pass" | …, "fields": [[name, value], …]}``;
    ``fields``: the form's, ``{name: value}``; ``said``: the reader's messages in the page's language."""
    work = {**session, "hands": list(session.get("hands", []))}
    start = len(work["hands"])
    players = len(work.get("players", []))
    ruleset = str((work.get("rules") or {}).get("ruleset") or "tresillo")
    for entry in queued:
        if entry.get("form") == "pass":
            work["hands"].append({"pass": True})
        elif entry.get("form") == "hand":
            values = {str(k): v for k, v in entry.get("fields", [])}
            dealer = int(settle(work).get("next_dealer") or 1)
            reading = read_hand_fields(ruleset, values.get, players, dealer, lances, translated(said))
            if reading.hand is None:
                return {"ok": False, "unknown": True, "problems": {}, "missing": []}
            work["hands"].append(reading.hand)
        else:  # an ajuste, a cambio de jugador: read by their own forms, on the server
            return {"ok": False, "unknown": True, "problems": {}, "missing": []}
    try:
        ledger = settle(work)
    except SessionError:
        return {"ok": False, "unknown": True, "problems": {}, "missing": []}
    dealer = int(ledger.get("next_dealer") or 1)
    reading = read_hand_fields(ruleset, lambda name: fields.get(name), players, dealer, lances, translated(said))
    problems: dict[str, list[str]] = {}
    missing = [message for _name, message, gap in reading.problems if gap]
    for name, message, gap in reading.problems:
        if not gap:
            problems.setdefault(name, []).append(message)
    if reading.hand is None:
        return {"ok": False, "problems": problems, "missing": missing}
    work["hands"].append(reading.hand)
    try:
        after = settle(work)
    except SessionError as exc:
        return {"ok": False, "problems": {exc.field or "general": [exc.reason]}, "missing": []}
    names = {str(seat): str(name) for seat, name in (after.get("players") or {}).items()}
    for made in after["hands"]:  # R33: who sits where after each change of player
        if isinstance(made.get("seating"), dict):
            names = {str(seat): str(name) for seat, name in made["seating"].items()}
    return {
        "ok": True,
        "n": len(work["hands"]),
        "entry": after["hands"][-1],
        "hands": after["hands"][start:-1],
        "names": names,
    }
