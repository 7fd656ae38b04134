"""Tabulate with value labels (issue 29): categories typed as the labels the form shows ("North, South")
or as codes are released; a key that is neither is said before "Release with noise?" is ever asked,
and nothing is spent. Real clicks and keys."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
from PySide6.QtCore import Qt

from dpdesk.gui.shell.tasks import TASKS


def _project(folder):
    from dpdesk.project import Project

    path = folder / "coded.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("wave", pd.DataFrame({"region": [1, 2, 3, 1] * 50, "age": list(range(18, 68)) * 4}))
        p.set_column_label("wave", "region", "Region", value_labels={1: "North", 2: "South", 3: "East"})
    return path


def _pick(qtbot, combo, text: str) -> None:
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    for _ in range(combo.findText(text)):
        qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible(), timeout=5_000)
    assert combo.currentText() == text


def _type(qtbot, box, text: str) -> None:
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(box, Qt.Key.Key_Delete)
    qtbot.keyClicks(box, text)


def test_labels_or_codes_release_and_a_bad_key_is_said_before_asking(window, qtbot, tmp_path):
    assert window.open_project(_project(tmp_path))
    v = window.tabulate_view
    asked = []
    v.confirm = lambda parent, text: asked.append(text) or True
    window.nav.setCurrentRow(TASKS.index("Tabulate"))
    assert v.apply_budget(Fraction(1))
    f = v.form
    _pick(qtbot, f.statistic, "Histogram")
    _pick(qtbot, f.axis1.column, "region")
    assert "North, South, East" in f.axis1.values.placeholderText()  # the labels the form shows
    _type(qtbot, f.axis1.values, "Nord, South")
    qtbot.waitUntil(lambda: "neither a value label nor a code" in v.reason.text(), timeout=10_000)
    assert not v.release_button.isEnabled()
    qtbot.mouseClick(v.release_button, Qt.MouseButton.LeftButton)
    assert asked == []  # never "Release with noise?" for a request that would be refused
    _type(qtbot, f.axis1.values, "North, South, 3")
    qtbot.waitUntil(v.release_button.isEnabled, timeout=10_000)
    with qtbot.waitSignal(v.released, timeout=30_000) as got:
        qtbot.mouseClick(v.release_button, Qt.MouseButton.LeftButton)
    (entry,) = got.args[0]
    assert len(asked) == 1 and entry.request["keys"] == [[1, 2, 3]]
    qtbot.waitUntil(lambda: not v._releasing, timeout=5_000)
    cells = [v.result.table.item(r, 0).text() for r in range(v.result.table.rowCount())]
    assert cells[:3] == ["North", "South", "East"]
