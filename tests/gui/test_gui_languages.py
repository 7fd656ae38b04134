"""The respondent text in other languages: chooser, edits, the native-speaker mark, Reviewed, the card."""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import Qt

from dpdesk.mechanisms import rr
from dpdesk.project import languages as L
from tests.helpers.gui import shot
from tests.helpers.pdftext import pdf_text


def type_text(qtbot, widget, text: str) -> None:
    """Type ``text`` with real key events; letters beyond ASCII (ü, 漢) as key events carrying their text
    (QTest.keyClicks aborts on them)."""
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    for ch in text:
        if ch == "\n":
            qtbot.keyClick(widget, Qt.Key.Key_Return)
        elif ch.isascii():
            qtbot.keyClicks(widget, ch)
        else:
            for kind in (QKeyEvent.Type.KeyPress, QKeyEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))


def _open(window, qtbot, tmp_path):
    window.create_project(tmp_path / "a.dpdesk")
    window.project.add_item("cheat", rr.design("crosswise", p=0.25), question="Have you ever cheated in an exam?")
    view = window.design_view
    view.refresh()
    view.select("cheat")
    qtbot.mouseClick(view.languages_button, Qt.MouseButton.LeftButton)
    dialog = view.languages_dialog
    qtbot.waitExposed(dialog)
    return dialog


def test_write_review_and_print_a_german_card(window, qtbot, tmp_path):
    dialog = _open(window, qtbot, tmp_path)
    assert dialog.language.currentData() == "de"
    assert "Check with a native speaker before fielding" in dialog.mark.text()
    assert "So antworten Sie:" in dialog.card.toPlainText() and "[ ] Beide Antworten sind gleich" in \
        dialog.card.toPlainText()
    type_text(qtbot, dialog.question, "Haben Sie bei einer Prüfung geschummelt?")
    type_text(qtbot, dialog.question_b, "Hat Ihre Mutter im Januar, Februar oder März Geburtstag?")
    qtbot.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    text = L.respondent_text_in(window.project, "cheat", "de")
    assert text.question == "Haben Sie bei einer Prüfung geschummelt?" and text.needs_review
    assert "B: Hat Ihre Mutter im Januar" in dialog.card.toPlainText()
    shot(dialog, "languages_dialog")
    dialog.reviewed.setFocus()
    qtbot.mouseClick(dialog.reviewed, Qt.MouseButton.LeftButton)
    type_text(qtbot, dialog.reviewer, "A. Müller")
    qtbot.mouseClick(dialog.save, Qt.MouseButton.LeftButton)
    assert L.respondent_text_in(window.project, "cheat", "de").reviewed
    assert dialog.mark.text() == "Reviewed by A. Müller."
    L.add_language(window.project, "cheat", "fr")
    window.design_view.refresh()  # the Design view's question names the languages and their review
    assert window.design_view.table.item(0, 1).toolTip().endswith(
        "Also in: Deutsch (reviewed), Français (check with a native speaker before fielding)")
    # the card follows the chosen language
    path = tmp_path / "karte.pdf"
    with qtbot.waitSignal(dialog.runner.done, timeout=30_000):
        dialog.save_cards(path)
    card = unicodedata.normalize("NFKC", pdf_text(path.read_bytes()))
    assert "Prüfung" in card and "Kreuzen Sie" in card
    assert not {"the", "answer", "tick", "randomizer", "nobody", "yes"} & {w.lower().strip(".,:") for w in card.split()}


def test_edit_the_card_switch_language_and_back(window, qtbot, tmp_path):
    dialog = _open(window, qtbot, tmp_path)
    dialog.card.setFocus()
    dialog.card.moveCursor(dialog.card.textCursor().MoveOperation.End)
    type_text(qtbot, dialog.card, "\n\nMerci beaucoup – 漢字")
    dialog.language.setCurrentIndex(dialog.language.findData("fr"))  # switching saves the German edits
    assert "Effectuez" not in dialog.card.toPlainText() and "Pensez à deux questions" in dialog.card.toPlainText()
    assert L.respondent_text_in(window.project, "cheat", "de").card.endswith("Merci beaucoup – 漢字")
    dialog.language.setCurrentIndex(dialog.language.findData("de"))
    assert dialog.generated.isEnabled()
    qtbot.mouseClick(dialog.generated, Qt.MouseButton.LeftButton)
    assert "Merci" not in dialog.card.toPlainText()
    dialog.resize(1024 - 40, 700 - 60)
    shot(dialog, "languages_dialog_1024")
    qtbot.mouseClick(dialog.done_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()


def test_the_researchers_own_language_is_chosen_in_the_dialog(window, qtbot, tmp_path):
    dialog = _open(window, qtbot, tmp_path)
    assert dialog.source.currentData() == "en" and dialog.language.currentData() == "de"
    dialog.source.setFocus()
    qtbot.keyClicks(dialog.source, "Deutsch")  # the combo box finds the language as it is typed
    assert L.source_language(window.project) == "de"
    assert dialog.mark.text() == "The language the items are written in." and not dialog.reviewed.isEnabled()
    assert "Deutsch" in dialog.status.text()
    qtbot.keyClick(dialog.source, Qt.Key.Key_Home)  # English, the first
    assert L.source_language(window.project) == "en" and "native speaker" in dialog.mark.text()
    qtbot.mouseClick(dialog.done_button, Qt.MouseButton.LeftButton)


def test_undo_brings_back_an_items_texts(window, qtbot, tmp_path):
    dialog = _open(window, qtbot, tmp_path)
    type_text(qtbot, dialog.question, "Haben Sie geschummelt?")
    qtbot.mouseClick(dialog.reviewed, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.done_button, Qt.MouseButton.LeftButton)
    view = window.design_view
    view.select("cheat")
    qtbot.mouseClick(view.remove_button, Qt.MouseButton.LeftButton)
    assert not window.project.items()
    window.undo_stack.undo()
    text = L.respondent_text_in(window.project, "cheat", "de")
    assert text.question == "Haben Sie geschummelt?" and text.reviewed


def test_field_it_offers_the_items_languages(window, qtbot, tmp_path):
    from tests.helpers.fielding import fielding_project

    project = fielding_project(tmp_path / "s.dpdesk", ["forced"])
    L.set_text(project, "forced", "de", question="Haben Sie jemals geschummelt?")
    project.close()
    assert window.open_project(tmp_path / "s.dpdesk")
    view = window.design_view
    qtbot.waitUntil(view.field_button.isEnabled)
    qtbot.mouseClick(view.field_button, Qt.MouseButton.LeftButton)
    dialog = view.field_dialog
    rows = [dialog.languages.item(i) for i in range(dialog.languages.count())]
    state = {r.data(Qt.ItemDataRole.UserRole): (r.checkState(), r.text()) for r in rows}
    assert state["de"] == (Qt.CheckState.Checked, "German (de) – check with a native speaker before fielding")
    assert state["en"][0] == Qt.CheckState.Checked and state["fr"][0] == Qt.CheckState.Unchecked
    dialog.reject()
