"""A rule set's state as JSON and back, for :meth:`Settlement.snapshot` and :func:`resume`.

States are immutable values made of ``None``, booleans, integers, strings, tuples,
lists, dicts and the rule sets' own dataclasses and named tuples. Each is written as
plain JSON with a small tag where JSON has no such type::

    (1, 2)                 {"t": [1, 2]}
    {1: "a"}               {"d": [[1, "a"]]}
    Puesta(1, 2, …)        {"c": "tresillo.Puesta", "v": [1, 2, …]}        (named tuple)
    Options(stake=10, …)   {"c": "ombre.Options", "f": {"stake": 10, …}}   (dataclass)
    Closed(p, Closed(q, None))  {"c": "tresillo.Closed", "chain": [[p], [q]], "end": None}
                           (a named tuple whose last field is the next cell: a history, kept flat)

Reading accepts only the classes defined in the rule set modules (never an arbitrary
name) and raises ValueError on anything else: a snapshot is data, not code.
"""

from __future__ import annotations

import dataclasses
import sys
from functools import cache
from typing import Any

from .registry import RULESETS

JSON = dict[str, Any]


class SnapshotError(ValueError):
    """A snapshot that cannot be resumed: malformed, damaged, or of another table's rule set or players."""


@cache
def _classes() -> dict[str, type]:
    """The dataclasses and named tuples of the rule set modules, by ``module.Class``."""
    found: dict[str, type] = {}
    for ruleset in RULESETS.values():
        module = sys.modules[type(ruleset).__module__]
        short = module.__name__.rsplit(".", 1)[-1]
        for value in vars(module).values():
            ours = isinstance(value, type) and value.__module__ == module.__name__
            if ours and (dataclasses.is_dataclass(value) or (issubclass(value, tuple) and hasattr(value, "_fields"))):
                found[f"{short}.{value.__qualname__}"] = value
    return found


def _name(cls: type) -> str:
    return f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"


def encode(value: Any) -> Any:
    """A state (or any part of it) as JSON-ready data."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    cls = type(value)
    if isinstance(value, tuple):
        if hasattr(cls, "_fields"):
            if value and type(value[-1]) is cls:  # a linked list (its last field the next cell): flat
                chain = []
                while type(value) is cls:
                    chain.append([encode(x) for x in value[:-1]])
                    value = value[-1]
                return {"c": _name(cls), "chain": chain, "end": encode(value)}
            return {"c": _name(cls), "v": [encode(x) for x in value]}
        return {"t": [encode(x) for x in value]}
    if isinstance(value, list):
        return [encode(x) for x in value]
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"c": _name(cls), "f": fields}
    raise ValueError(f"cannot write a {cls.__name__} into a snapshot")


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote; ValueError for anything it could not have written."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [decode(x) for x in data]
    if not isinstance(data, dict) or len(data) not in (1, 2, 3):
        raise ValueError("not a snapshot value")
    if set(data) == {"t"} and isinstance(data["t"], list):
        return tuple(decode(x) for x in data["t"])
    if set(data) == {"d"} and isinstance(data["d"], list):
        pairs = [decode(p) for p in data["d"]]
        if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
            raise ValueError("not a snapshot mapping")
        return {k: v for k, v in pairs}
    name = data.get("c")
    cls = _classes().get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown class in a snapshot: {str(data.get('c'))[:40]!r}")
    try:
        if set(data) == {"c", "v"} and isinstance(data["v"], list) and not dataclasses.is_dataclass(cls):
            return cls(*(decode(x) for x in data["v"]))
        if set(data) == {"c", "chain", "end"} and isinstance(data["chain"], list) and not dataclasses.is_dataclass(cls):
            value = decode(data["end"])
            for cell in reversed(data["chain"]):
                if not isinstance(cell, list):
                    raise ValueError("not a snapshot chain")
                value = cls(*(decode(x) for x in cell), value)
            return value
        if set(data) == {"c", "f"} and isinstance(data["f"], dict) and dataclasses.is_dataclass(cls):
            return cls(**{str(k): decode(v) for k, v in data["f"].items()})
    except TypeError as exc:  # missing or unknown fields
        raise ValueError(f"bad {data['c']} in a snapshot: {exc}") from None
    raise ValueError("not a snapshot value")
