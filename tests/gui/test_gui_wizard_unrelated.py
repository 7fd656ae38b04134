"""The unrelated question in the wizard, with keys and clicks: a die (or cards) chooses question A or B
while question B asks for a birthday month; the card names that die, question B keeps the months the
researcher ticked whatever else is switched, a switch that changes epsilon says so (old and new) with a way
back, and the card's title does not repeat question A. The walk found "Any private randomizer with these
probabilities" on the card, no way to combine a die with a birthday question B, and Jan-Mar becoming Jan-Feb
(epsilon 2.21 to 2.59) without a word."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tests.helpers.pdftext import pdf_text

QUESTION = "In the last tax year, did you leave cash income undeclared?"


def _click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())


def _key(qtbot, widget, key) -> None:
    widget.setFocus()
    qtbot.keyClick(widget, key)


def _to_randomizer(window, qtbot, tmp_path):
    assert window.create_project(tmp_path / "tax.dpdesk")
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    question = wizard.question_page.question
    question.setFocus()
    qtbot.keyClicks(question, QUESTION)
    qtbot.waitUntil(lambda: not wizard.settle.settling)
    _click(qtbot, wizard.button(wizard.WizardButton.NextButton))
    assert wizard.currentPage() is wizard.design_page
    qtbot.waitUntil(lambda: not wizard.settle.settling)  # as a person would, until the page is shown
    _click(qtbot, wizard.design_page.buttons["unrelated"])
    assert wizard.design_page.selected() == "unrelated"
    _click(qtbot, wizard.button(wizard.WizardButton.NextButton))
    assert wizard.currentPage() is wizard.randomizer_page
    qtbot.waitUntil(lambda: not wizard.settle.settling)
    return wizard


def _eps(rp) -> str:
    return rp.summary.text().split("Local epsilon: <b>")[1].split("</b>")[0]


def test_a_die_chooses_the_question_and_question_b_asks_for_a_birthday(window, qtbot, tmp_path):
    wizard = _to_randomizer(window, qtbot, tmp_path)
    rp, draft = wizard.randomizer_page, wizard.draft
    assert rp.device.currentText() == "A die" and rp.b_source.currentText() == "A birthday month"
    assert rp.b_source.isVisibleTo(rp) and rp.sides.isVisibleTo(rp)
    assert rp.editors["q"].months() == [1, 2, 3] and _eps(rp) == "2.21"
    assert "Any private randomizer" not in draft.device_text
    assert "Roll a fair 6-sided die" in draft.device_text and "If it shows 5 or 6, answer question B" in \
        draft.device_text
    assert draft.question_b == "Is your mother's birthday in January, February or March?"
    assert draft.randomizer == {"kind": "die", "sides": 6, "a": [1, 2, 3, 4], "b": [5, 6],
                                "birthday_months": [1, 2, 3]}

    _key(qtbot, rp.device, Qt.Key.Key_Down)  # a deck of cards chooses A or B: question B stays as it was
    assert rp.device.currentText() == "A deck of cards"
    assert rp.editors["q"].months() == [1, 2, 3] and draft.question_b.endswith("January, February or March?")
    assert "Draw one card" in draft.device_text and _eps(rp) == "2.21" and not rp.epsilon_change.pending

    _key(qtbot, rp.device, Qt.Key.Key_Up)  # the die again
    assert rp.device.currentText() == "A die" and rp.editors["q"].months() == [1, 2, 3] and _eps(rp) == "2.21"

    _key(qtbot, rp.b_source, Qt.Key.Key_Down)  # question B from a second roll: 24.7% can only be 1 face of 6
    assert rp.b_source.currentText() == "A second roll of a die"
    assert rp.epsilon_change.pending and rp.epsilon_change.isVisibleTo(rp)
    words = rp.epsilon_change.text.text()
    assert "2.21" in words and _eps(rp) in words and _eps(rp) != "2.21", words
    assert "24.7% → 16.7%" in words
    _click(qtbot, rp.epsilon_change.back_button)  # back to the birthday months, as they were
    assert rp.b_source.currentText() == "A birthday month" and not rp.epsilon_change.pending
    assert rp.editors["q"].months() == [1, 2, 3] and _eps(rp) == "2.21"
    assert draft.question_b.endswith("January, February or March?")

    march = rp.editors["q"].boxes[2]
    qtbot.mouseClick(march, Qt.MouseButton.LeftButton, pos=QPoint(8, march.height() // 2))  # on its square
    # (the researcher's own change: shown at once, nothing to confirm)
    assert rp.editors["q"].months() == [1, 2] and _eps(rp) == "2.59" and not rp.epsilon_change.pending
    _key(qtbot, rp.device, Qt.Key.Key_Down)  # switching the die for cards keeps Jan-Feb
    assert rp.editors["q"].months() == [1, 2] and draft.question_b == "Is your mother's birthday in January or " \
        "February?" and _eps(rp) == "2.59"
    assert rp.isComplete()
    wizard.reject()


def test_the_card_names_the_die_asks_the_birthday_and_has_its_own_title(window, qtbot, tmp_path):
    wizard = _to_randomizer(window, qtbot, tmp_path)
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        _click(qtbot, wizard.button(wizard.WizardButton.NextButton))
    assert wizard.currentPage() is wizard.meaning_page
    qtbot.waitUntil(lambda: not wizard.settle.settling)
    _click(qtbot, wizard.button(wizard.WizardButton.NextButton))
    ip = wizard.instructions_page
    assert wizard.currentPage() is ip
    text = ip.text.toPlainText()
    assert text.startswith(f"A: {QUESTION}\nB: Is your mother's birthday in January, February or March?")
    assert "Roll a fair 6-sided die privately" in text and "If it shows 1, 2, 3 or 4, answer question A." in text
    assert "Any private randomizer" not in text
    assert ip.card_title.placeholderText() == "Please read before you answer"
    with qtbot.waitSignal(ip.runner.done, timeout=30_000):
        ip.save_card(tmp_path / "card.pdf")
    card = " ".join(pdf_text(ip.last_card.read_bytes()).split())
    assert card.startswith("Please read before you answer A: ") and card.count(QUESTION) == 1, card[:200]
    QApplication.processEvents()
    wizard.reject()
