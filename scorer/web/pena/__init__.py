"""A peña's pages: ``/penas``, ``/penas/nueva``, ``/p/<token>…`` (standings, people, tables, season PDF).

``routes`` (blueprint ``pena``), ``forms``, ``present`` (its view-models), ``services`` (the stored
peñas), ``tables`` (a new table made from a peña's roster: the hooks the new-table page calls).
"""
