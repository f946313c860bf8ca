"""The printable session sheet: settle-up, balance chart, HTML and PDF (WeasyPrint).

- :mod:`.context`: everything the sheet shows, as plain values (``sheet_context``), section by section;
  :mod:`.rows` its hand table, :mod:`.accounts` the settle-up in words, :mod:`.chart` the balance chart,
  :mod:`.text` the small formatters they share.
- :mod:`.build`: the sheet as HTML and as a PDF, and the PDF within a time budget (``render_pdf_within``);
  :mod:`.lines` the PDF's hand lines and cartulina, :mod:`.printed` the printed sheets' Jinja environment
  (the peña's season sheet uses it too).
- :mod:`.settleup`: the fewest payments that square the balances (the peña's too).
"""

from __future__ import annotations

from .settleup import Payment, settle_up

__all__ = ["Payment", "settle_up"]
