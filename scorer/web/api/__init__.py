"""The JSON API (docs/api.md): ``/api/tables…`` (``tables``, blueprint ``api``), the offline queue's
``/api/tables/<token>/entries/form`` (``entries``, same blueprint), ``/api/penas…`` (``penas``, blueprint
``pena_api``); ``common`` holds what they share (reading a JSON body, errors as JSON).
"""
