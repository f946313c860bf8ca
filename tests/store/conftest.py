"""Fixtures of the store's tests: the web tests' ``app``, ``client``, ``runner`` and ``make_table``
(a store test drives the store through an app bound to a fresh database, as the web does)."""

from __future__ import annotations

from tests.web.conftest import app, app_config, client, make_app, make_table, runner

__all__ = ["app", "app_config", "client", "make_app", "make_table", "runner"]
