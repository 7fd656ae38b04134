"""The Results document, File > Export report (PDF read back) and the methods dialog, with screenshots."""

from __future__ import annotations

import shutil
import subprocess
import unicodedata

import pytest
from PySide6.QtGui import QGuiApplication, QImage, QPainter, QTextDocument

from tests.helpers.gui import shot
from tests.helpers.paths import SHOTS
from tests.helpers.pdftext import page_count, pdf_text



@pytest.fixture
def example(tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path / "example.dpdesk")


def _current(window, qtbot, rv, change):
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        change()
    return rv.current


def test_document_number_style_report_and_methods(window, qtbot, example, tmp_path, monkeypatch):
    rv = window.results_view

    def open_it():
        window.open_project(example)
        window.nav.setCurrentRow(2)

    rs = _current(window, qtbot, rv, open_it)
    cheat = rs.results[0].estimate.prevalence
    assert f"{100 * cheat:.1f}" in rv.document_view.toPlainText()
    for size, suffix in (((1200, 900), ""), ((1024, 700), "_1024")):
        window.resize(*size)
        QGuiApplication.processEvents()
        shot(window, f"results_document{suffix}")
    # the number style of the Preferences: proportions with 3 decimals, on screen and in the plot tables
    from dpdesk.gui.dialogs.preferences import PreferencesDialog

    dialog = PreferencesDialog(window.settings, window)
    dialog.unit.setCurrentIndex(dialog.unit.findData("proportion"))
    dialog.decimals.setValue(3)
    dialog.accepted.connect(window._preferences_changed)
    rs = _current(window, qtbot, rv, dialog.accept)
    shown = rv.document_view.toPlainText()
    assert f"{cheat:.3f}"[1:] in shown and f"{cheat:.3f}" not in shown  # APA: no leading zero
    assert rs.options.style == "proportion:3"
    assert f"{cheat:.3f}"[1:] in rv.forest.model.data(rv.forest.model.index(0, 3))
    # File > Export report, as PDF, read back as text
    out = tmp_path / "report.pdf"
    from dpdesk.gui.dialogs.report import start_report

    runner = start_report(rv, str(out))
    with qtbot.waitSignal(runner.done, timeout=60_000):
        pass
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and page_count(data) >= 2
    text = unicodedata.normalize("NFKC", pdf_text(data))  # Qt's PDF text has ligatures ("ﬁ")
    assert "Data fingerprint" in text and "Randomized response against asking directly" in text
    assert f"{cheat:.3f}"[1:] in text and "References" in text
    _report_page_shot(out, rs)
    # the methods paragraph: generated, editable, copied as edited
    rv.methods_button.click()
    dialog = rv.methods_window
    assert "truthful with probability 1/2, 'yes' 1/4, 'no' 1/4" in dialog.editor.toPlainText()
    assert "Boruch, R. F. (1971)" in dialog.editor.toPlainText()
    shot(dialog, "methods_dialog")
    dialog.resize(1024, 700)
    shot(dialog, "methods_dialog_1024")
    dialog.editor.moveCursor(dialog.editor.textCursor().MoveOperation.Start)
    dialog.editor.insertPlainText("EDITED. ")
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text().startswith("EDITED. The question")
    dialog.close()


def _report_page_shot(pdf, rs) -> None:
    """docs/screenshots/report_page.png: page 1-2 by pdftoppm if installed, else the HTML drawn by Qt."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "2", "-l", "2", "-singlefile", str(pdf),
                        str(SHOTS / "report_page")], check=True, timeout=60)
        return
    from dpdesk.project.report.render import document_html

    doc = QTextDocument()
    doc.setHtml(document_html(rs.document))
    doc.setTextWidth(800)
    image = QImage(800, int(doc.size().height()), QImage.Format.Format_RGB32)
    image.fill(0xFFFFFF)
    painter = QPainter(image)
    doc.drawContents(painter)
    painter.end()
    image.save(str(SHOTS / "report_page.png"))


def _neutral_folder():
    """A folder whose path reads as a user's ("…/Documents/Exam study"), not pytest's, for the screenshot."""
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.gettempdir()) / "dpdesk-shots" / "Documents" / "Exam study"
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("study.dpdesk", "survey answers.csv", "pilot-report.pdf"):
        (folder / name).write_bytes(b"")
    return folder


def _shot_with_popup(qtbot, dialog, combo, name: str) -> None:
    """The dialog with ``combo``'s list open, as a user sees it: the popup is a window of its own, so the
    picture is the dialog and the popup where they stand on the screen (the popup may reach below it)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QPainter, QPixmap
    from PySide6.QtWidgets import QApplication

    dialog.layout().activate()  # the combo where the resized dialog puts it, before its list opens there
    QApplication.processEvents()
    combo.showPopup()
    popup = combo.view().window()
    qtbot.waitUntil(lambda: popup.isVisible() and combo.view().viewport().isVisible(), timeout=5000)
    QApplication.processEvents()
    # drawn where the list drops down under the combo (the offscreen platform's window positions are
    # not a screen's): a canvas as tall as both
    popup.resize(combo.width(), popup.height())
    QApplication.processEvents()
    at = combo.mapTo(dialog, QPoint(0, combo.height()))
    picture = QPixmap(dialog.width(), max(dialog.height(), at.y() + popup.height() + 4))
    picture.fill(QColor("white"))
    painter = QPainter(picture)
    painter.drawPixmap(QPoint(0, 0), dialog.grab())
    painter.drawPixmap(at, popup.grab())
    painter.end()
    combo.hidePopup()
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert picture.save(str(SHOTS / f"{name}.png"))


def test_whole_study_export_dialog_copies_and_one_methods_text(window, qtbot, tmp_path):
    """A study with subgroups, a regression and releases: the export dialog offers Word and LaTeX (the file
    type sets the suffix), the Word report has the dialog's methods text, a table copies as LaTeX."""
    import docx
    from PySide6.QtCore import QPoint, Qt, QTimer
    from PySide6.QtGui import QContextMenuEvent
    from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit

    from dpdesk.gui.dialogs.report import ReportFileDialog, start_report
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.report.methods import methods
    from tests.helpers.study import make_study

    path = make_study(tmp_path / "study.dpdesk")
    rv = window.results_view

    def open_it():
        window.open_project(path)
        window.nav.setCurrentRow(2)

    _current(window, qtbot, rv, open_it)
    rv.by.setFocus()
    rs = _current(window, qtbot, rv, lambda: qtbot.keyClicks(rv.by, "gender"))  # Subgroups by: gender, typed
    assert rs.options.by == "gender"
    # the export dialog: default size and 1024 x 700, in a folder named as a user's would be, with the
    # list of file types open; choosing "Word document" makes the file .docx
    folder = _neutral_folder()
    dialog = ReportFileDialog(rv, str(folder / "study-report.pdf"))
    dialog.setOption(ReportFileDialog.Option.DontUseNativeDialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    types = dialog.findChild(QComboBox, "fileTypeCombo")
    for size, name in ((None, "export_report_dialog"), ((1024, 700), "export_report_dialog_1024")):
        if size:
            dialog.resize(*size)
        _shot_with_popup(qtbot, dialog, types, name)
    assert [types.itemText(i).split(" (")[0] for i in range(types.count())] == [
        "PDF document", "Word document", "Web page", "LaTeX document"]
    types.setFocus()
    qtbot.keyClick(types, Qt.Key.Key_Down)  # PDF -> Word, as a user would
    assert dialog.findChild(QLineEdit, "fileNameEdit").text() == "study-report.docx"
    qtbot.keyClick(dialog.findChild(QLineEdit, "fileNameEdit"), Qt.Key.Key_Return)
    assert dialog.path() == str(folder / "study-report.docx")
    dialog.close()
    runner = start_report(rv, dialog.path())
    with qtbot.waitSignal(runner.done, timeout=60_000):
        pass
    word = [p.text for p in docx.Document(dialog.path()).paragraphs]
    shutil.rmtree(folder.parent.parent)
    # the figures' captions name the question and the subgroups, as the command line's report does
    question = "How often did you hand in work late?"
    captions = [x for x in word if x.startswith("Estimated shares of the answers to")]
    assert captions == [f"Estimated shares of the answers to “{question}”",
                        f"Estimated shares of the answers to “{question}”, by gender"]
    assert not any("answers to lateness" in x for x in word)
    # one methods text: the dialog's, the Word file's and the function's are the same paragraphs
    expected = methods(window.project, analyze(window.project, by="gender")).paragraphs
    assert any("cross-tabulation of gender by faculty" in x for x in expected)
    assert any("logistic regression" in x for x in expected)
    start = word.index("Methods") + 1
    assert word[start:start + len(expected)] == expected
    rv.methods_button.click()
    shown = rv.methods_window.editor.toPlainText()
    assert all(x in shown for x in expected)
    rv.methods_window.close()
    # "Copy as LaTeX" under the first table, clicked
    view = rv.document_view
    cursor = view.document().find("Copy as LaTeX")
    assert not cursor.isNull()
    point = view.cursorRect(cursor).center() - QPoint(8, 0)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith(r"\begin{table}") and r"\toprule" in copied and r"\bottomrule" in copied
    # one cell: right-click it, choose "Copy cell" in the context menu
    cell = view.document().find("Estimate (%)")
    at = view.cursorRect(cell).center()
    assert view.table_at(at) == ("estimates", "Estimate (%)")
    chosen = []

    def choose():
        menu = QApplication.activePopupWidget()
        if menu is None:  # not shown yet
            QTimer.singleShot(10, choose)
            return
        action = next(a for a in menu.actions() if a.text() == "Copy cell")
        chosen.append(action.text())
        menu.setActiveAction(action)
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose)
    # the event a right-click sends (the offscreen platform makes none from a mouse press)
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                              view.viewport().mapToGlobal(at)))
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == "Estimate (%)", timeout=5000)
    assert chosen == ["Copy cell"]


def test_a_new_release_reaches_the_methods_text(window, qtbot, tmp_path):
    """Results recomputes after a release is recorded: its methods text (and the report) then names it."""
    from dpdesk.project import ledger
    from tests.helpers.study import make_study

    path = make_study(tmp_path / "study.dpdesk")
    rv = window.results_view

    def open_it():
        window.open_project(path)
        window.nav.setCurrentRow(2)

    rs = _current(window, qtbot, rv, open_it)
    assert "histogram of faculty" not in " ".join(rs.methods.paragraphs)
    entry = ledger.release(window.project, {"statistic": "histogram", "columns": ["faculty"],
                                            "keys": ["Arts", "Law", "Science"], "epsilon": "0.5"})
    rs = _current(window, qtbot, rv, lambda: window.tabulate_view.released.emit([entry]))  # as Tabulate says
    assert "histogram of faculty" in " ".join(rs.methods.paragraphs)
