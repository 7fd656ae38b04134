"""The number style, where the report's modules have always found it: see :mod:`dpdesk.project.number_style`
(it lives beside the ledger, the regression and the result tables, which use it too, so that none of them
imports the report)."""

from dpdesk.project.number_style import (  # noqa: F401 - re-exported
    _SUPERSCRIPTS,
    DEFAULT,
    LIMIT,
    MINUS,
    SEPARATION_NOTE,
    UNITS,
    NumberStyle,
    separation_note,
    typographic,
)
