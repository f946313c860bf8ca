"""The JSON API (docs/api.md): ``/api/tables…`` (``routes``, blueprint ``api``; ``present``: the
shapes of its answers), the offline queue's ``/api/tables/<token>/entries/form`` (``entries``, same
blueprint; ``forms``: the forms a phone keeps, read by their pages' own readers; ``queue``: where a
queued entry may go, never two copies of a deal), ``/api/penas…`` (``penas``, blueprint
``pena_api``); ``common`` holds what they share (reading a JSON body, errors as JSON).
"""
