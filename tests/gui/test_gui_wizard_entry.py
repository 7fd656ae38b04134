"""The wizard takes what people type (decimals, fractions, percentages, "36"), offers two dice
added up, and asks before a design that protects no one. Driven with real key and mouse events."""

from __future__ import annotations

from fractions import Fraction

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from tests.helpers.gui import shot, type_number


@pytest.fixture
def wizard(window, tmp_path, qtbot):
    assert window.create_project(tmp_path / "entry.dpdesk")
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    qtbot.keyClicks(wizard.question_page.question, "Have you ever cheated in an exam?")
    wizard.next()
    wizard.next()  # forced response, recommended
    # as a person would, until the page is shown: on a loaded machine the page change after the typing above
    # is slow enough for the settle guard to drop input until the event loop is idle (settle.py)
    qtbot.waitUntil(lambda: not wizard.settle.settling)
    yield wizard
    from shiboken6 import isValid

    if isValid(wizard) and wizard.isVisible():  # a finished wizard may be deleted already
        wizard.reject()


def _choose_device(qtbot, page, words: str) -> None:
    """Pick a randomizer with the arrow keys in the focused box, as a keyboard user does."""
    page.device.setFocus()
    qtbot.keyClick(page.device, Qt.Key.Key_End if words == "Exact" else Qt.Key.Key_Home)  # exact is the last
    for _ in range(page.device.count()):
        if page.device.currentText().startswith(words):
            break
        qtbot.keyClick(page.device, Qt.Key.Key_Down)
    assert page.device.currentText().startswith(words)
    qtbot.waitUntil(lambda: all(e.isVisible() for e in page.editors.values()))  # the new boxes are shown


def _next_enabled(wizard) -> bool:
    return wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_exact_probabilities_are_read_as_typed(wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "Exact")
    boxes = [rp.editors[k].spin for k in ("p_truth", "p_yes", "p_no")]
    for box, text in zip(boxes, ("0.5", "0.25", "0.25")):
        type_number(qtbot, box, text)
    assert rp.isComplete()
    type_number(qtbot, boxes[0], "0.75", finish="tab")
    qtbot.waitUntil(lambda: boxes[1].hasFocus())  # Tab moved on, and the first entry was read then
    assert boxes[0].text() == "0.75" and boxes[0].value() == Fraction(3, 4)
    type_number(qtbot, boxes[1], "0.1667", finish="tab")
    type_number(qtbot, boxes[2], "0.0833", finish="tab")
    assert [b.value() for b in boxes] == [Fraction(3, 4), Fraction(1667, 10000), Fraction(833, 10000)]
    assert rp.isComplete() and _next_enabled(wizard), rp.problem.text()
    type_number(qtbot, boxes[1], "1/6")
    type_number(qtbot, boxes[2], "1/12")
    assert boxes[1].value() == Fraction(1, 6) and boxes[1].text() == "1/6"
    assert rp.isComplete() and rp.draft.values["p_yes"] == Fraction(1, 6)
    type_number(qtbot, boxes[0], "75%")
    assert boxes[0].value() == Fraction(3, 4)
    assert wizard.draft.design().params == pytest.approx({"p_truth": 0.75, "p_yes": 1 / 6, "p_no": 1 / 12})


def test_a_number_that_cannot_be_used_gets_words_beside_its_box(wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "Exact")
    editor = rp.editors["p_yes"]
    type_number(qtbot, editor.spin, "1.5")
    assert editor.message.isVisibleTo(rp) and "must be from 0 to 1" in editor.message.text()
    assert not rp.isComplete() and not _next_enabled(wizard)
    assert "beside its box" in rp.problem.text()
    type_number(qtbot, editor.spin, "1/0")
    assert "divides by zero" in editor.message.text()
    qtbot.keyClicks(editor.spin, "abc")  # letters are not taken at all
    assert "a" not in editor.spin.text()
    type_number(qtbot, editor.spin, "0.25")
    assert not editor.message.isVisibleTo(rp)
    if sum(e.value() for e in rp.editors.values()) != 1:  # then the design says so, in words
        assert "add up to" in rp.problem.text() and "p_truth" not in rp.problem.text()
    type_number(qtbot, editor.spin, str(1 - rp.editors["p_truth"].value() - rp.editors["p_no"].value()))
    assert rp.isComplete(), rp.problem.text()
    shot(wizard, "wizard_3_randomizer_exact")


def test_die_with_36_sides_and_switching_to_exact_keeps_exact_values(wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "A die")
    type_number(qtbot, rp.sides, "36", finish="tab")
    assert rp.sides.value() == 36
    assert sum(rp.editors[k].spin.value() for k in ("p_truth", "p_yes", "p_no")) == 36
    assert rp.isComplete(), rp.problem.text()
    type_number(qtbot, rp.sides, "6")
    counts = [rp.editors[k].spin.value() for k in ("p_truth", "p_yes", "p_no")]
    assert sum(counts) == 6
    _choose_device(qtbot, rp, "Exact")
    boxes = [rp.editors[k].spin for k in ("p_truth", "p_yes", "p_no")]
    assert [b.value() for b in boxes] == [Fraction(c, 6) for c in counts]
    assert sum(b.value() for b in boxes) == 1
    assert rp.isComplete() and not rp.problem.isVisibleTo(rp), rp.problem.text()
    for box in boxes:  # focus passing through leaves the exact values alone
        box.setFocus()
        qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert sum(b.value() for b in boxes) == 1 and rp.isComplete()


def test_two_dice_added_up_from_wizard_to_card_and_methods(window, wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "Two or more dice")
    assert rp.isComplete(), rp.problem.text()
    assert wizard.draft.values == {"p_truth": Fraction(27, 36), "p_yes": Fraction(6, 36), "p_no": Fraction(3, 36)}
    assert "75%" in rp.summary.text() and "(1/12)" in rp.summary.text()
    shot(wizard, "wizard_3_randomizer_two_dice")
    # Tab moves on and commits the entry (Return would also press Next: the wizard's default button)
    type_number(qtbot, rp.dice_no, "12", finish="tab")
    assert wizard.draft.values["p_no"] == Fraction(1, 36)
    type_number(qtbot, rp.dice_no, "11-12", finish="tab")
    assert wizard.draft.values["p_no"] == Fraction(3, 36)
    assert wizard.currentPage() is rp
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    wizard.next()
    text = wizard.instructions_page.text.toPlainText()
    assert "Roll both dice privately" in text and "add them up" in text and "If the total is 2, 3 or 4" in text
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        wizard.button(QWizard.WizardButton.FinishButton).click()
    item = window.project.item("cheated_exam")
    assert item.design_record["randomizer"] == {"kind": "dice_sum", "dice": 2, "sides": 6, "yes": [2, 3, 4],
                                                "no": [11, 12]}
    from dpdesk.project.report.design_words import design_words, item_randomizer
    from dpdesk.mechanisms import rr

    words = design_words(rr.Design.from_dict(item.design_record), item.instructions, item_randomizer(item))
    assert words.startswith("Forced response with two six-sided dice, added up")
    assert "totals 2, 3 or 4 mean 'yes' and 11 or 12 mean 'no'" in words
    window.design_view.select("cheated_exam")
    again = window.design_view.edit_selected()  # reopens with its dice
    again.next()
    again.next()
    assert again.randomizer_page.current_device() == "dice"
    assert again.randomizer_page.dice_no.text() == "11, 12"
    again.reject()


def test_a_design_that_protects_no_one_is_said_plainly_and_confirmed(wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "Exact")
    for key, text in (("p_truth", "1"), ("p_yes", "0"), ("p_no", "0")):
        type_number(qtbot, rp.editors[key].spin, text)
    assert "protects no one" in rp.problem.text()
    assert rp.no_privacy.isVisibleTo(rp) and not rp.isComplete() and not _next_enabled(wizard)
    shot(wizard, "wizard_3_randomizer_no_privacy")
    qtbot.mouseClick(rp.no_privacy, Qt.MouseButton.LeftButton)
    assert rp.isComplete() and _next_enabled(wizard)
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    assert "protects no one" in wizard.meaning_page.privacy.text()
    wizard.back()
    type_number(qtbot, rp.editors["p_truth"].spin, "1/2")
    type_number(qtbot, rp.editors["p_yes"].spin, "1/4")
    type_number(qtbot, rp.editors["p_no"].spin, "1/4")
    assert not rp.no_privacy.isVisibleTo(rp) and rp.isComplete()


def test_parse_number_takes_what_people_type():
    from dpdesk.gui.widgets.number_entry import EntryProblem, parse_number, shown

    for text, value in (("0.75", Fraction(3, 4)), ("0,75", Fraction(3, 4)), (".75", Fraction(3, 4)),
                        ("3/4", Fraction(3, 4)), (" 1 / 6 ", Fraction(1, 6)), ("75%", Fraction(3, 4)),
                        ("0.0833", Fraction(833, 10000)), ("1", Fraction(1))):
        assert parse_number(text) == value, text
    for text in ("", "1/0", "1.2.3", "//"):
        with pytest.raises(EntryProblem):
            parse_number(text)
    assert [shown(v, 4) for v in (Fraction(3, 4), Fraction(2, 3), Fraction(1, 12), Fraction(0), Fraction(1))] == \
        ["0.75", "0.6667", "0.0833", "0", "1"]


def test_enter_in_a_number_box_confirms_it_and_stays_on_the_page(wizard, qtbot):
    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, "Exact")
    type_number(qtbot, rp.editors["p_truth"].spin, "0.5")  # finished with Enter
    assert wizard.currentPage() is rp and rp.editors["p_truth"].value() == Fraction(1, 2)


@pytest.mark.parametrize("device,kind,german", [
    ("Coins", "coins", "Werfen Sie unbeobachtet nacheinander 2 Münzen"),
    ("A die", "die", "Würfeln Sie unbeobachtet mit einem fairen 6-seitigen Würfel"),
])
def test_the_randomizer_is_kept_and_named_on_the_card_in_another_language(window, wizard, qtbot, device, kind,
                                                                           german):
    from dpdesk.project import languages as L

    rp = wizard.randomizer_page
    _choose_device(qtbot, rp, device)
    assert rp.isComplete(), rp.problem.text()
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    wizard.next()
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        wizard.button(QWizard.WizardButton.FinishButton).click()
    record = window.project.item("cheated_exam").design_record["randomizer"]
    assert record["kind"] == kind
    card = L.respondent_text_in(window.project, "cheated_exam", "de").card
    assert "Ihr Zufallsgenerator: " + german in card
    window.design_view.select("cheated_exam")
    again = window.design_view.edit_selected()  # reopens with its randomizer, and saves it again unchanged
    again.next()
    again.next()
    assert again.randomizer_page.current_device() == kind
    with qtbot.waitSignal(again.meaning_page.runner.done, timeout=60_000):
        again.next()
    again.next()
    with qtbot.waitSignal(again.finished, timeout=10_000):
        again.button(QWizard.WizardButton.FinishButton).click()
    assert window.project.item("cheated_exam").design_record["randomizer"] == record


def test_the_last_step_fields_the_new_item(window, wizard, qtbot, tmp_path):
    from dpdesk.mechanisms import rr

    window.project.add_item("older", rr.design("warner", p=0.7))  # not fielded: only the new item is
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    wizard.next()
    page = wizard.instructions_page
    page.field_mode.setFocus()
    qtbot.keyClick(page.field_mode, Qt.Key.Key_Down)  # "On an online platform"
    assert wizard.draft.field_mode == "online"
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        wizard.button(QWizard.WizardButton.FinishButton).click()
    dialog = window.design_view.field_dialog
    qtbot.waitExposed(dialog)
    assert dialog.mode.currentData() == "online" and dialog.items_label.text() == "cheated_exam"
    assert dialog.export_button.isEnabled(), dialog.problem.text()
    with qtbot.waitSignal(dialog.exported, timeout=30_000) as signal:
        dialog.export_to(str(tmp_path / "survey.qsf"))
    assert signal.args[0].items == ("cheated_exam",) and (tmp_path / "survey.qsf").exists()
    dialog.reject()
