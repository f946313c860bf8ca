"""The events of an evening of Tresillo: ``/t/<token>/ajuste`` (R32), ``/t/<token>/cambio`` (R33, cambio
de jugador), ``/t/<token>/cerrar`` and ``/t/<token>/fin`` (R30, the closing and "jugar hasta que se gane el
plato").

``routes`` (blueprint ``evening``), ``forms``, ``services`` (closing previews, the chosen ending).
"""
