"""The JSON API (docs/api.md): ``/api/tables…`` (``tables``, blueprint ``api``), the offline queue's
``/api/tables/<token>/entries/form`` (``entries``, same blueprint; ``queue``: where a queued entry
may go, never two copies of a deal), ``/api/penas…`` (``penas``, blueprint
``pena_api``); ``common`` holds what they share (reading a JSON body, errors as JSON).
"""
