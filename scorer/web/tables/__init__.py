"""The table's pages: ``/`` (home), ``/nueva``, ``/importar``, ``/t/<token>…`` (the table, its hands,
exports, the forms kept for offline, the sheet's language) and ``/tables/<token>/sheet…`` (the PDF sheet).

``routes`` (blueprint ``tables``: the home page, a new table, the table page, import, export, the
sheet's language), ``hands`` (the hands' pages, same blueprint), ``forms`` (the hand form's page, its
stale and refused forms, its live payments), ``present`` (the view-models only these pages use),
``exports`` (the CSV), ``offline`` (blueprint ``offline``: the service worker, the forms of the next
deals and the table page as it will be offline), ``engine_files`` (blueprint ``engine``: the engine's
files for the phone, Pyodide) and ``sheet`` (blueprint ``sheet``). The table of the link is resolved
once per request (scorer/web/common/table.py).
"""
