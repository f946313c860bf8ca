"""The pages' messages for refusals, rendered from data (issue 13): code, field and parameters.

The engine (:mod:`scorer.engine.errors`), the limits (:mod:`scorer.web.limits`) and the
services (:mod:`scorer.web.services`, :mod:`scorer.web.pena_services`) raise errors that
carry a stable ``code``, the ``field`` they concern and their ``params``; their English
text is for the CLI and the JSON API only. Here each code has its Spanish template
(``MESSAGES``, literal strings with named placeholders, so a translation pass can wrap each
in ``gettext`` as it stands) and each engine field the form field its message goes next to
(``FORM_FIELDS``). No text of another layer is read back.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scorer.words import ALL_LANCE_WORDS, FALTA_WORDS, GAME_NAMES, SUITS

GENERAL = "general"  # the message of the hand (or form) as a whole, above its fields


class Coded(Protocol):
    """An error as data: SessionError, HandError, LimitError, services.Invalid."""

    code: str
    field: str | None
    params: dict[str, Any]


# Spanish templates, keyed by code. Placeholders: see ``_values`` (the engine's parameters
# made Spanish; ``what`` is the Spanish name of the error's field).
MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------ the session (engine core)
    "session_not_an_object": "No es un archivo de partida: ha de ser un objeto JSON.",
    "format_missing": "No es un archivo de partida (falta el formato {expected}).",
    "format_unknown": "No es un archivo de partida ({expected}): su formato es {value}.",
    "rules_not_an_object": "Las reglas de la partida están mal escritas: han de ser un objeto.",
    "ruleset_unknown": "Juego desconocido: {value}. Los juegos son {choices}.",
    "players_missing": "Faltan los jugadores.",
    "players_not_a_list": "Los jugadores han de ser una lista de nombres.",
    "player_count": "{ruleset} se juega con {counts} jugadores, no con {count}.",
    "player_name_missing": "Falta el nombre del asiento {seat}.",
    "player_name_twice": "El nombre «{name}» aparece dos veces.",
    "first_dealer_not_a_seat": "El que da primero ha de ser un asiento de 1 a {count}, no {value}.",
    "hands_not_a_list": "Las manos del archivo han de ser una lista.",
    "hand_not_an_object": "Una mano ha de ser un objeto, no {type}.",
    "ajuste_not_in_ruleset": "Ajustes y cambios de jugador son del Tresillo; este juego ({ruleset}) no los tiene.",
    "sienta_not_in_ruleset": "Ajustes y cambios de jugador son del Tresillo; este juego ({ruleset}) no los tiene.",
    "unknown_rule": "Regla desconocida: «{name}».",
    "unknown_rule_for_ruleset": "Regla desconocida para {ruleset}: «{name}».",
    # ------------------------------------------------------------ values
    "unknown_key": "Sobra el dato {key} en {entry}.",
    "missing_key": "Falta: {what}.",
    "not_a_seat_number": "{what}: ha de ser un número de asiento, no {value}.",
    "seat_out_of_range": "{what}: {value} no es un asiento (de 1 a {count}).",
    "not_a_whole_number": "{what}: ha de ser un número entero, no {value}.",
    "number_too_small": "{what}: ha de ser {low} o más, no {value}.",
    "number_out_of_range": "{what}: ha de ser un número de {low} a {high}, no {value}.",
    "unknown_word": "{what}: {value} no vale; elige {choices}.",
    "not_a_boolean": "{what}: ha de ser sí o no (true o false), no {value}.",
    "pass_not_true": "Una mano en que todos pasan se anota con «pass»: true, no {value}.",
    "entry_has_dealer": "{entry} no tiene quien da ({rule}).",
    "after_closing": "La partida está cerrada: no se anotan más manos.",
    # ------------------------------------------------------------ tricks (R10, O2)
    "tricks_not_an_object": "Las bazas se anotan por asiento: asiento y número de bazas.",
    "tricks_inactive_seat": "Solo anotan bazas los que juegan (asientos {active}), no el asiento {seat}.",
    "tricks_seat_twice": "Las bazas del asiento {seat} están anotadas dos veces.",
    "tricks_not_a_number": "Las bazas del asiento {seat} han de ser un número entero, no {value}.",
    "tricks_out_of_range": "Cada jugador hace de 0 a {total} bazas (el asiento {seat} tiene {value}).",
    "tricks_missing_seat": "Faltan las bazas de uno de los que juegan (asiento {seat}).",
    "tricks_too_many": "Las bazas suman {count}: son {total} en total.",
    "tricks_undecided": "Con {split} la mano no está decidida: anota las bazas que faltan.",
    # ------------------------------------------------------------ Tresillo: a played hand
    "jugador_is_alcalde": "El que da (alcalde) no juega esta mano: elige otro jugador.",
    "vuelta_solera_not_admitted": "En esta partida no se juega la vuelta solera.",
    "estuches_and_contraestuches": "No puede haber estuches y contraestuches a la vez.",
    "estuches_impossible": "No puede haber {value} {what}: 0, o de 3 a {top} con {trump}.",
    "defensor_without_rendida": "Solo hay defensor cuando el jugador se rinde: marca «rendida».",
    "rendida_with_bola": "Una mano rendida no tiene bola.",
    "rendida_with_primeras": "Una mano rendida no tiene primeras.",
    "rendida_lance": "Solo se rinde una entrada o una vuelta, no un {lance}.",
    "vuelta_rendida_defended": "Una vuelta rendida no se puede defender.",
    "defensor_not_contra": "El defensor ha de ser uno de la contra (asientos {contra}), no el asiento {seat}.",
    "defended_tricks_undecided": (
        "Con {split} (rendido, defensor, pobre) la mano no está decidida: anota las bazas que faltan."
    ),
    "tricks_after_primeras": (
        "Con {split} no puede ser: tras las primeras el jugador se planta con 5-0-0 o sigue a la bola hasta 9-0-0."
    ),
    "bola_hecha_not_nine": "Bola hecha: el jugador hace las nueve bazas (aquí {split}).",
    "bola_cortada_split": "Bola cortada: se acaba en la primera baza de la contra (5-1-0 a 8-1-0), no con {split}.",
    "primeras_jugador_split": (
        "Primeras del jugador: 5-0-0 (se planta), 9-0-0 (bola) o bola cortada (5-1-0 a 8-1-0), no {split}."
    ),
    "primeras_contra_split": "Primeras de la contra: solo cuando la mano es puesta (4-4-1, 3-3-3…), no con {split}.",
    # ------------------------------------------------------------ Tresillo: events (R32, R33)
    "ajuste_not_an_object": "Un ajuste dice quién paga, a quién y cuántos tantos.",
    "ajuste_bad_target": "Un ajuste va a un asiento, al plato o a todos, no a {value}.",
    "ajuste_to_itself": "Un ajuste va a otro jugador, al plato o a todos, no a sí mismo.",
    "sienta_not_an_object": "Un cambio de jugador dice el asiento y quién se sienta.",
    "sienta_player_not_a_name": "Escribe el nombre de quien se sienta.",
    "player_already_seated": "{name} ya está sentado en la mesa (asiento {seat}).",
    # ------------------------------------------------------------ pozo y viuda
    "jugador_is_dealer": "El que da (alcalde) no juega esta mano: elige otro jugador.",
    "contrabola_not_admitted": "En esta partida no se admite la contrabola.",
    "contrabola_matadores": "La contrabola se juega sin matadores: marca 0.",
    "declared_with_primeras": "Una {lance} declarada no tiene primeras.",
    "declared_with_bola": "Una {lance} declarada ya es la bola: deja «no» en la bola.",
    "declared_tricks_not_nine": "Una {lance} declarada se anota con las nueve bazas (aquí suman {count}).",
    "bola_cortada_not_won": "Bola cortada: el jugador gana la mano con 5 a 8 bazas, no con {split}.",
    "primeras_not_won": "Primeras del jugador: gana la mano con las cinco primeras bazas, no con {split}.",
    # ------------------------------------------------------------ ombre
    "session_over": "La partida ha terminado (manos acordadas o meta alcanzada): no se anota nada más.",
    "ombre_key": "Una mano de Ombre no lleva {what}.",
    # ------------------------------------------------------------ bandos
    "game_over": "El juego ha terminado: ganó el equipo {team}.",
    "bandos_no_closing": "El juego de bandos no se cierra: termina solo al llegar a la meta.",
    "bandos_no_pass": "En el juego de bandos no se pasa: anota las primeras o una falta.",
    "capote_without_primeras": "El capote es del equipo que hizo las seis bazas: elige antes sus primeras.",
    "hand_without_primeras": "Elige el equipo que hizo las tres primeras bazas, o anota la falta que acabó la mano.",
    "faltas_not_a_list": "Las faltas se anotan como una lista: quién la hizo y cuál fue.",
    "falta_not_an_object": "Revisa la falta {index}: ha de decir quién la hizo y cuál fue.",
    "falta_unknown_key": "Revisa la falta {index}: sobra el dato {key}.",
    "falta_missing_seat": "Revisa la falta {index}: falta quién la hizo.",
    "falta_missing_kind": "Revisa la falta {index}: falta cuál fue.",
    # ------------------------------------------------------------ the limits (scorer.web.limits)
    "text_not_a_string": "{what} ha de ser un texto.",
    "text_too_long": "{what} tiene más de {limit} caracteres.",
    "text_bad_char": "{what} tiene un carácter no permitido ({char}).",
    "tanto_value_range": "El valor del tanto ha de ser una cantidad de 0,01 a 1000, con dos decimales como mucho.",
    "number_not_finite": "Hay un número que no es finito.",
    "number_too_large": "Hay un número demasiado grande.",
    "too_deep": "Hay datos anidados a demasiada profundidad.",
    "too_many_items": "Hay demasiados elementos (más de {limit}).",
    "not_a_json_value": "Hay un valor que no es JSON.",
    "too_many_hands": "Demasiadas manos: como mucho {limit}.",
    "body_too_large": "Es demasiado grande: como mucho {kilobytes} KB.",
    # ------------------------------------------------------------ the services
    "not_json": "El archivo no es JSON válido (¿es un archivo de partida exportado de Cartulina?).",
    "request_id_too_long": "Este formulario está dañado (su identificador es demasiado largo): vuelve a abrirlo.",
    "request_id_not_printable": "Este formulario está dañado: vuelve a abrirlo.",
    "closing_unknown": "Elige cómo se cierra: se devuelve el plato o se reparte.",
    "if_match": "La revisión de la mano no es válida.",
    "not_found": "No encontramos esa partida o esa mano: revisa el enlace.",
    "view_link": "Este enlace es solo para mirar: no puede cambiar la partida.",
    "table_closed": "La partida está cerrada: ya no se puede cambiar.",
    "conflict": "Alguien ha cambiado esta mano mientras la editabas: vuelve a abrirla y repite el cambio.",
    "invalid": "Hay un dato que no es válido.",
    "failed": "Algo ha fallado.",
    "key_reused": "Esa petición ya se envió con otros datos: vuelve a abrir el formulario.",
    # ------------------------------------------------------------ the peñas (scorer.web.pena_services)
    "pena_not_found": "No encontramos esa peña, esa persona o esa partida: revisa el enlace.",
    "pena_view_link": "Este es el enlace para mirar la peña: no puede cambiarla.",
    "name_missing": "Falta {what}.",
    "name_twice": "{name} está dos veces en la lista.",
    "already_in_roster": "{name} ya está en la peña.",
    "already_in_roster_choose": "{name} ya está en la peña: elígela en la lista.",
    "which_person": "¿Quién es {name}? Puede ser {who}, o una persona nueva.",
    "no_such_person": "{name}: esa persona no es de esta peña.",
    "table_in_other_pena": "Esta partida ya es de otra peña.",
    "same_person_twice": "Dos nombres de la partida no pueden ser la misma persona.",
}

# The Spanish name of each field an error may concern: the hand's keys, the entries'
# keys, the session's keys and every rule option (as the new-table form labels them).
FIELD_WORDS: dict[str, str] = {
    "format": "el formato",
    "rules": "las reglas",
    "ruleset": "el juego",
    "players": "los jugadores",
    "first_dealer": "quien da la primera mano",
    "hands": "las manos",
    "jugador": "el jugador",
    "lance": "el lance",
    "trump": "el triunfo",
    "tricks": "las bazas",
    "estuches": "estuches",
    "contraestuches": "contraestuches",
    "primeras": "primeras",
    "bola": "bola",
    "rendida": "rendida",
    "defensor": "el defensor",
    "matadores": "los matadores",
    "matadores_en": "quién tuvo los tres matadores",
    "capote": "capote",
    "faltas": "las faltas",
    "close": "el cierre",
    "pass": "todos pasan",
    "dealer": "quien da",
    "ajuste": "el ajuste",
    "sienta": "el cambio de jugador",
    "from": "quién paga el ajuste",
    "to": "a quién va el ajuste",
    "amount": "los tantos del ajuste",
    "seat": "el asiento",
    "player": "quien se sienta",
    "note": "la nota",
    # rule options (format.md; the new-table form)
    "favor_suit": "la regla «Palo de favor»",
    "vuelta_solera": "la regla «Vuelta solera»",
    "dealer_stake": "la regla «Puesta del que da»",
    "enchilada": "la regla «Enchilada»",
    "rounding": "la regla «Redondeo»",
    "favor_doubling": "la regla «Doblar a favor»",
    "vuelta_at_favor": "la regla «Vuelta a favor»",
    "solo_codillo": "la regla «Solo perdido por codillo»",
    "failed_bola": "la regla «Bola cortada»",
    "pozo_stake": "la regla «Puesta al pozo»",
    "viuda_stake": "la regla «Puesta a la viuda»",
    "pozo_cap": "la regla «Tope del pozo»",
    "contrabola": "la regla «Contrabola»",
    "stake": "la regla «Pago de entrada y vuelta»",
    "solo_stake": "la regla «Pago del solo»",
    "vole_bonus": "la regla «Premio del vole»",
    "matador_bonus": "la regla «Premio de matadores»",
    "outcome": "la regla «Quién gana la mano»",
    "deals": "la regla «Manos de la partida»",
    "target": "la regla «Meta»",
    "fuera_de_turno": "la regla «Falta: fuera de turno»",
    "renuncio": "la regla «Falta: renuncio»",
}

# The form field a message goes next to, by the error's field; a field not listed (the
# session's keys, the rule options, None) puts it above the form ("general").
FORM_FIELDS: dict[str, str] = {
    # the hand forms (scorer.web.forms, scorer.web.games)
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
    "note": GENERAL,
}  # fmt: skip

# The kinds of entry an ``entry`` parameter names (scorer.engine.errors.ENTRIES).
ENTRY_WORDS: dict[str, str] = {
    "played": "una mano jugada",
    "passed": "una mano en que todos pasan",
    "hand": "una mano",
    "closing": "el cierre",
    "ajuste": "un ajuste",
    "ajuste_body": "el ajuste",
    "sienta": "un cambio de jugador",
    "sienta_body": "el cambio de jugador",
}

# JSON types a ``type`` parameter names (the engine gives Python's names).
TYPE_WORDS: dict[str, str] = {
    "int": "un número",
    "float": "un número",
    "str": "un texto",
    "list": "una lista",
    "bool": "un sí o no",
    "NoneType": "nada (null)",
}

# The names of what the limits check (scorer.web.limits ``what``), as the pages say them.
LIMIT_WORDS: dict[str, str] = {
    "name": "El nombre de la partida",
    "place": "El lugar",
    "currency": "La moneda",
    "notes": "El texto de las notas",
    "note": "La nota",
    "timezone": "La zona horaria",
    "date": "La fecha",
    "player_name": "El nombre del asiento {seat}",
    "sienta_player": "El nombre de quien se sienta",
    "key": "Una clave",
    "text": "Un texto",
    # the peñas
    "pena_name": "el nombre de la peña",
    "person_name": "el nombre de la persona",
    "a_person_name": "el nombre de una persona",
    "a_nickname": "un apodo",
    "nickname": "el apodo",
}


def _or(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" o {items[-1]}"


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" y {items[-1]}"


def _shown(value: object) -> str:
    """A value the user gave: a number as it is, anything else quoted «…» (the engine's ``repr`` loses its quotes)."""
    text = str(value)
    if text.lstrip("-").isdigit():
        return text
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return f"«{text}»"


# The values of the rule options (format.md), as the new-table form words them.
CHOICE_WORDS: dict[str, str] = {
    "double_rounded": "redondear y doblar",
    "round_doubled": "doblar y redondear",
    "codillo_only": "solo el codillo",
    "codillo_and_conditions": "codillo y condiciones",
    "pays_bola": "paga la bola",
    "free": "no paga",
    "majority_five": "5 bazas",
    "most_tricks": "más bazas que cada defensor",
}


def _word(value: object) -> str:
    """A word of the game (a lance, a suit, a rule set, a falta, a rule's value) as the pages say it."""
    text = str(value)
    known = GAME_NAMES.get(text) or FALTA_WORDS.get(text) or CHOICE_WORDS.get(text) or ALL_LANCE_WORDS.get(text)
    if known:
        return known
    return text if text in SUITS or text in ("devolver", "repartir") else _shown(text)


def field_words(field: str | None) -> str:
    if field is None:
        return "un dato"
    return FIELD_WORDS.get(field, f"«{field}»")


def _values(code: str, field: str | None, params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters of an error as the Spanish templates use them."""
    values: dict[str, Any] = {"what": field_words(field)}
    for name, value in params.items():
        if name == "entry":
            value = ENTRY_WORDS.get(str(value), str(value))
        elif name in ("lance", "ruleset", "trump"):
            value = _word(value)
        elif name == "choices":
            value = _or([_word(v) for v in value])
        elif name == "counts":
            value = _or([str(v) for v in value])
        elif name in ("active", "contra"):
            value = _and([str(v) for v in value])
        elif name == "type":
            value = TYPE_WORDS.get(str(value), str(value))
        elif name in ("value", "key", "expected") or (name == "seat" and isinstance(value, str)):
            value = _shown(value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10_000:
            value = f"{value:,}".replace(",", ".")  # 20.000
        values[name] = value
    if code == "body_too_large":
        values["kilobytes"] = f"{params['limit'] // 1000:,}".replace(",", ".")
    if "what" in params:  # the limits and the peñas name what they check
        values["what"] = LIMIT_WORDS.get(str(params["what"]), str(params["what"])).format(**values)
    return values


def render(code: str, params: Mapping[str, Any] | None = None, field: str | None = None) -> str:
    """The Spanish message of a code, filled with its parameters (a field's name opening it made capital)."""
    template = MESSAGES.get(code, MESSAGES["invalid"])
    text = template.format(**_values(code, field, params or {}))
    return text[:1].upper() + text[1:] if template.startswith(("{what}", "{entry}")) else text


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def form_field(error: Coded) -> str:
    """The form field the message of ``error`` goes next to ("general" for the form as a whole)."""
    return FORM_FIELDS.get(error.field or "", GENERAL)


def message(error: Coded) -> str:
    """The Spanish message of an error carrying code, field and params."""
    return render(error.code, error.params, error.field)


def explain(error: Coded) -> tuple[str, str]:
    """(form field, Spanish message) of an error: where the hand form shows it."""
    return form_field(error), message(error)
