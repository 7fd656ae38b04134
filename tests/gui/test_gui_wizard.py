"""The survey-design wizard end to end: a one-group, a two-group and a multi-category design."""

from __future__ import annotations

import math
import shutil
import subprocess

import pytest
from PySide6.QtWidgets import QLabel, QWizard

from tests.helpers.gui import shot, type_number


@pytest.fixture
def project_window(window, tmp_path):
    assert window.create_project(tmp_path / "wizard.dpdesk")
    return window


def _start(window, question, kind="yes/no", categories=""):
    wizard = window.design_view.new_item()
    wizard.meaning_page.seed = 1
    page = wizard.question_page
    assert wizard.currentPage() is page
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    page.question.setPlainText(question)
    page.kind_buttons[kind].setChecked(True)
    page.categories.setText(categories)
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    return wizard


def _to_meaning(qtbot, wizard):
    """Next from the randomizer page, waiting for the simulated preview."""
    with qtbot.waitSignal(wizard.meaning_page.runner.done, timeout=60_000):
        wizard.next()
    assert wizard.currentPage() is wizard.meaning_page
    assert wizard.meaning_page.plot.table.rowCount() >= wizard.meaning_page.runs


def _finish(qtbot, wizard):
    with qtbot.waitSignal(wizard.finished, timeout=10_000):
        wizard.button(QWizard.WizardButton.FinishButton).click()


def test_one_group_forced_response_with_coins(project_window, qtbot, tmp_path):
    w = project_window
    wizard = _start(w, "In the last year, have you cheated in an exam?")
    assert wizard.question_page.item_name.text() == "cheated_exam"
    shot(wizard, "wizard_1_question")
    wizard.next()
    page = wizard.design_page
    assert page.selected() == "forced"  # the recommended default
    assert "(recommended)" in page.buttons["forced"].text()
    assert any("Two-group designs" in label.text() for label in page.inner.findChildren(QLabel))
    shot(wizard, "wizard_2_design")
    wizard.next()
    rp = wizard.randomizer_page
    assert rp.current_device() == "coins" and rp.isComplete()
    assert "50%" in rp.summary.text() and "25%" in rp.summary.text()
    shot(wizard, "wizard_3_randomizer")
    _to_meaning(qtbot, wizard)
    mp = wizard.meaning_page
    assert "at most 3.00 times as likely" in mp.privacy.text()  # ln 3 for the coin design, as in the report
    assert "about 1,399 respondents" in mp.precision.text()  # rr.required_n at 20%, ±5%
    assert "above 0% with 1,000 respondents: more than 99%" in mp.precision.text()
    shot(wizard, "wizard_4_meaning")
    wizard.next()
    ip = wizard.instructions_page
    text = ip.text.toPlainText()
    assert text.startswith("In the last year, have you cheated in an exam?")
    assert "Two coins: heads first, answer truthfully" in text and "[ ] Yes" in text
    shot(wizard, "wizard_5_instructions")
    ip.text.appendPlainText("Thank you for your help.")
    assert wizard.draft.instructions_edited
    with qtbot.waitSignal(ip.runner.done, timeout=30_000):
        ip.save_card(tmp_path / "card")
    assert ip.last_card == tmp_path / "card.pdf"
    _check_card(ip.last_card, ["In the last year, have you cheated in an exam?", "tails then heads, say 'yes'",
                               "Thank you for your help."])
    ip.copy_text()
    from PySide6.QtWidgets import QApplication

    assert "Thank you for your help." in QApplication.clipboard().text()
    _finish(qtbot, wizard)
    item = w.project.item("cheated_exam")
    assert item.design_name == "forced"
    assert item.design_record["params"] == {"p_truth": 0.5, "p_yes": 0.25, "p_no": 0.25}
    assert math.isclose(item.design_record["epsilon"], math.log(3))
    assert w.design_view.table.rowCount() == 1


def _check_card(path, phrases):
    from tests.helpers.pdftext import page_count, pdf_text

    data = path.read_bytes()
    assert data.startswith(b"%PDF") and page_count(data) == 1
    text = pdf_text(data)
    for phrase in phrases:
        assert phrase in text
    if shutil.which("pdftotext"):  # poppler, where installed, reads it the same way
        out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
        flat = " ".join(out.split())
        for phrase in phrases:
            assert phrase in flat


def test_two_group_lie_detector_with_a_die(project_window, qtbot):
    w = project_window
    wizard = _start(w, "In the last month, have you used a study drug without a prescription?")
    wizard.question_page.item_name.setText("drugs")
    wizard.next()
    wizard.design_page.buttons["sld"].setChecked(True)
    wizard.next()
    rp = wizard.randomizer_page
    rp.device.setCurrentIndex(rp.device.findData("die"))
    assert set(rp.editors) == {"p1", "p2"}
    rp.editors["p1"].spin.setValue(2)
    rp.editors["p2"].spin.setValue(4)
    assert rp.isComplete()
    rp.editors["p2"].spin.setValue(2)  # equal groups cannot separate lying from prevalence
    assert not rp.isComplete() and "must differ" in rp.problem.text()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    rp.editors["p2"].spin.setValue(4)
    shot(wizard, "wizard_3_randomizer_die_two_groups")
    _to_meaning(qtbot, wizard)
    assert "not protected" in wizard.meaning_page.privacy.text()  # a 'no' reveals a non-carrier or a liar
    wizard.next()
    assert "group 1" in wizard.instructions_page.text.toPlainText()
    _finish(qtbot, wizard)
    item = w.project.item("drugs")
    assert item.design_name == "sld"
    assert item.design_record["params"] == pytest.approx({"p1": 1 / 3, "p2": 2 / 3})
    assert "not protected" in w.design_view.combined.text()


def test_multi_category_krr(project_window, qtbot):
    w = project_window
    wizard = _start(w, "How often did you copy homework this term?", "categories", "never, once, several times")
    wizard.next()
    page = wizard.design_page
    assert set(page.buttons) == {"forced_multi", "krr"}
    assert page.selected() == "forced_multi"
    shot(wizard, "wizard_2_design_categories")
    page.buttons["krr"].setChecked(True)
    wizard.next()
    rp = wizard.randomizer_page
    assert rp.current_device() == "exact"
    type_number(qtbot, rp.editors["epsilon"].spin, "1.5")
    _to_meaning(qtbot, wizard)
    mp = wizard.meaning_page
    assert mp.shares.text() == "33.3, 33.3, 33.3"
    assert "Local epsilon = 1.50" in mp.privacy.text() and "category" in mp.privacy.text()
    assert mp.plot.table.rowCount() == 3 * mp.runs  # one row per survey and category
    shot(wizard, "wizard_4_meaning_categories")
    wizard.next()
    text = wizard.instructions_page.text.toPlainText()
    assert "[ ] never" in text and "[ ] several times" in text
    _finish(qtbot, wizard)
    item = w.project.item("copy_homework_term")
    assert item.design_name == "krr"
    assert item.design_record["params"]["categories"] == ["never", "once", "several times"]


def test_forced_multi_and_going_back(project_window, qtbot):
    w = project_window
    wizard = _start(w, "Which subject did you cheat in?", "categories", "maths, languages")
    wizard.next()
    wizard.next()  # forced_multi, recommended
    rp = wizard.randomizer_page
    rp.editors["p_truth"].spin.setValue(0.6)
    wizard.back()
    wizard.back()
    wizard.question_page.kind_buttons["yes/no"].setChecked(True)
    wizard.next()
    assert wizard.design_page.selected() == "forced"  # the answer changed: choose again
    wizard.reject()


def test_undo_redo_of_design_edits(project_window, qtbot):
    w = project_window
    wizard = _start(w, "Have you ever plagiarised?")
    wizard.next()
    wizard.design_page.buttons["crosswise"].setChecked(True)
    wizard.next()
    rp = wizard.randomizer_page
    assert rp.current_device() == "birthday"
    _to_meaning(qtbot, wizard)
    wizard.next()
    _finish(qtbot, wizard)
    stack = w.undo_stack
    assert [i.name for i in w.project.items()] == ["plagiarised"]
    assert stack.undoText() == "Add item 'plagiarised'"
    # edit: a different birth-month share
    w.design_view.select("plagiarised")
    wizard = w.design_view.edit_selected()
    wizard.meaning_page.seed = 1
    assert wizard.draft.editing == "plagiarised"
    wizard.next()
    wizard.next()
    rp = wizard.randomizer_page
    assert rp.current_device() == "exact"
    type_number(qtbot, rp.editors["p"].spin, "0.1")
    _to_meaning(qtbot, wizard)
    wizard.next()
    _finish(qtbot, wizard)
    assert w.project.item("plagiarised").design_record["params"]["p"] == 0.1
    stack.undo()
    assert w.project.item("plagiarised").design_record["params"]["p"] == pytest.approx(90.2425 / 365.2425)
    stack.redo()
    assert w.project.item("plagiarised").design_record["params"]["p"] == 0.1
    # remove, undo, redo
    w.design_view.select("plagiarised")
    w.design_view.remove_selected()
    assert w.project.items() == [] and w.design_view.table.rowCount() == 0
    w.actions_["undo"].trigger()
    assert [i.name for i in w.project.items()] == ["plagiarised"] and w.design_view.table.rowCount() == 1
    w.actions_["redo"].trigger()
    assert w.project.items() == []
    stack.undo()
    stack.undo()
    stack.undo()
    assert w.project.items() == []  # back before the item was added


def test_preview_cancel_and_replace(project_window, qtbot):
    """Starting a new preview cancels the running one; only the last result arrives."""
    w = project_window
    wizard = _start(w, "Have you ever lied to a doctor?")
    wizard.next()
    wizard.next()
    mp = wizard.meaning_page
    mp.runs = 30
    with qtbot.waitSignal(mp.runner.done, timeout=60_000):
        wizard.next()
        first = mp.runner.current
        mp.start_preview()
        assert first is None or first.cancelled
    assert mp.plot.table.rowCount() == 30
    mp.start_preview()
    mp.runner.cancel()
    assert not mp.cancel.isEnabled()
    wizard.reject()


def _every_choice_and_device():
    from dpdesk.gui.wizard.catalog import CHOICES

    return [(c.key, d) for c in CHOICES for d in c.devices]


@pytest.mark.parametrize("key,device", _every_choice_and_device())
def test_every_design_and_randomizer_has_valid_defaults(project_window, qtbot, key, device):
    """Each design, with each of its randomizers at the default settings, is a valid rr design."""
    from dpdesk.gui.wizard.catalog import BY_KEY

    choice = BY_KEY[key]
    wizard = _start(project_window, "Have you ever done it?", choice.answers, "a, b, c")
    wizard.next()
    wizard.design_page.buttons[key].setChecked(True)
    wizard.next()
    rp = wizard.randomizer_page
    rp.device.setCurrentIndex(rp.device.findData(device))
    assert rp.isComplete(), rp.problem.text()
    assert rp.summary.text()
    wizard.next()
    mp = wizard.meaning_page
    assert wizard.currentPage() is mp and not mp.problem.isVisibleTo(mp), mp.problem.text()
    assert "Local epsilon" in mp.privacy.text()
    qtbot.waitUntil(lambda: "respondents" in mp.precision.text())  # worked out in the background ("Working it out")
    wizard.next()
    text = wizard.instructions_page.text.toPlainText()
    two = key in ("crosswise", "triangular", "unrelated")
    head = "--- Version 1 ---\n" if key == "ecwm" else ""  # the extended crosswise model: a card per version
    assert text.startswith(head + "A: Have you ever done it?\nB: " if two or head else "Have you ever done it?")
    wizard.reject()


def test_planning_takes_an_expected_design_effect(project_window, qtbot):
    from PySide6.QtCore import Qt

    from dpdesk.mechanisms import rr

    wizard = _start(project_window, "In the last year, have you cheated in an exam?")
    wizard.next()
    wizard.next()
    _to_meaning(qtbot, wizard)
    mp = wizard.meaning_page
    assert "about 1,399 respondents" in mp.precision.text() and "design effect" not in mp.precision.text()
    mp.deff.setFocus()
    mp.deff.selectAll()
    qtbot.keyClicks(mp.deff, "2")
    qtbot.keyClick(mp.deff, Qt.Key.Key_Tab)
    coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    need = rr.required_n(coin, 0.05, 0.2, deff=2)
    assert need in (2797, 2798) and f"about {need:,} respondents" in mp.precision.text()
    assert "design effect of 2" in mp.precision.text() and "worth about 500" in mp.precision.text()
    assert wizard.draft.deff == 2.0


def _choose_device(rp, device):
    """Pick ``device`` in the randomizer box (set directly, as the other tests here do: arrow keys sent
    to the offscreen wizard were lost now and then under load, when it was not the active window)."""
    rp.device.setCurrentIndex(rp.device.findData(device))
    assert rp.device.currentData() == device


@pytest.mark.parametrize("key,device,categories,expected", [
    ("unrelated", "die", "", {"kind": "die", "sides": 6, "a": [1, 2, 3, 4], "b": [5, 6], "birthday_months": [1, 2, 3]}),
    ("unrelated", "cards", "", {"kind": "cards", "a": 8, "b": 4, "birthday_months": [1, 2, 3]}),
    ("forced_multi", "die", "bus, car", {"kind": "die", "sides": 6, "truth": [1, 2, 3, 4], "forced": [[5], [6]],
                                         "categories": ["bus", "car"]}),
])
def test_the_die_or_cards_are_kept_for_every_language(project_window, qtbot, key, device, categories, expected):
    """The unrelated question chosen by a die or cards, and forced response by categories with a
    die, keep their randomizer with the item: the German instructions say how to draw it."""
    from dpdesk.mechanisms.rr.wording import randomizer_sentence
    from dpdesk.project import languages as L

    wizard = _start(project_window, "Have you ever done it?", "categories" if categories else "yes/no", categories)
    wizard.next()
    wizard.design_page.buttons[key].setChecked(True)  # as the other tests here (the records are the point)
    wizard.next()
    rp = wizard.randomizer_page
    assert wizard.currentPage() is rp and wizard.draft.design_key == key
    _choose_device(rp, device)
    assert rp.isComplete(), rp.problem.text()
    assert wizard.draft.randomizer == expected
    _to_meaning(qtbot, wizard)
    wizard.next()
    _finish(qtbot, wizard)
    item = project_window.project.items()[-1]
    assert item.design_record["randomizer"] == expected
    german = L.platform_text(project_window.project, item.name, "de")["instructions"]
    assert randomizer_sentence(expected, "de", ["bus", "car"] if categories else None) in german


def test_typing_into_a_suggested_short_name_replaces_it(project_window, qtbot):
    """The walk clicked into the suggested name and typed: "copy_exams" + "copying" = "copy_examscopying"."""
    from PySide6.QtCore import Qt

    wizard = _start(project_window, "Have you ever copied in an exam?")
    box = wizard.question_page.item_name
    assert box.text()  # a suggestion
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    qtbot.waitUntil(box.hasSelectedText)
    qtbot.keyClicks(box, "copying")
    assert box.text() == "copying"
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())  # the researcher's own name stays
    qtbot.keyClicks(box, "_x")
    assert box.text().startswith("copy") and "_x" in box.text() and box.text() != "_x"
    wizard.reject()
