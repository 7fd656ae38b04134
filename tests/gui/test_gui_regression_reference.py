"""The Regression form (issue 29): a numeric predictor's disabled reference-level cell never reads "largest
level" (it has no reference); treated as categorical again (real clicks and keys) it offers the levels, and
the level chosen before comes back."""

from __future__ import annotations

from PySide6.QtCore import Qt

from dpdesk.gui.widgets.regression_form import DEFAULT_REFERENCE, NOT_CATEGORICAL
from tests.gui.test_gui_regression import _open, example  # noqa: F401 - the fixture


def _pick(qtbot, combo, data) -> None:
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    for _ in range(combo.findData(data)):
        qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=5_000)
    assert combo.currentData() == data


def test_disabled_reference_cells_say_there_is_none(window, qtbot, example):  # noqa: F811
    view = _open(window, qtbot, example)
    f = view.form
    window.resize(1366, 768)
    for i, row in enumerate(f._rows):
        ref = f.table.cellWidget(i, 3)
        if not ref.isEnabled():
            assert ref.currentText() == NOT_CATEGORICAL and DEFAULT_REFERENCE not in ref.currentText(), row["column"]
    i = f.row_of("exam_stress")
    kind, ref = f.table.cellWidget(i, 2), f.table.cellWidget(i, 3)
    f.table.scrollToItem(f.table.item(i, 1))
    assert not ref.isEnabled() and ref.currentText() == NOT_CATEGORICAL
    _pick(qtbot, kind, "categorical")
    assert ref.isEnabled() and ref.currentText() == DEFAULT_REFERENCE
    _pick(qtbot, ref, ref.itemData(2))
    chosen = ref.currentData()
    _pick(qtbot, kind, "numeric")
    assert not ref.isEnabled() and ref.currentText() == NOT_CATEGORICAL and ref.currentData() is None
    assert f.choice(i)["reference"] is None
    _pick(qtbot, kind, "categorical")
    assert ref.currentData() == chosen  # the level chosen before is kept
