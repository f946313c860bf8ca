"""The table's pages: ``/`` (home), ``/nueva``, ``/importar``, ``/t/<token>…`` (the table, its hands,
exports, the forms kept for offline, the sheet's language) and ``/tables/<token>/sheet…`` (the PDF sheet).

``routes`` (blueprint ``tables``), ``remember`` (the tables this browser keeps), ``offline``
(blueprint ``offline``: the service worker, the forms of the next deals and the table page as it will
be offline), ``engine_files`` (blueprint ``engine``: the engine's files for the phone, Pyodide, issue
24), ``sheet`` (blueprint
``sheet``), ``services`` and ``present`` (what only these pages use).
"""
