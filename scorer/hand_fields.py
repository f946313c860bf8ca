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
from scorer.engine.tresillo import active_seats
from scorer.engine.tresillo_hand import LONG_SUITS, SUITS

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
    given = _given_tricks(get, seats, reading, _)
    if given is None:
        return None
    if len(given) < 2:
        reading.problem("tricks", _("Faltan las bazas: marca las del jugador y las de uno de la contra."), missing=True)
        return None
    total = sum(given.values())
    if total > 9:
        reading.problem("tricks", _("Las bazas suman %(count)s: son 9 en total.", count=total))
        return None
    if len(given) == 2:
        (missing,) = [s for s in seats if s not in given]
        given[missing] = 9 - total  # the third is what is left of the nine
        reading.third = (missing, 9 - total)
    return {str(s): given[s] for s in seats}


def _given_tricks(
    get: Callable[[str], Any], seats: Sequence[int], reading: Reading, _: Gettext
) -> dict[int, int] | None:
    """The counts filled in, by seat (None after a count that is not one: its problem is noted)."""
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
    return given


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
    _read_estuches(get, trump, reading, hand, _)
    played_out = _read_rendida(get, seats, reading, hand, _)
    for key, words in (("primeras", ("jugador", "contra")), ("bola", ("hecha", "cortada"))):
        if get(key) in words:
            hand[key] = get(key)
    if played_out:
        _put_tricks(get, seats, reading, hand, _)
    reading.hand = None if reading.problems else hand
    return reading


def _read_estuches(
    get: Callable[[str], Any], trump: str | None, reading: Reading, hand: dict[str, Any], _: Gettext
) -> None:
    """R12: estuches or contraestuches (never both), 3, 4, 5 or «más» and how many."""
    estuches = _estuches(get, "estuches", trump, reading, _)
    contra = _estuches(get, "contraestuches", trump, reading, _)
    if estuches and contra:
        reading.problem("estuches", _("No puede haber estuches y contraestuches a la vez."))
    if estuches:
        hand["estuches"] = estuches
    if contra:
        hand["contraestuches"] = contra


def _read_rendida(
    get: Callable[[str], Any], seats: Sequence[int], reading: Reading, hand: dict[str, Any], _: Gettext
) -> bool:
    """R25–R28: a rendida and its defensor; whether the hand was played out (an undefended rendida has
    no tricks, format.md)."""
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
    return not rendida or defensor is not None


def _put_tricks(
    get: Callable[[str], Any], seats: Sequence[int], reading: Reading, hand: dict[str, Any], _: Gettext
) -> None:
    tricks = read_tricks(get, seats, reading, _)
    if tricks is not None:
        hand["tricks"] = tricks


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
    _read_matadores(get, trump, lance, reading, hand, _)
    _read_pozo_flags(get, lance, reading, hand, _)
    _put_tricks(get, seats, reading, hand, _)
    reading.hand = None if reading.problems else hand
    return reading


def _read_matadores(
    get: Callable[[str], Any], trump: str | None, lance: str, reading: Reading, hand: dict[str, Any], _: Gettext
) -> None:
    """0 to 4 matadores (3 at most in a black trump: the punto is a matador only in red); none in a contrabola."""
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


def _read_pozo_flags(get: Callable[[str], Any], lance: str, reading: Reading, hand: dict[str, Any], _: Gettext) -> None:
    """Primeras and the bola, which a declared bola or contrabola refuses (P9)."""
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
    _put_tricks(get, seats, reading, hand, _)
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
    primeras = _bandos_primeras(get, reading, hand, _)
    rows_read = [_bandos_falta(get, i, seats, reading, _) for i in range(rows)]
    faltas = [falta for falta, _bad in rows_read if falta is not None]
    if any(bad for _falta, bad in rows_read):
        reading.problem("faltas", _("Los tantos de una falta son un número de 0 a 100."))
    if faltas:
        hand["faltas"] = faltas
    elif not primeras and not any(name == "primeras" for name, _m, _g in reading.problems):
        reading.problem(
            "primeras",
            _("Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano."),
            missing=True,
        )
    reading.hand = None if reading.problems else hand
    return reading


def _bandos_primeras(get: Callable[[str], Any], reading: Reading, hand: dict[str, Any], _: Gettext) -> str:
    """B2: the team that made the primeras (B5: or nobody) and a capote, which needs them."""
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
    return str(primeras)


def _falta_points(raw: Any) -> tuple[int | None, bool]:
    """B3: a falta's own points (None: the house's), and whether they are not a number from 0 to 100."""
    if raw in (None, ""):
        return None, False
    points = _whole(raw)
    if points is None or not 0 <= points <= 100:
        return None, True
    return points, False


def _bandos_falta(
    get: Callable[[str], Any], i: int, seats: Sequence[int], reading: Reading, _: Gettext
) -> tuple[dict[str, Any] | None, bool]:
    """B3: the falta of row ``i`` (None when the row is empty or wrong) and whether its points are not
    a number from 0 to 100 (said once for every row, after them)."""
    points, bad_points = _falta_points(get(f"faltas-{i}-points"))
    chosen = get(f"faltas-{i}-seat")
    seat = seat_choice(chosen, seats) if chosen else None
    if seat is None:
        if chosen or points is not None:
            reading.problem("faltas", _("Falta %(n)s: elige quién la hizo.", n=i + 1))
        return None, bad_points
    kind = get(f"faltas-{i}-falta") or "fuera_de_turno"
    if kind not in BANDOS_FALTAS:
        reading.problem("faltas", _("Falta %(n)s: elige «fuera de turno» o «renuncio».", n=i + 1))
        return None, bad_points
    falta: dict[str, Any] = {"seat": seat, "falta": kind}
    if points is not None:
        falta["points"] = points
    return falta, bad_points


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
    unknown = {"ok": False, "unknown": True, "problems": {}, "missing": []}
    for entry in queued:
        hand = _queued_hand(entry, work, ruleset, players, lances, said)
        if hand is None:
            return unknown
        work["hands"].append(hand)
    try:
        ledger = settle(work)
    except SessionError:
        return unknown
    dealer = int(ledger.get("next_dealer") or 1)
    reading = read_hand_fields(ruleset, lambda name: fields.get(name), players, dealer, lances, translated(said))
    if reading.hand is None:
        return _refusal(reading)
    work["hands"].append(reading.hand)
    try:
        after = settle(work)
    except SessionError as exc:
        return {"ok": False, "problems": {exc.field or "general": [exc.reason]}, "missing": []}
    return {
        "ok": True,
        "n": len(work["hands"]),
        "entry": after["hands"][-1],
        "hands": after["hands"][start:-1],
        "names": _names_after(after),
    }


def _queued_hand(
    entry: Mapping[str, Any],
    work: dict[str, Any],
    ruleset: str,
    players: int,
    lances: Collection[str],
    said: Mapping[str, str] | None,
) -> dict[str, Any] | None:
    """The hand a waiting entry makes after those of ``work``; None when this phone cannot read it offline
    (an ajuste, a cambio de jugador: read by their own forms, on the server; or a hand that does not read)."""
    if entry.get("form") == "pass":
        return {"pass": True}
    if entry.get("form") != "hand":
        return None
    values = {str(k): v for k, v in entry.get("fields", [])}
    dealer = int(settle(work).get("next_dealer") or 1)
    return read_hand_fields(ruleset, values.get, players, dealer, lances, translated(said)).hand


def _refusal(reading: Reading) -> dict[str, Any]:
    """What keeps the form's hand from being worked out: the problems by field, and what is not filled in."""
    problems: dict[str, list[str]] = {}
    missing = [message for _name, message, gap in reading.problems if gap]
    for name, message, gap in reading.problems:
        if not gap:
            problems.setdefault(name, []).append(message)
    return {"ok": False, "problems": problems, "missing": missing}


def _names_after(ledger: Mapping[str, Any]) -> dict[str, str]:
    """R33: who sits where after the last change of player."""
    names = {str(seat): str(name) for seat, name in (ledger.get("players") or {}).items()}
    for made in ledger["hands"]:
        if isinstance(made.get("seating"), dict):
            names = {str(seat): str(name) for seat, name in made["seating"].items()}
    return names
