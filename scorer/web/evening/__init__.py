"""The events of an evening of Tresillo: ``/t/<token>/ajuste`` (R32), ``/t/<token>/cambio`` (R33, cambio
de jugador), ``/t/<token>/favor`` (R34, cambio de palo de favor), ``/t/<token>/cerrar`` and ``/t/<token>/fin``
(R30, the closing and "jugar hasta que se gane el plato").

``routes`` (blueprint ``evening``), ``forms`` (the closing's), ``present`` (an entry previewed, the two
closings, what a change at each seat cancels), ``favor`` (the favour suit's page and the table page's words
of it). What the other blueprints show of the evening (balances by person, the end of the evening, the
seating of an entry) and the entry forms the offline queue reads are in ``scorer/web/common/evening.py``
and ``evening_forms.py``; the closings and the "última vuelta" mark are written by ``scorer.store``.
"""
