"""The pages' messages for refusals, rendered from data: code, field and parameters.

The engine (:mod:`scorer.engine.errors`), the limits (:mod:`scorer.limits`) and the
services (:mod:`scorer.store`, :mod:`scorer.web.pena.services`) raise errors that
carry a stable ``code``, the ``field`` they concern and their ``params``; their English
text is for the CLI and the JSON API only. Here each code has its Spanish template
(``MESSAGES``, ``lazy_gettext`` of literal strings with named placeholders: rendered at request
time in the page's language, English from translations/) and each engine field the form field
its message goes next to (``FORM_FIELDS``). No text of another layer is read back.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from babel.lists import format_list
from babel.numbers import format_decimal
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from scorer import words
from scorer.games.text import CHOICE_WORDS
from scorer.words import ALL_LANCE_WORDS, FALTA_WORDS, GAME_NAMES, SUITS

GENERAL = "general"  # the message of the hand (or form) as a whole, above its fields


class Coded(Protocol):
    """An error as data: SessionError, HandError, LimitError, services.Invalid."""

    code: str
    field: str | None
    params: dict[str, Any]


# Spanish templates, keyed by code. Placeholders: see ``_values`` (the engine's parameters
# made Spanish; ``what`` is the Spanish name of the error's field).
MESSAGES: dict[str, LazyString] = {
    # ------------------------------------------------------------ the session (engine core)
    "session_not_an_object": _l("No es un archivo de partida: ha de ser un objeto JSON."),
    "format_missing": _l("No es un archivo de partida (falta el formato {expected})."),
    "format_unknown": _l("No es un archivo de partida ({expected}): su formato es {value}."),
    "rules_not_an_object": _l("Las reglas de la partida están mal escritas: han de ser un objeto."),
    "ruleset_unknown": _l("Juego desconocido: {value}. Los juegos son {choices}."),
    "players_missing": _l("Faltan los jugadores."),
    "players_not_a_list": _l("Los jugadores han de ser una lista de nombres."),
    "player_count": _l("{ruleset} se juega con {counts} jugadores, no con {count}."),
    "player_name_missing": _l("Falta el nombre del asiento {seat}."),
    "player_name_twice": _l("El nombre «{name}» aparece dos veces."),
    "first_dealer_not_a_seat": _l("El que da primero ha de ser un asiento de 1 a {count}, no {value}."),
    "hands_not_a_list": _l("Las manos del archivo han de ser una lista."),
    "hand_not_an_object": _l("Una mano ha de ser un objeto, no {type}."),
    "ajuste_not_in_ruleset": _l("Ajustes y cambios de jugador son del Tresillo; este juego ({ruleset}) no los tiene."),
    "sienta_not_in_ruleset": _l("Ajustes y cambios de jugador son del Tresillo; este juego ({ruleset}) no los tiene."),
    "unknown_rule": _l("Regla desconocida: «{name}»."),
    "unknown_rule_for_ruleset": _l("Regla desconocida para {ruleset}: «{name}»."),
    "rule_not_a_choice": _l("{what}: {value} no vale; elige {choices} ({rule})."),
    "rule_number_too_small": _l("{what}: ha de ser {low} o más, no {value} ({rule})."),
    "favor_not_in_ruleset": _l("El cambio de palo de favor es del Tresillo; este juego ({ruleset}) no lo tiene."),
    # ------------------------------------------------------------ values
    "unknown_key": _l("Sobra el dato {key} en {entry}."),
    "missing_key": _l("Falta: {what}."),
    "not_a_seat_number": _l("{what}: ha de ser un número de asiento, no {value}."),
    "seat_out_of_range": _l("{what}: {value} no es un asiento (de 1 a {count})."),
    "not_a_whole_number": _l("{what}: ha de ser un número entero, no {value}."),
    "number_too_small": _l("{what}: ha de ser {low} o más, no {value}."),
    "number_out_of_range": _l("{what}: ha de ser un número de {low} a {high}, no {value}."),
    "unknown_word": _l("{what}: {value} no vale; elige {choices}."),
    "not_a_boolean": _l("{what}: ha de ser sí o no (true o false), no {value}."),
    "pass_not_true": _l("Una mano en que todos pasan se anota con «pass»: true, no {value}."),
    "entry_has_dealer": _l("{entry} no tiene quien da ({rule})."),
    "after_closing": _l("La partida está cerrada ({rule}): no se anotan más manos."),
    # ------------------------------------------------------------ tricks (R10, O2)
    "tricks_not_an_object": _l("Las bazas se anotan por asiento: asiento y número de bazas."),
    "tricks_inactive_seat": _l("Solo anotan bazas los que juegan (asientos {active}), no el asiento {seat}."),
    "tricks_seat_twice": _l("Las bazas del asiento {seat} están anotadas dos veces."),
    "tricks_not_a_number": _l("Las bazas del asiento {seat} han de ser un número entero, no {value}."),
    "tricks_out_of_range": _l("Cada jugador hace de 0 a {total} bazas (el asiento {seat} tiene {value})."),
    "tricks_missing_seat": _l("Faltan las bazas de uno de los que juegan (asiento {seat})."),
    "tricks_too_many": _l("Las bazas suman {count}: son {total} en total."),
    "tricks_undecided": _l("Con {split} la mano no está decidida: anota las bazas que faltan."),
    # ------------------------------------------------------------ Tresillo: a played hand
    "jugador_is_alcalde": _l("El que da (alcalde) no juega esta mano: elige otro jugador."),
    "vuelta_solera_not_admitted": _l("En esta partida no se juega la vuelta solera."),
    "estuches_and_contraestuches": _l("No puede haber estuches y contraestuches a la vez."),
    "estuches_impossible": _l("No puede haber {value} {what}: 0, o de 3 a {top} con {trump}."),
    "defensor_without_rendida": _l("Solo hay defensor cuando el jugador se rinde: marca «rendida»."),
    "rendida_with_bola": _l("Una mano rendida no tiene bola."),
    "rendida_with_primeras": _l("Una mano rendida no tiene primeras."),
    "rendida_lance": _l("Solo se rinde una entrada o una vuelta, no un {lance}."),
    "vuelta_rendida_defended": _l("Una vuelta rendida no se puede defender."),
    "defensor_not_contra": _l("El defensor ha de ser uno de la contra (asientos {contra}), no el asiento {seat}."),
    "defended_tricks_undecided": _l(
        "Con {split} (rendido, defensor, pobre) la mano no está decidida: anota las bazas que faltan."
    ),
    "tricks_after_primeras": _l(
        "Con {split} no puede ser: tras las primeras el jugador se planta con 5-0-0 o sigue a la bola hasta 9-0-0."
    ),
    "bola_hecha_not_nine": _l("Bola hecha: el jugador hace las nueve bazas (aquí {split})."),
    "bola_cortada_split": _l("Bola cortada: se acaba en la primera baza de la contra (5-1-0 a 8-1-0), no con {split}."),
    "primeras_jugador_split": _l(
        "Primeras del jugador: 5-0-0 (se planta), 9-0-0 (bola) o bola cortada (5-1-0 a 8-1-0), no {split}."
    ),
    "primeras_contra_split": _l(
        "Primeras de la contra: solo cuando la mano es puesta (4-4-1, 3-3-3…), no con {split}."
    ),
    # ------------------------------------------------------------ Tresillo: events (R32, R33)
    "ajuste_not_an_object": _l("Un ajuste dice quién paga, a quién y cuántos tantos."),
    "ajuste_bad_target": _l("Un ajuste va a un asiento, al plato o a todos, no a {value}."),
    "ajuste_to_itself": _l("Un ajuste va a otro jugador, al plato o a todos, no a sí mismo."),
    "sienta_not_an_object": _l("Un cambio de jugador dice el asiento y quién se sienta."),
    "sienta_player_not_a_name": _l("Escribe el nombre de quien se sienta."),
    "player_already_seated": _l("{name} ya está sentado en la mesa (asiento {seat})."),
    # ------------------------------------------------------------ pozo y viuda
    "jugador_is_dealer": _l("El que da (alcalde) no juega esta mano: elige otro jugador."),
    "contrabola_not_admitted": _l("En esta partida no se admite la contrabola."),
    "contrabola_matadores": _l("La contrabola se juega sin matadores: marca 0."),
    "declared_with_primeras": _l("Una {lance} declarada no tiene primeras."),
    "declared_with_bola": _l("Una {lance} declarada ya es la bola: deja «no» en la bola."),
    "declared_tricks_not_nine": _l("Una {lance} declarada se anota con las nueve bazas (aquí suman {count})."),
    "bola_cortada_not_won": _l(
        "Bola cortada: el jugador hace de 5 a 8 bazas y la contra alguna; se anota jugada hasta"
        " las nueve (7-2-0) o parada en la primera baza de la contra (6-1-0), no con {split}."
    ),
    "primeras_not_won": _l(
        "Primeras del jugador: 5-0-0, 9-0-0 o una bola cortada (de 5 a 8 bazas y alguna de la contra), no {split}."
    ),
    "tricks_after_five": _l(
        "Con {split}: quien hace las cinco primeras bazas se planta (5-0-0) o sigue a por la bola hasta el final."
    ),
    # ------------------------------------------------------------ ombre
    "session_over": _l(
        "La partida ha terminado (manos acordadas o meta alcanzada): no se anota nada más, tampoco el cierre."
    ),
    "favor_same_suit": _l("El palo de favor ya es {suit}: el cambio ha de nombrar otro palo (R34)."),
    "ombre_key": _l("Una mano de Ombre no lleva {what}."),
    # ------------------------------------------------------------ bandos
    "game_over": _l("El juego ha terminado: ganó el equipo {team}."),
    "bandos_no_closing": _l("El juego de bandos no se cierra: termina solo al llegar a la meta."),
    "bandos_no_pass": _l("En el juego de bandos no se pasa: anota las primeras o una falta."),
    "capote_without_primeras": _l("El capote es del equipo que hizo las seis bazas: elige antes sus primeras."),
    "hand_without_primeras": _l(
        "Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano."
    ),
    "faltas_not_a_list": _l("Las faltas se anotan como una lista: quién la hizo y cuál fue."),
    "falta_not_an_object": _l("Revisa la falta {index}: ha de decir quién la hizo y cuál fue."),
    "falta_unknown_key": _l("Revisa la falta {index}: sobra el dato {key}."),
    "falta_missing_seat": _l("Revisa la falta {index}: falta quién la hizo."),
    "falta_missing_kind": _l("Revisa la falta {index}: falta cuál fue."),
    "primeras_none_not_literal": _l(
        "«Nadie» en las primeras solo vale si las primeras son las tres primeras bazas (regla de tantos);"
        " si no, siempre hay un equipo que llega antes a tres bazas (B5)."
    ),
    "primeras_none_with_capote": _l("Con capote, el equipo que hizo las seis bazas hizo también las tres primeras."),
    # ------------------------------------------------------------ the limits (scorer.limits)
    "text_not_a_string": _l("{what} ha de ser un texto."),
    "text_too_long": _l("{what} tiene más de {limit} caracteres."),
    "text_bad_char": _l("{what} tiene un carácter no permitido ({char})."),
    "tanto_value_range": _l("El valor del tanto ha de ser una cantidad de 0,01 a 1000, con dos decimales como mucho."),
    "number_not_finite": _l("Hay un número que no es finito."),
    "number_too_large": _l("Hay un número demasiado grande."),
    "too_deep": _l("Hay datos anidados a demasiada profundidad."),
    "too_many_items": _l("Hay demasiados elementos (más de {limit})."),
    "not_a_json_value": _l("Hay un valor que no es JSON."),
    "too_many_hands": _l("Demasiadas manos: como mucho {limit}."),
    "body_too_large": _l("Es demasiado grande: como mucho {kilobytes} KB."),
    # ------------------------------------------------------------ the services
    "not_json": _l("El archivo no es JSON válido (¿es un archivo de partida exportado de Cartulina?)."),
    "request_id_too_long": _l("Este formulario está dañado (su identificador es demasiado largo): vuelve a abrirlo."),
    "request_id_not_printable": _l("Este formulario está dañado: vuelve a abrirlo."),
    "closing_unknown": _l("Elige cómo se cierra: se devuelve el plato o se reparte."),
    "if_match": _l("La revisión de la mano no es válida."),
    "not_found": _l("No encontramos esa partida o esa mano: revisa el enlace."),
    "view_link": _l("Este enlace es solo para mirar: no puede cambiar la partida."),
    "table_closed": _l("La partida está cerrada ({rule}): ya no se puede cambiar."),
    "conflict": _l("Alguien ha cambiado esta mano mientras la editabas: vuelve a abrirla y repite el cambio."),
    "invalid": _l("Hay un dato que no es válido."),
    "failed": _l("Algo ha fallado."),
    "key_reused": _l("Esa petición ya se envió con otros datos: vuelve a abrir el formulario."),
    # ------------------------------------------------------------ the peñas (scorer.web.pena.services)
    "pena_not_found": _l("No encontramos esa peña, esa persona o esa partida: revisa el enlace."),
    "pena_view_link": _l("Este es el enlace para mirar la peña: no puede cambiarla."),
    "name_missing": _l("Falta {what}."),
    "name_twice": _l("{name} está dos veces en la lista."),
    "already_in_roster": _l("{name} ya está en la peña."),
    "already_in_roster_choose": _l("{name} ya está en la peña: elígela en la lista."),
    "which_person": _l("¿Quién es {name}? Puede ser {who}, o una persona nueva."),
    "no_such_person": _l("{name}: esa persona no es de esta peña."),
    "table_in_other_pena": _l("Esta partida ya es de otra peña."),
    "same_person_twice": _l("Dos nombres de la partida no pueden ser la misma persona."),
}

# The Spanish name of each field an error may concern: the hand's keys, the entries'
# keys, the session's keys and every rule option (as the new-table form labels them).
FIELD_WORDS: dict[str, LazyString] = {
    "format": _l("el formato"),
    "rules": _l("las reglas"),
    "ruleset": _l("el juego"),
    "players": _l("los jugadores"),
    "first_dealer": _l("quien da la primera mano"),
    "hands": _l("las manos"),
    "jugador": _l("el jugador"),
    "lance": _l("el lance"),
    "trump": _l("el triunfo"),
    "tricks": _l("las bazas"),
    "estuches": _l("estuches"),
    "contraestuches": _l("contraestuches"),
    "primeras": _l("primeras"),
    "bola": _l("bola"),
    "rendida": _l("rendida"),
    "defensor": _l("el defensor"),
    "matadores": _l("los matadores"),
    "matadores_en": _l("quién tuvo los tres matadores"),
    "capote": _l("capote"),
    "faltas": _l("las faltas"),
    "close": _l("el cierre"),
    "pass": _l("todos pasan"),
    "dealer": _l("quien da"),
    "ajuste": _l("el ajuste"),
    "sienta": _l("el cambio de jugador"),
    "from": _l("quién paga el ajuste"),
    "to": _l("a quién va el ajuste"),
    "amount": _l("los tantos del ajuste"),
    "seat": _l("el asiento"),
    "player": _l("quien se sienta"),
    "note": _l("la nota"),
    # rule options (format.md; the new-table form)
    "favor_suit": _l("la regla «Palo de favor»"),
    "vuelta_solera": _l("la regla «Vuelta solera»"),
    "dealer_stake": _l("la regla «Puesta del que da»"),
    "enchilada": _l("la regla «Enchilada»"),
    "rounding": _l("la regla «Redondeo»"),
    "favor_doubling": _l("la regla «Doblar a favor»"),
    "vuelta_at_favor": _l("la regla «Vuelta a favor»"),
    "solo_codillo": _l("la regla «Solo perdido por codillo»"),
    "failed_bola": _l("la regla «Bola cortada»"),
    "pozo_stake": _l("la regla «Puesta al pozo»"),
    "viuda_stake": _l("la regla «Puesta a la viuda»"),
    "pozo_cap": _l("la regla «Tope del pozo»"),
    "contrabola": _l("la regla «Contrabola»"),
    "stake": _l("la regla «Pago de entrada y vuelta»"),
    "solo_stake": _l("la regla «Pago del solo»"),
    "vole_bonus": _l("la regla «Premio del vole»"),
    "matador_bonus": _l("la regla «Premio de matadores»"),
    "outcome": _l("la regla «Quién gana la mano»"),
    "deals": _l("la regla «Manos de la partida»"),
    "target": _l("la regla «Meta»"),
    "fuera_de_turno": _l("la regla «Falta: fuera de turno»"),
    "renuncio": _l("la regla «Falta: renuncio»"),
    "codille": _l("la regla «Pago del codille»"),
    "scoring": _l("la regla «Tantos de la mano»"),
    "favor": _l("el cambio de palo de favor"),
}

# The form field a message goes next to, by the error's field; a field not listed (the
# session's keys, the rule options, None) puts it above the form ("general").
FORM_FIELDS: dict[str, str] = {
    # the hand forms (scorer.web.common.forms, scorer.games)
    **{name: name for name in ("jugador", "lance", "trump", "tricks", "estuches", "contraestuches", "primeras",
                               "bola", "rendida", "defensor", "matadores", "matadores_en", "capote", "faltas")},
    # the ajuste and cambio forms (scorer.web.evening_forms)
    "from": "payer",
    "to": "to",
    "amount": "amount",
    "seat": "seat",
    "player": "player",
    # a passed hand, a closing, the events as a whole: the hand as a whole
    "pass": GENERAL,
    "close": GENERAL,
    "dealer": GENERAL,
    "ajuste": GENERAL,
    "sienta": GENERAL,
    "favor": GENERAL,
    "note": GENERAL,
}  # fmt: skip

# The kinds of entry an ``entry`` parameter names (scorer.engine.errors.ENTRIES).
ENTRY_WORDS: dict[str, LazyString] = {
    "played": _l("una mano jugada"),
    "passed": _l("una mano en que todos pasan"),
    "hand": _l("una mano"),
    "closing": _l("el cierre"),
    "ajuste": _l("un ajuste"),
    "ajuste_body": _l("el ajuste"),
    "sienta": _l("un cambio de jugador"),
    "sienta_body": _l("el cambio de jugador"),
    "favor": _l("un cambio de palo de favor"),
}

# JSON types a ``type`` parameter names (the engine gives Python's names).
TYPE_WORDS: dict[str, LazyString] = {
    "int": _l("un número"),
    "float": _l("un número"),
    "str": _l("un texto"),
    "list": _l("una lista"),
    "bool": _l("un sí o no"),
    "NoneType": _l("nada (null)"),
}

# The names of what the limits check (scorer.limits ``what``), as the pages say them.
LIMIT_WORDS: dict[str, LazyString] = {
    "name": _l("El nombre de la partida"),
    "place": _l("El lugar"),
    "currency": _l("La moneda"),
    "notes": _l("El texto de las notas"),
    "note": _l("La nota"),
    "timezone": _l("La zona horaria"),
    "date": _l("La fecha"),
    "player_name": _l("El nombre del asiento {seat}"),
    "sienta_player": _l("El nombre de quien se sienta"),
    "key": _l("Una clave"),
    "text": _l("Un texto"),
    # the peñas
    "pena_name": _l("el nombre de la peña"),
    "person_name": _l("el nombre de la persona"),
    "a_person_name": _l("el nombre de una persona"),
    "a_nickname": _l("un apodo"),
    "nickname": _l("el apodo"),
}


def _or(items: Sequence[str]) -> str:
    """ "a, b o c" / "a, b, or c": the locale's list (Babel)."""
    return format_list(list(items), style="or", locale=words.language())


def _and(items: Sequence[str]) -> str:
    return format_list(list(items), style="standard", locale=words.language())


def _number(value: int) -> str:
    """20.000 / 20,000: the locale's grouping (Babel)."""
    return format_decimal(value, format="#,##0", locale=words.language())


def _shown(value: object) -> str:
    """A value the user gave: a number as it is, anything else quoted «…» (the engine's ``repr`` loses its quotes)."""
    text = str(value)
    if text.lstrip("-").isdigit():
        return text
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return _("«%(text)s»", text=text)


def _word(value: object) -> str:
    """A word of the game (a lance, a suit, a rule set, a falta, a rule's value) as the pages say it."""
    text = str(value)
    known = GAME_NAMES.get(text) or FALTA_WORDS.get(text) or CHOICE_WORDS.get(text) or ALL_LANCE_WORDS.get(text)
    if known:
        return str(known)
    return text if text in SUITS or text in ("devolver", "repartir") else _shown(text)


def field_words(field: str | None) -> str:
    if field is None:
        return _("un dato")
    known = FIELD_WORDS.get(field)
    return str(known) if known is not None else _("«%(text)s»", text=field)


def _entry(value: Any) -> str:
    return str(ENTRY_WORDS.get(str(value), str(value)))


def _type(value: Any) -> str:
    return str(TYPE_WORDS.get(str(value), str(value)))


# how each named parameter of an error is said; the others as they are (a big number grouped)
SAID: dict[str, Callable[[Any], str]] = {
    "entry": _entry,
    "lance": _word,
    "ruleset": _word,
    "trump": _word,
    "choices": lambda value: _or([_word(v) for v in value]),
    "counts": lambda value: _or([str(v) for v in value]),
    "active": lambda value: _and([str(v) for v in value]),
    "contra": lambda value: _and([str(v) for v in value]),
    "type": _type,
    "value": _shown,
    "key": _shown,
    "expected": _shown,
}


def _said(name: str, value: Any) -> Any:
    """One parameter as the Spanish templates use it."""
    say = SAID.get(name)
    if say is not None:
        return say(value)
    if name == "seat" and isinstance(value, str):
        return _shown(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
        return _number(value)  # 20.000
    return value


def _values(code: str, field: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of an error as the Spanish templates use them."""
    values: dict[str, Any] = {"what": field_words(field)}
    values.update({name: _said(name, value) for name, value in params.items()})
    if code == "body_too_large":
        values["kilobytes"] = _number(params["limit"] // 1000)
    if "what" in params:  # the limits and the peñas name what they check
        values["what"] = str(LIMIT_WORDS.get(str(params["what"]), str(params["what"]))).format(**values)
    return values


def render(code: str, params: Mapping[str, Any] | None = None, field: str | None = None) -> str:
    """The message of a code in the page's language, filled with its parameters (an opening field name made capital)."""
    template = str(MESSAGES.get(code, MESSAGES["invalid"]))
    text = template.format(**_values(code, field, params or {}))
    return text[:1].upper() + text[1:] if template.startswith(("{what}", "{entry}")) else text


def placeholders(template: str | LazyString) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(str(template)) if name}


def form_field(error: Coded) -> str:
    """The form field the message of ``error`` goes next to ("general" for the form as a whole)."""
    return FORM_FIELDS.get(error.field or "", GENERAL)


def message(error: Coded) -> str:
    """The Spanish message of an error carrying code, field and params."""
    return render(error.code, error.params, error.field)


def explain(error: Coded) -> tuple[str, str]:
    """(form field, Spanish message) of an error: where the hand form shows it."""
    return form_field(error), message(error)
