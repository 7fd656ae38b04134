"""Field it (issue 24): the dialog on the Design view exports the items; refusals in words."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.helpers.fielding import fielding_project
from tests.helpers.gui import shot


def _open(window, qtbot, path):
    assert window.open_project(path)
    view = window.design_view
    qtbot.waitUntil(lambda: view.field_button.isEnabled())
    qtbot.mouseClick(view.field_button, Qt.MouseButton.LeftButton)
    dialog = view.field_dialog
    qtbot.waitExposed(dialog)
    return dialog


def test_field_it_exports_and_remembers(window, qtbot, tmp_path, monkeypatch):
    fielding_project(tmp_path / "study.dpdesk", ["forced", "crosswise", "sld", "unary"]).close()
    dialog = _open(window, qtbot, tmp_path / "study.dpdesk")
    shot(dialog, "field_dialog")
    dialog.resize(1024, 700)
    shot(dialog, "field_dialog_1024x700")
    assert dialog.export_button.isEnabled() and not dialog.problem.isVisible()
    dialog.format.setFocus()
    qtbot.keyClick(dialog.format, Qt.Key.Key_End)  # the last format: XLSForm
    assert dialog.format.currentData() == "xlsform"
    from PySide6.QtWidgets import QFileDialog

    target = tmp_path / "instrument.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(dialog.exported, timeout=30_000) as signal:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert target.exists() and (tmp_path / "instrument-README.txt").exists()
    assert signal.args[0].items == ("forced", "crosswise", "sld", "unary")
    assert "README" in dialog.status.text()
    from dpdesk.project.fielding.store import instruments

    assert [i.format for i in instruments(window.project)] == ["xlsform"]
    dialog.reject()


def test_paper_mode_and_refusals_in_words(window, qtbot, tmp_path):
    from dpdesk.mechanisms import rr

    project = fielding_project(tmp_path / "s.dpdesk", ["forced"])
    project.add_item("travel", rr.design("krr", categories=["bus", "car"], epsilon=2.0))
    project.close()
    dialog = _open(window, qtbot, tmp_path / "s.dpdesk")
    assert not dialog.export_button.isEnabled()
    assert "travel" in dialog.problem.text() and "coin the respondent tosses at home" in dialog.problem.text()
    dialog.mode.setFocus()
    qtbot.keyClick(dialog.mode, Qt.Key.Key_End)  # paper
    assert dialog.mode.currentData() == "paper" and not dialog.format.isEnabled()
    assert "printable card" in dialog.problem.text()
    dialog.reject()


def test_the_platform_export_maps_itself_in_the_import_dialog(window, qtbot, tmp_path):
    """Field, then drop the Qualtrics answers on the window: every item is mapped, no mapping dialog."""
    from dpdesk.project.fielding import export_instrument
    from tests.gui.test_gui_data import open_import
    from tests.helpers.fielding import qualtrics_export, simulate

    project = fielding_project(tmp_path / "s.dpdesk", ["crosswise", "sld", "unary"])
    files = export_instrument(project, tmp_path / "instrument", "qsf").files
    rows, _ = simulate(project, n=60)
    project.close()
    answers = tmp_path / "answers.csv"
    answers.write_text(qualtrics_export(files[0], rows), encoding="utf-8")
    assert window.open_project(tmp_path / "s.dpdesk")
    dialog = open_import(window, qtbot, answers)
    assert "3 of 3 items mapped" in dialog.mapping_label.text()
    with qtbot.waitSignal(dialog.imported, timeout=30_000):
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    item = window.project.item("sld")
    assert (item.column, item.group_column) == ("sld", "sld_group")
