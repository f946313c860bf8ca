"""The evening's own form: the closing the table chose (R30). The forms of its entries (ajuste, cambio,
favour suit) and the "última vuelta" mark are shared with the table page and the offline queue:
scorer/web/common/evening_forms.py.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SubmitField


class ClosingForm(FlaskForm):
    """R30: the closing the table chose (one button per closing)."""

    how = HiddenField()
    request_id = HiddenField()
    submit = SubmitField(_l("Cerrar"))
