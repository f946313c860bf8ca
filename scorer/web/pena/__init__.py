"""A peña's pages: ``/penas``, ``/penas/nueva``, ``/p/<token>…`` (standings, people, tables, season PDF).

``routes`` (blueprint ``pena``), ``forms`` (and the pick of a new table's players), ``present`` (its
view-models). The stored peñas are ``scorer.store.penas``; the hooks the new-table page calls to make a
table an evening of the peña are in ``scorer/web/common/pena_tables.py``.
"""
