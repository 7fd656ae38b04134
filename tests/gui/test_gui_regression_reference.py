"""The Regression form (issue 29): a numeric predictor's disabled reference-level cell never reads "largest
level" (it has no reference level)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from dpdesk.gui.widgets.regression_form import DEFAULT_REFERENCE, NO_REFERENCE, REFERENCE
from tests.gui.test_gui_regression import _open, example  # noqa: F401 - the fixture


def test_disabled_reference_cells_say_there_is_none(window, qtbot, example):  # noqa: F811
    view = _open(window, qtbot, example)
    f = view.form
    numeric = 0
    for i, row in enumerate(f._rows):
        cell = f.table.item(i, REFERENCE)
        if not cell.flags() & Qt.ItemFlag.ItemIsEnabled:
            numeric += 1
            assert cell.text() == NO_REFERENCE and DEFAULT_REFERENCE not in cell.text(), row["column"]
    assert numeric >= 2  # age and exam_stress
