"""Keyboard alone, visible focus, no stray changes; small screens; Ctrl+S; the status bar.

Every interaction is a real key, wheel or mouse event."""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWizard

from tests.gui.test_gui_data import open_import
from tests.gui.test_gui_mapping_words import crosswise_window, sav  # noqa: F401 - fixtures
from tests.helpers.gui import shot


def wheel(widget, steps: int = -1) -> None:
    """One notch of the mouse wheel over the middle of ``widget`` (negative: towards the user)."""
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    event = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_mapping_dialog_from_the_keyboard_alone(crosswise_window, qtbot, sav):  # noqa: F811 - fixture
    dialog = open_import(crosswise_window, qtbot, sav)
    dialog.open_mapping()
    m = dialog.mapping_dialog
    m.resize(900, 620)
    qtbot.waitExposed(m)
    m.activateWindow()
    m.column.setFocus()
    with qtbot.waitSignal(m.jobs.done, timeout=10_000, check_params_cb=lambda res: res[0] == "check"):
        qtbot.keyClicks(m.column, "q_cw")  # typing picks the column
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_End):  # a key to move on
        qtbot.keyClick(m.column, key)
    assert m.column.currentData() == "q_cw"  # the column (and the codes on it) stays
    first, second = m.codes.combos()[:2]  # the values in the table's order
    chosen = (first.currentData(), second.currentData())
    assert sorted(chosen) == ["no", "yes"]
    qtbot.keyClick(m.column, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: m.codes.hasFocus())
    qtbot.keyClick(m.codes, Qt.Key.Key_Tab)  # the response boxes are in the Tab order
    qtbot.waitUntil(lambda: first.hasFocus())
    shot(m, "mapping_keyboard_focus")
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_End, Qt.Key.Key_Home, Qt.Key.Key_PageUp):  # never change
        qtbot.keyClick(QApplication.focusWidget(), key)
    assert (first.currentData(), second.currentData()) == chosen
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
    assert second.hasFocus() and second.currentData() == chosen[1]
    wheel(first)  # a wheel over a box without the focus leaves it alone
    assert first.currentData() == chosen[0]
    qtbot.keyClicks(second, "Both")  # typing in the focused box is aimed: it changes
    assert second.currentData() == "yes"
    qtbot.keyClick(second, Qt.Key.Key_Tab)
    assert not first.hasFocus() and not second.hasFocus()  # on to the next control
    with qtbot.waitSignal(m.accepted, timeout=5_000):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert dialog.mappings["plagiarism"]["column"] == "q_cw"


def tab_to(qtbot, target, limit: int = 40) -> None:
    """Press Tab until ``target`` has the focus (as a keyboard user does); fails if it is never reached."""
    for _ in range(limit):
        if target.hasFocus():
            return
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert target.hasFocus(), f"Tab never reached {target.text() or target.accessibleName()!r}"


def test_every_wizard_page_from_the_keyboard_alone(window, qtbot, tmp_path):
    assert window.create_project(tmp_path / "keys.dpdesk")
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    qtbot.waitUntil(wizard.isActiveWindow)
    qtbot.keyClicks(QApplication.focusWidget(), "Have you ever cheated in an exam?")
    assert wizard.question_page.question.toPlainText() == "Have you ever cheated in an exam?"
    next_button = wizard.button(QWizard.WizardButton.NextButton)

    def next_page():
        tab_to(qtbot, next_button)
        qtbot.keyClick(next_button, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: not wizard.settle.settling)  # as a person would, until the page is shown

    next_page()
    assert wizard.currentPage() is wizard.design_page
    next_page()
    rp = wizard.randomizer_page
    assert wizard.currentPage() is rp
    tab_to(qtbot, rp.device)
    qtbot.keyClick(rp.device, Qt.Key.Key_End)  # exact probabilities, by key
    qtbot.waitUntil(lambda: all(e.isVisible() for e in rp.editors.values()))
    qtbot.keyClick(rp.device, Qt.Key.Key_Tab)
    for text in ("2/3", "1/6", "1/6"):
        box = QApplication.focusWidget()
        qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        qtbot.keyClicks(box, text)
        qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert wizard.draft.values == {"p_truth": Fraction(2, 3), "p_yes": Fraction(1, 6), "p_no": Fraction(1, 6)}
    assert rp.isComplete()
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        next_page()
    assert wizard.currentPage() is wizard.meaning_page
    next_page()
    assert wizard.currentPage() is wizard.instructions_page
    finish = wizard.button(QWizard.WizardButton.FinishButton)
    qtbot.waitUntil(lambda: not wizard.settle.settling)
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        tab_to(qtbot, finish)
        qtbot.keyClick(finish, Qt.Key.Key_Space)
    assert window.project.item("cheated_exam").design_record["params"]["p_truth"] == 2 / 3


def test_wheel_over_an_unfocused_box_scrolls_instead_of_changing_it(window, qtbot, tmp_path):
    assert window.create_project(tmp_path / "wheel.dpdesk")
    wizard = window.design_view.new_item()
    qtbot.keyClicks(wizard.question_page.question, "Have you ever cheated in an exam?")
    wizard.next()
    wizard.next()
    rp = wizard.randomizer_page
    before = rp.device.currentIndex()
    assert rp.device.focusPolicy() == Qt.FocusPolicy.StrongFocus and rp.sides.focusPolicy() == Qt.FocusPolicy.StrongFocus
    wheel(rp.device)
    wheel(rp.coin_preset)
    assert rp.device.currentIndex() == before and rp.coin_preset.currentIndex() == 0
    rp.device.setFocus()
    qtbot.waitUntil(rp.device.hasFocus)
    wheel(rp.device)  # the user aimed at it: the wheel may change it
    assert rp.device.currentIndex() != before
    wizard.reject()


def test_focus_is_drawn_thick_in_the_highlight_colour(window, qtbot):
    from PySide6.QtWidgets import QCheckBox, QPushButton, QVBoxLayout, QWidget

    from dpdesk.gui.shell.input_guard import VisibleFocusStyle

    assert isinstance(QApplication.style(), VisibleFocusStyle)
    panel = QWidget()
    qtbot.addWidget(panel)
    layout = QVBoxLayout(panel)
    controls = [QPushButton("Save plot…"), QCheckBox("Leave the rows out"), QPushButton("Copy table")]
    for c in controls:
        layout.addWidget(c)
    panel.show()
    qtbot.waitExposed(panel)
    panel.activateWindow()
    qtbot.waitUntil(panel.isActiveWindow)

    def highlighted(widget) -> int:
        colour = widget.palette().highlight().color()
        image = widget.grab().toImage()
        return sum(1 for x in range(image.width()) for y in range(image.height())
                   if image.pixelColor(x, y) == colour)

    for control in controls[:2]:
        controls[2].setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(controls[2].hasFocus)
        plain = highlighted(control)
        control.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(control.hasFocus)
        assert highlighted(control) >= plain + 2 * (control.width() + control.height()), control.text()
    panel.close()


def test_a_window_saved_larger_than_the_screen_opens_within_it(qtbot, settings_dir):
    from dpdesk.gui.shell.main_window import MainWindow
    from dpdesk.gui.widgets.screen_fit import fit_on_screen

    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.resize(1100, 720)
    first.move(40, 60)
    first.close()  # saves the geometry
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    screen = second.screen().availableGeometry()  # 800 x 800 on the test platform
    assert screen.contains(second.frameGeometry()), (second.frameGeometry(), screen)
    small = QRect(0, 0, 1024, 700)  # the researcher's laptop
    second.resize(1100, 720)
    fit_on_screen(second, small)
    assert small.contains(second.frameGeometry()) and second.width() <= 1024 and second.height() <= 700
    second.move(600, 500)
    fit_on_screen(second, small)
    assert small.contains(second.frameGeometry())
    second.close()


def test_ctrl_s_says_that_every_change_is_saved(window, qtbot, tmp_path):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "Nothing to save" in window.statusBar().full_message
    assert window.create_project(tmp_path / "saved.dpdesk")
    window.nav.setFocus()
    shot(window, "nav_focus")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "saves every change automatically" in window.statusBar().full_message


def test_long_status_messages_are_shortened_whole_in_the_tooltip(window, qtbot, tmp_path):
    assert window.create_project(tmp_path / "a_project_with_a_rather_long_file_name_for_the_status_bar.dpdesk")
    window.resize(1024, 700)
    bar = window.statusBar()
    text = ("The column 'exam_copying' is already mapped to the item 'copying' in this dataset; choose another "
            "column or remove the mapping first, then import again. " * 2).strip()
    bar.showMessage(text)
    shown = bar.currentMessage()
    assert shown.endswith("…") and bar.toolTip() == text
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.message_width()
    assert window.project_label.width() <= 260
    shot(window, "status_bar_1024")
    QApplication.processEvents()
    wide = bar.message_width()
    window.resize(700, 600)  # as narrow as the window goes
    QApplication.processEvents()
    narrow = bar.message_width()
    window.resize(1024, 700)
    QApplication.processEvents()
    assert narrow < wide
    message = "Imported answers.csv: 1,200 rows."
    while bar.fontMetrics().horizontalAdvance(message) <= narrow:  # fits wide, not narrow
        message += " Nothing lost."
    assert bar.fontMetrics().horizontalAdvance(message) < wide
    bar.showMessage(message)
    assert not bar.currentMessage().endswith("…")
    window.resize(700, 600)  # narrower: shortened again, never cut off
    QApplication.processEvents()
    assert bar.currentMessage().endswith("…") and bar.fontMetrics().horizontalAdvance(bar.currentMessage()) <= \
        bar.message_width()
    assert bar.toolTip().startswith("Imported answers.csv")
    window.resize(1024, 700)
    bar.showMessage("Ready")
    assert bar.currentMessage() == "Ready" and bar.toolTip() == ""
