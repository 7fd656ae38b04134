"""The card of every design and randomizer, read back from the PDF: both questions where there
are two, every instruction, every answer option, a title that does not repeat the question, no researcher notes."""

from __future__ import annotations

import unicodedata

import pytest
from PySide6.QtWidgets import QWizard

from tests.helpers.designs import EXAMPLES
from tests.helpers.gui import shot
from tests.helpers.pdftext import pdf_text

QUESTION = "In the last year, have you cheated in an exam?"
SHORT_NAME = "zzq_internal"  # the item's short name: respondents never see it
BIRTHDAY_B = "Is your mother's birthday in January, February or March?"
RESEARCHER_NOTES = ("146097", "0.2471", "national birth statistics", "Probabilities:", SHORT_NAME)


def flat(text: str) -> str:
    return " ".join(text.split())


def check_card(pdf, design, question: str, device_text: str, question_b: str = "") -> str:
    from dpdesk.gui.widgets.card import TWO_QUESTIONS, answer_options

    text = unicodedata.normalize("NFKC", pdf_text(pdf.read_bytes()))  # Qt draws "ff" as a ligature
    assert text.startswith("Please read before you answer"), text[:200]  # the title: not question A again
    versions = 2 if design.name == "ecwm" else 1  # the extended crosswise model: a card per version of B
    assert text.count(flat(question)) == versions, text[:300]  # the question is asked once per card, below the title
    if design.name in TWO_QUESTIONS:
        assert question_b and f"A: {flat(question)}" in text and f"B: {flat(question_b)}" in text
    if versions == 2:
        from dpdesk.project.languages.versions import version_design

        assert "(Version 1)" in text and "(Version 2)" in text and "---" not in text
        for v in (1, 2):
            assert flat(version_design(design, v).describe()) in text  # each version's share of 'yes' to B
    else:
        assert flat(design.describe()) in text  # what to do
    if device_text:
        assert flat(device_text) in text, text  # what to do with the randomizer, outcome by outcome
    options = design.categories if design.model == "unary" else answer_options(design)
    for option in options:
        assert flat(option) in text, option
    for note in RESEARCHER_NOTES:
        assert note not in text, note
    return text


# ---------------------------------------------------------------------- every design, directly


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_card_of_every_design(qtbot, tmp_path, name):
    from dpdesk.gui.widgets.card import TWO_QUESTIONS, card_title, suggested_instructions, version_pages, write_card
    from dpdesk.mechanisms import rr

    d = rr.design(name, **EXAMPLES[name])
    b = BIRTHDAY_B if name in TWO_QUESTIONS else ""
    text = suggested_instructions(QUESTION, d, "", b, question_b2="Is your mother's birthday in April-December?")
    pages = version_pages(card_title("", QUESTION), text) if name == "ecwm" else [(card_title("", QUESTION), text)]
    pdf = write_card(tmp_path / f"{name}.pdf", *pages[0], pages[1:])
    check_card(pdf, d, QUESTION, "", b)


def test_researcher_title_replaces_the_question_as_title(tmp_path):
    from dpdesk.gui.widgets.card import card_title, suggested_instructions, write_card
    from dpdesk.mechanisms import rr

    d = rr.design("forced", **EXAMPLES["forced"])
    pdf = write_card(tmp_path / "t.pdf", card_title("Exam survey, question 7", QUESTION),
                     suggested_instructions(QUESTION, d, ""))
    text = pdf_text(pdf.read_bytes())
    assert text.startswith("Exam survey, question 7") and flat(QUESTION) in text


# ---------------------------------------------------------------------- every randomizer, in the wizard


@pytest.fixture
def project_window(window, tmp_path):
    assert window.create_project(tmp_path / "cards.dpdesk")
    return window


def _every_choice_and_device():
    from dpdesk.gui.wizard.catalog import CHOICES

    return [(c.key, d) for c in CHOICES for d in c.devices]


def _to_instructions(window, key, device, categories="never, once, several times"):
    from dpdesk.gui.wizard.catalog import BY_KEY

    choice = BY_KEY[key]
    wizard = window.design_view.new_item()
    qp = wizard.question_page
    qp.question.setPlainText(QUESTION)
    qp.item_name.setText(SHORT_NAME)
    qp.kind_buttons[choice.answers].setChecked(True)
    qp.categories.setText(categories)
    wizard.next()
    wizard.design_page.buttons[key].setChecked(True)
    wizard.next()
    rp = wizard.randomizer_page
    rp.device.setCurrentIndex(rp.device.findData(device))
    assert rp.isComplete(), rp.problem.text()
    return wizard


@pytest.mark.parametrize("key,device", _every_choice_and_device())
def test_card_of_every_design_and_randomizer_in_the_wizard(project_window, qtbot, tmp_path, key, device):
    wizard = _to_instructions(project_window, key, device)
    if (key, device) == ("crosswise", "birthday"):
        shot(wizard, "wizard_3_randomizer_birthday")  # question B and the researcher's note
    wizard.next()
    wizard.next()
    ip = wizard.instructions_page
    assert wizard.currentPage() is ip
    draft = wizard.draft
    if ip.two_questions() and not draft.question_b:  # exact probabilities: the researcher writes B
        assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
        assert "[write the harmless question" in ip.text.toPlainText()
        ip.question_b.setText("Is your father's birthday in June?")
        ip.question_b.textEdited.emit(ip.question_b.text())
    if ip.two_versions() and not draft.question_b2:  # version 2's question B, too
        ip.question_b2.setText("Is your father's birthday in another month than June?")
        ip.question_b2.textEdited.emit(ip.question_b2.text())
    assert ip.isComplete()
    if (key, device) == ("crosswise", "birthday"):
        shot(wizard, "wizard_5_instructions_crosswise")
    with qtbot.waitSignal(ip.runner.done, timeout=30_000):
        ip.save_card(tmp_path / "card.pdf")
    text = check_card(ip.last_card, draft.design(), QUESTION, draft.device_text, draft.question_b)
    if device == "birthday":
        assert BIRTHDAY_B in text and "146097" in draft.notes  # the note is the researcher's, off the card
    if device == "die" and key in ("forced", "forced_multi"):
        assert text.count("If it shows") == (3 if key == "forced" else 4)  # truth, then each answer
    wizard.reject()


def test_multi_category_die_that_cannot_work_is_refused_and_the_nearest_offered(project_window, qtbot, tmp_path):
    wizard = _to_instructions(project_window, "forced_multi", "die", categories="a, b, c, d")
    rp = wizard.randomizer_page
    rp.sides.setValue(6)
    rp.editors["p_truth"].spin.setValue(4)  # 2 faces left for 4 categories of 8.3%
    assert not rp.isComplete() and "cannot give each of the 4 categories" in rp.problem.text()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    assert rp.use_nearest.isVisibleTo(rp) and "12-sided die, 8 faces" in rp.use_nearest.text()
    shot(wizard, "wizard_3_randomizer_die_refused")
    rp.use_nearest.click()
    assert rp.isComplete() and rp.sides.value() == 12 and rp.editors["p_truth"].spin.value() == 8
    assert "If it shows 9, answer 'a'." in wizard.draft.device_text
    assert wizard.draft.design().params["p_forced"] == pytest.approx([1 / 12] * 4)
    wizard.reject()
