"""gunicorn's settings for Cartulina: ``gunicorn -c python:scorer.web.gunicorn_settings``.

Read by ``make serve`` and by the server files made for a deployment; the command line's own
options (``-w``, ``-b``, the app) still win over these.

gunicorn answers a header field longer than its default 8190 bytes itself, with an HTML 431,
before the app sees the request: an API client sending an over-long ``Idempotency-Key`` would get
no JSON and no reason. With room for fields up to 32 KB the app reads the header and answers as
for any other bad value (400, JSON, naming the header and its limit: scorer.limits.REQUEST_ID_MAX).
A field longer still is refused by gunicorn as before.

Only settings go here: gunicorn reads every upper-level name of this module as one.
"""

from __future__ import annotations

HEADER_FIELD_BYTES_MAX = 32 * 1024

wsgi_app = "scorer:create_app()"  # when the command line names no app
limit_request_field_size = HEADER_FIELD_BYTES_MAX
