"""The extended crosswise model in the wizard: offered beside crosswise, two versions of question B with
complementary shares, what they are for in plain words, a card per version; the saved item fields with
the platform drawing the version. Real clicks and key presses; screenshots at the default size and on a
1024 x 700 screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication, QWizard

from tests.gui.test_gui_fit_1024 import clipped_buttons
from tests.helpers.gui import shot

B2_TYPED = "Was your mother born between April and December?"


def _click_next(qtbot, wizard) -> None:
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not wizard.settle.settling)  # input made while the page was built is dropped


def _design_ecwm(window, qtbot, size=None):
    from dpdesk.gui.widgets.screen_fit import fit_on_screen

    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    suffix = ""
    if size is not None:
        fit_on_screen(wizard, QRect(0, 0, *size))
        suffix = "_small"
    qtbot.keyClicks(wizard.question_page.question, "Have you ever cheated on an exam?")
    _click_next(qtbot, wizard)
    page = wizard.design_page
    button = page.buttons["ecwm"]
    page.inner.parentWidget().parentWidget().ensureWidgetVisible(button)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(10, button.height() // 2))  # its circle
    assert page.selected() == "ecwm"
    assert "extended crosswise" in button.text() and "check that respondents follow the instructions" in button.text()
    QApplication.processEvents()
    shot(wizard, f"wizard_2_design_ecwm{suffix}")
    assert clipped_buttons(wizard) == []
    _click_next(qtbot, wizard)
    return wizard, suffix


def test_ecwm_from_the_wizard_to_the_field(window, qtbot, tmp_path):
    assert window.create_project(tmp_path / "ecwm.dpdesk")
    wizard, _ = _design_ecwm(window, qtbot)
    rp = wizard.randomizer_page
    assert rp.current_device() == "birthday" and rp.isComplete(), rp.problem.text()
    assert rp.versions_note.isVisibleTo(rp) and "Two versions of question B" in rp.versions_note.text()
    assert "January, February or March" in rp.summary.text() and "version 2" in rp.summary.text()
    assert "April, May, June, July, August, September, October, November or December" in rp.summary.text()
    assert "Local epsilon" in rp.summary.text()
    shot(wizard, "wizard_3_randomizer_ecwm")
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        _click_next(qtbot, wizard)
    _click_next(qtbot, wizard)
    ip = wizard.instructions_page
    assert ip.question_b2.isVisibleTo(ip) and ip.versions.isVisibleTo(ip)
    assert ip.fields.labelForField(ip.question_b).text() == "&Question B, version 1:"
    assert "January, February or March" in ip.question_b.text() and "April" in ip.question_b2.text()
    text = ip.text.toPlainText()
    assert text.startswith("--- Version 1 ---\nA: Have you ever cheated on an exam?\nB: Is your mother's birthday in "
                           "January, February or March?")
    assert "--- Version 2 ---" in text and "(about 75.3% of people answer 'yes' to B)" in text
    assert ip.question_b2.cursorPosition() == 0  # a long question shows its beginning (seen under Xvfb)
    # the researcher writes version 2's question B in their own words: both cards follow
    ip.question_b2.setFocus()
    qtbot.keyClick(ip.question_b2, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(ip.question_b2, B2_TYPED)
    assert f"--- Version 2 ---\nA: Have you ever cheated on an exam?\nB: {B2_TYPED}" in ip.text.toPlainText()
    assert wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    qtbot.mouseClick(ip.copy, Qt.MouseButton.LeftButton)  # pasted instructions: both versions, each headed
    pasted = QApplication.clipboard().text()
    assert pasted.index("--- Version 1 ---") < pasted.index("--- Version 2 ---") and B2_TYPED in pasted
    assert "paste each where only that version's respondents read it" in ip.status.text()
    shot(wizard, "wizard_5_instructions_ecwm")
    with qtbot.waitSignal(ip.runner.done, timeout=30_000):
        ip.save_card(tmp_path / "cards")
    from tests.helpers.pdftext import page_count, pdf_text

    data = ip.last_card.read_bytes()
    assert page_count(data) == 2  # a card per version
    printed = " ".join(pdf_text(data).split())
    assert "(Version 1)" in printed and "(Version 2)" in printed and B2_TYPED in printed and "---" not in printed
    ip.field_mode.setCurrentIndex(ip.field_mode.findData("online"))  # then field it online
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton)
    dialog = window.design_view.field_dialog  # the Field it dialog says what the platform draws, and only that
    qtbot.waitExposed(dialog)
    from PySide6.QtWidgets import QLabel

    words = " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert "never draws an answer's randomizer" in words and "which version of question B" in words
    dialog.reject()

    from dpdesk.project import languages as L
    from dpdesk.project.fielding import export_instrument

    (item,) = window.project.items()
    assert item.design_name == "ecwm"
    t = L.respondent_text_in(window.project, item.name, "en")
    assert "January, February or March" in t.question_b and t.question_b2 == B2_TYPED
    files = export_instrument(window.project, tmp_path / "survey", "xlsform").files
    assert files[0].exists()
    # editing the item again brings both versions back
    window.design_view.select(item.name)
    again = window.design_view.edit_selected()
    assert again.draft.question_b2 == B2_TYPED and "January" in again.draft.question_b
    again.reject()


@pytest.mark.parametrize("size", [None, (1000, 620)])
def test_ecwm_pages_fit(window, qtbot, tmp_path, size):
    """The changed pages at the wizard's own size and on a small screen: nothing cut off."""
    assert window.create_project(tmp_path / "fit.dpdesk")
    wizard, suffix = _design_ecwm(window, qtbot, size)
    if size is not None:
        assert wizard.height() <= size[1] and wizard.width() <= size[0]
        shot(wizard, "wizard_3_randomizer_ecwm_small")
    assert clipped_buttons(wizard) == []
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        _click_next(qtbot, wizard)
    _click_next(qtbot, wizard)
    QApplication.processEvents()
    if size is not None:
        shot(wizard, "wizard_5_instructions_ecwm_small")
    assert clipped_buttons(wizard) == []
    ip = wizard.instructions_page
    for widget in (ip.question_b, ip.question_b2, ip.text):
        assert widget.isVisibleTo(ip) and widget.height() >= widget.sizeHint().height() // 2
    from tests.gui.test_gui_access import _check_names, _check_tab_order

    for page in (wizard.randomizer_page, ip):  # the changed pages: every control named, Tab top to bottom
        _check_names(page)
        _check_tab_order(page)
    wizard.reject()


def test_languages_dialog_writes_both_versions_and_prints_a_card_each(window, qtbot, tmp_path):
    from dpdesk.mechanisms import rr
    from dpdesk.project import languages as L
    from tests.gui.test_gui_languages import type_text
    from tests.helpers.pdftext import page_count, pdf_text

    window.create_project(tmp_path / "l.dpdesk")
    window.project.add_item("cheat", rr.design("ecwm", p=0.25), question="Have you ever cheated in an exam?")
    view = window.design_view
    view.refresh()
    view.select("cheat")
    qtbot.mouseClick(view.languages_button, Qt.MouseButton.LeftButton)
    dialog = view.languages_dialog
    qtbot.waitExposed(dialog)
    assert dialog.language.currentData() == "de" and dialog.question_b2.isVisibleTo(dialog)
    assert "question B, version 2" in dialog.untranslated.text()
    type_text(qtbot, dialog.question_b, "Hat Ihre Mutter im Januar, Februar oder März Geburtstag?")
    type_text(qtbot, dialog.question_b2, "Hat Ihre Mutter zwischen April und Dezember Geburtstag?")
    qtbot.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    text = L.respondent_text_in(window.project, "cheat", "de")
    assert text.question_b2 == "Hat Ihre Mutter zwischen April und Dezember Geburtstag?"
    card = dialog.card.toPlainText()
    assert "--- Version 2 ---" in card and "B: Hat Ihre Mutter zwischen April und Dezember" in card
    shot(dialog, "languages_dialog_ecwm")
    with qtbot.waitSignal(dialog.runner.done, timeout=30_000):
        dialog.save_cards(tmp_path / "karte.pdf")
    data = (tmp_path / "karte.pdf").read_bytes()
    assert page_count(data) == 2 and "(Version 2)" in pdf_text(data)
    dialog.reject()


def test_an_item_made_on_the_command_line_opens_with_both_versions(window, qtbot, tmp_path):
    """`dpdesk item --question-b/--question-b2` keeps question B in the respondent texts, not on a card:
    editing the item in the wizard shows both versions."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.fielding.store import set_item_text

    window.create_project(tmp_path / "c.dpdesk")
    window.project.add_item("cheat", rr.design("ecwm", p=0.25), question="Q?")
    set_item_text(window.project, "cheat", "question_b", "Born in Jan-Mar?")
    set_item_text(window.project, "cheat", "question_b2", "Born in Apr-Dec?")
    window.design_view.refresh()
    window.design_view.select("cheat")
    wizard = window.design_view.edit_selected()
    assert (wizard.draft.question_b, wizard.draft.question_b2) == ("Born in Jan-Mar?", "Born in Apr-Dec?")
    wizard.reject()
