"""The printable session sheet: settle-up, balance chart, HTML and PDF (WeasyPrint)."""

from __future__ import annotations

from .settleup import Payment, settle_up

__all__ = ["Payment", "settle_up"]
