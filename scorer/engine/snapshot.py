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
from collections.abc import Callable
from functools import cache
from typing import Any, Final

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
    if isinstance(value, tuple):
        return _encode_tuple(value)
    if isinstance(value, list):
        return [encode(x) for x in value]
    if isinstance(value, dict):
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"c": _name(type(value)), "f": fields}
    raise ValueError(f"cannot write a {type(value).__name__} into a snapshot")


def _encode_tuple(value: tuple[Any, ...]) -> Any:
    """A plain tuple, a named tuple, or a linked list of named tuples (its last field the next cell) kept flat."""
    cls = type(value)
    if not hasattr(cls, "_fields"):
        return {"t": [encode(x) for x in value]}
    if not (value and type(value[-1]) is cls):
        return {"c": _name(cls), "v": [encode(x) for x in value]}
    chain = []
    while type(value) is cls:
        chain.append([encode(x) for x in value[:-1]])
        value = value[-1]
    return {"c": _name(cls), "chain": chain, "end": encode(value)}


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote; ValueError for anything it could not have written."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [decode(x) for x in data]
    if not isinstance(data, dict) or len(data) not in (1, 2, 3):
        raise ValueError("not a snapshot value")
    return _decode_tagged(data)


def _decode_tagged(data: dict[str, Any]) -> Any:
    """A tuple (``t``), a mapping (``d``) or an instance of a rule set's class (``c``)."""
    if set(data) == {"t"} and isinstance(data["t"], list):
        return tuple(decode(x) for x in data["t"])
    if set(data) == {"d"} and isinstance(data["d"], list):
        return _decode_mapping(data["d"])
    return _decode_instance(data)


def _decode_mapping(items: list[Any]) -> dict[Any, Any]:
    pairs = [decode(p) for p in items]
    if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
        raise ValueError("not a snapshot mapping")
    return {k: v for k, v in pairs}


def _decode_instance(data: dict[str, Any]) -> Any:
    """One of the rule sets' named tuples (``v``, or a flat ``chain``) or dataclasses (``f``)."""
    name = data.get("c")
    cls = _classes().get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown class in a snapshot: {str(data.get('c'))[:40]!r}")
    reader = _READERS.get(frozenset(data))
    try:
        if reader is not None:
            key, shape, is_dataclass, read = reader
            if isinstance(data[key], shape) and is_dataclass == dataclasses.is_dataclass(cls):
                return read(cls, data)
    except TypeError as exc:  # missing or unknown fields
        raise ValueError(f"bad {data['c']} in a snapshot: {exc}") from None
    raise ValueError("not a snapshot value")


def _named_tuple(cls: type, data: dict[str, Any]) -> Any:
    return cls(*(decode(x) for x in data["v"]))


def _chain(cls: type, data: dict[str, Any]) -> Any:
    value = decode(data["end"])
    for cell in reversed(data["chain"]):
        if not isinstance(cell, list):
            raise ValueError("not a snapshot chain")
        value = cls(*(decode(x) for x in cell), value)
    return value


def _dataclass(cls: type, data: dict[str, Any]) -> Any:
    return cls(**{str(k): decode(v) for k, v in data["f"].items()})


# the keys of a tagged value: (the key holding its body, the body's type, whether the class is a
# dataclass, how to read it)
_READERS: Final[dict[frozenset[str], tuple[str, type, bool, Callable[[type, dict[str, Any]], Any]]]] = {
    frozenset(("c", "v")): ("v", list, False, _named_tuple),
    frozenset(("c", "chain", "end")): ("chain", list, False, _chain),
    frozenset(("c", "f")): ("f", dict, True, _dataclass),
}
