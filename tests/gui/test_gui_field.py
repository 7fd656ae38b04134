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
    qtbot.keyClick(dialog.mode, Qt.Key.Key_End)  # paper: any design, the randomizer in the respondent's hands
    assert dialog.mode.currentData() == "paper" and not dialog.format.isEnabled()
    assert not dialog.problem.isVisible() and dialog.export_button.isEnabled()
    assert dialog.export_button.text() == "Save cards…"
    dialog.reject()


def _check(dialog, qtbot, code, state):
    """Tick or untick the language ``code`` with a real click on its check box."""
    from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

    lst = dialog.languages
    row = next(i for i in range(lst.count()) if lst.item(i).data(Qt.ItemDataRole.UserRole) == code)
    lst.scrollToItem(lst.item(row))
    rect = lst.visualItemRect(lst.item(row))
    option = QStyleOptionViewItem()
    option.initFrom(lst)
    option.rect = rect
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = lst.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, lst)
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, pos=box.center())
    assert (lst.item(row).checkState() == Qt.CheckState.Checked) == state


def test_paper_mode_writes_one_card_pdf_per_language(window, qtbot, tmp_path, monkeypatch):
    """Paper: Save cards… writes each chosen language's cards as a PDF, in a worker; a language
    whose card could not say how to draw the randomizer is refused in words first."""
    from PySide6.QtWidgets import QFileDialog

    from dpdesk.mechanisms import rr

    project = fielding_project(tmp_path / "s.dpdesk", ["forced", "crosswise"])  # each with its randomizer
    project.add_item("bare", rr.design("warner", p=0.7), question="Did you?")  # no randomizer kept
    project.close()
    dialog = _open(window, qtbot, tmp_path / "s.dpdesk")
    dialog.mode.setFocus()
    qtbot.keyClick(dialog.mode, Qt.Key.Key_End)
    assert dialog.mode.currentData() == "paper" and dialog.export_button.isEnabled()
    _check(dialog, qtbot, "de", True)
    assert not dialog.export_button.isEnabled()
    assert "German instructions for 'bare' do not say how to draw" in dialog.problem.text()
    from dpdesk.project import languages as L

    for code, words in (("de", "Werfen Sie unbeobachtet eine Münze ..."), ("fr", "Lancez une pièce en privé ...")):
        L.set_text(window.project, "bare", code, instructions=words)  # as the Languages… dialog stores them
    _check(dialog, qtbot, "fr", True)
    assert dialog.export_button.isEnabled(), dialog.problem.text()
    target = tmp_path / "cards.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    with qtbot.waitSignal(dialog.cards_saved, timeout=30_000) as signal:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    paths = signal.args[0]
    assert [p.name for p in paths] == ["cards-en.pdf", "cards-de.pdf", "cards-fr.pdf"]
    assert all(p.read_bytes().startswith(b"%PDF") for p in paths)
    assert "cards-de.pdf" in dialog.status.text() and dialog.export_button.isEnabled()
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
