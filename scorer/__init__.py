"""Cartulina: scorekeeping and money ledger for tables of Tresillo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__version__ = "0.1.0"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the web app (``flask --app scorer run``); imported lazily to keep the engine light."""
    from scorer.web import create_app as factory

    return factory(test_config)
