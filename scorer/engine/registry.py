"""The rule sets a session can name in ``rules.ruleset``."""

from __future__ import annotations

from .bandos import BANDOS
from .core import Ruleset, SessionError, describe
from .ombre import OMBRE
from .pozo_viuda import POZO_VIUDA
from .tresillo import TRESILLO

RULESETS: dict[str, Ruleset] = {r.name: r for r in (TRESILLO, POZO_VIUDA, OMBRE, BANDOS)}


def get_ruleset(name: object) -> Ruleset:
    """The rule set called ``name``; SessionError for an unknown one."""
    if isinstance(name, str) and name in RULESETS:
        return RULESETS[name]
    raise SessionError("ruleset_unknown", "ruleset", value=describe(name), choices=sorted(RULESETS))
