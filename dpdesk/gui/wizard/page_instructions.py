"""Wizard page 5: respondent instructions (editable), a printable PDF card, plain text to copy.

The card's title is a title the researcher sets, else "Please read before you answer"; never the
question (the card asks it right below) and never the item's short name. Two-question designs ask question B outright (a field here, prefilled from the
randomizer, e.g. the birthday question). The researcher's notes on the randomizer (exact
shares, the birthday-seasonality caveat) are shown here for the methods text and are
never printed on the card. "Then field it" opens the Field it dialog for the item once it is
saved (mode, languages, export).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWizardPage,
)

from dpdesk.errors import DpdeskError, app_words

from dpdesk.gui.widgets.card import TWO_QUESTIONS, card_steps, card_title, suggested_instructions, version_pages

PLACEHOLDER = "[write the harmless question"
#: The extended crosswise model's two versions of question B, in plain words (the last step).
VERSIONS_WORDS = ("Half of the respondents, drawn at random by the survey platform, read version 1 of question B; "
                  "the others read version 2, which asks the opposite (the other months), so its share of 'yes' is "
                  "the rest. If respondents follow the instructions, both halves give the same prevalence. On "
                  "paper, shuffle the two cards in equal numbers. Each card below is marked with its version.")
#: The last step's "Then field it" choice: after saving, the Field it dialog opens in that mode.
#: The words are marked for Qt's translation (context ``InstructionsPage``) and shown through ``tr()``.
FIELD_MODES = ((QT_TRANSLATE_NOOP("InstructionsPage", "Not now"), None),
               (QT_TRANSLATE_NOOP("InstructionsPage", "On an online platform (Qualtrics, LimeSurvey, REDCap, ODK)"),
                "online"),
               (QT_TRANSLATE_NOOP("InstructionsPage", "In an interview (tablet or laptop)"), "interview"),
               (QT_TRANSLATE_NOOP("InstructionsPage", "On a paper card"), "paper"))
from dpdesk.gui.shell.steps import StepRunner
from dpdesk.gui.widgets.common import name, note, problem_label, show_problem


class InstructionsPage(QWizardPage):
    def __init__(self, draft, parent=None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.setTitle("Respondent instructions")
        self.setSubTitle("What respondents read. Edit it freely, then print the card or copy it into your survey.")
        self.text = name(QPlainTextEdit(), "Instructions", "The instructions respondents will read; you can edit them")
        self.text.setTabChangesFocus(True)
        self.reset = name(QPushButton("Use the suggested wording"), "Use the suggested wording",
                          "Replace your edits with the generated instructions")
        self.save_pdf = name(QPushButton("Save printable card (PDF)…"), "Save printable card",
                             "Save the instructions as a PDF card to print")
        self.copy = name(QPushButton("Copy as plain text"), "Copy as plain text",
                         "Copy the instructions to paste into an online survey or a paper form")
        self.card_title = name(QLineEdit(), "Card title", "The title printed on the card (default: Please read before you answer)")
        self.question_b = name(QLineEdit(), "Question B", "The harmless question B, as respondents read it")
        self.question_b.setPlaceholderText("for example: Is your mother's birthday in January, February or March?")
        self.question_b2 = name(QLineEdit(), "Question B, version 2",
                                "The extended crosswise model: version 2 of question B, whose share of 'yes' is the "
                                "rest of version 1's (the other months)")
        self.question_b2.setPlaceholderText("for example: Is your mother's birthday between April and December?")
        self.versions = note(VERSIONS_WORDS, object_name="versionsExplained")
        self.versions.setAccessibleName("About the two versions of question B")
        self.notes = note(object_name="researcherNotes")
        self.notes.setAccessibleName("Notes for the researcher")
        self.status = note(object_name="cardStatus")
        self.status.setAccessibleName("Card status")
        self.problem = problem_label()
        buttons = QHBoxLayout()
        buttons.addWidget(self.reset)
        buttons.addStretch(1)
        buttons.addWidget(self.copy)
        buttons.addWidget(self.save_pdf)
        self.field_mode = name(QComboBox(), self.tr("Then field it"),
                               self.tr("After saving, export the item for the survey: online platform, interview "
                                       "or paper"))
        for words, mode in FIELD_MODES:
            self.field_mode.addItem(self.tr(words), mode)
        self.fields = QFormLayout()
        self.fields.addRow("Card &title:", self.card_title)
        self.fields.addRow("&Question B:", self.question_b)
        self.fields.addRow("Question B, &version 2:", self.question_b2)
        self.fields.addRow(self.versions)
        then = QFormLayout()
        then.addRow(self.tr("Then &field it:"), self.field_mode)
        layout = QVBoxLayout(self)
        layout.addLayout(self.fields)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.notes)
        layout.addLayout(buttons)
        layout.addLayout(then)
        layout.addWidget(self.status)
        layout.addWidget(self.problem)
        self.runner = StepRunner(self)  # the PDF is laid out on the GUI thread, in steps
        self.runner.done.connect(self._on_saved)
        self.runner.failed.connect(self._on_failed)
        self.text.textChanged.connect(self._on_edit)
        self.reset.clicked.connect(self.use_suggested)
        self.copy.clicked.connect(self.copy_text)
        self.save_pdf.clicked.connect(self._ask_and_save)
        self.card_title.textEdited.connect(self._on_title)
        self.question_b.textEdited.connect(self._on_question_b)
        self.question_b2.textEdited.connect(self._on_question_b2)
        self.field_mode.currentIndexChanged.connect(lambda _i: setattr(draft, "field_mode", self.field_mode.currentData()))
        self._filling = False
        self.last_card: Path | None = None

    def suggested(self) -> str:
        d = self.draft
        return suggested_instructions(d.question, d.design(), d.device_text, d.question_b, question_b2=d.question_b2)

    def two_questions(self) -> bool:
        return self.draft.design_key in TWO_QUESTIONS

    def two_versions(self) -> bool:
        """The extended crosswise model: question B in two versions, one card each."""
        return self.draft.design_key == "ecwm"

    def initializePage(self) -> None:
        d = self.draft
        self.card_title.setText(d.card_title)
        self.card_title.setPlaceholderText(card_title("", ""))  # what the card says unless a title is typed
        self.question_b.setText(d.question_b)
        self.question_b2.setText(d.question_b2)
        for box in (self.question_b, self.question_b2):
            box.setCursorPosition(0)  # a long question shows its beginning, not its end
        self.fields.setRowVisible(self.question_b, self.two_questions())
        self.fields.labelForField(self.question_b).setText("&Question B, version 1:" if self.two_versions()
                                                           else "&Question B:")
        self.question_b.setAccessibleName("Question B, version 1" if self.two_versions() else "Question B")
        self.fields.setRowVisible(self.question_b2, self.two_versions())
        self.fields.setRowVisible(self.versions, self.two_versions())
        self.notes.setText(f"<b>Note for you</b> (for your methods text; not printed on the card): {d.notes}"
                           if d.notes else "")
        self.notes.setVisible(bool(d.notes))
        self._set_text(d.instructions if d.instructions_edited and d.instructions else self.suggested())
        QTimer.singleShot(0, self.text.setFocus)  # after QWizard focuses the first field

    def _on_title(self, text: str) -> None:
        self.draft.card_title = text

    def _on_question_b(self, text: str) -> None:
        self.draft.question_b = text.strip()
        self.draft.question_b_edited = True
        if not self.draft.instructions_edited:
            self._set_text(self.suggested())
        self.completeChanged.emit()

    def _on_question_b2(self, text: str) -> None:
        self.draft.question_b2 = text.strip()
        self.draft.question_b2_edited = True
        if not self.draft.instructions_edited:
            self._set_text(self.suggested())
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        """Two-question designs need question B (each version's, for the extended crosswise model) written
        out before the item is saved."""
        if not self.two_questions():
            return True
        written = [self.draft.question_b] + ([self.draft.question_b2] if self.two_versions() else [])
        if all(b.strip() for b in written):
            return True
        return PLACEHOLDER not in self.text.toPlainText()  # an edited text that asks B itself

    def _set_text(self, text: str) -> None:
        self._filling = True
        self.text.setPlainText(text)
        self._filling = False
        self.draft.instructions = text

    def use_suggested(self) -> None:
        self.draft.instructions_edited = False
        self._set_text(self.suggested())

    def _on_edit(self) -> None:
        self.draft.instructions = self.text.toPlainText()
        if not self._filling:
            self.draft.instructions_edited = True
            self.completeChanged.emit()

    def copy_text(self) -> None:
        QApplication.clipboard().setText(self.text.toPlainText())
        self.status.setText("Copied both versions, each headed by its version: paste each where only that "
                            "version's respondents read it (the survey platform draws the version)."
                            if self.two_versions() else "Copied. Paste it into your survey tool or document.")

    def _ask_and_save(self) -> None:
        wizard = self.wizard()
        folder = wizard.settings.last_folder("export") if getattr(wizard, "settings", None) else str(Path.home())
        path, _ = QFileDialog.getSaveFileName(self, "Save the instruction card", str(Path(folder) / f"{self.draft.name or 'card'}.pdf"),
                                              "PDF files (*.pdf)")
        if path:
            if getattr(wizard, "settings", None):
                wizard.settings.set_last_folder("export", path)
            self.save_card(path)

    def save_card(self, path) -> None:
        """Write the card in steps; ``runner.done`` fires with the path when it is saved."""
        path = Path(path)
        if path.suffix.lower() != ".pdf":
            path = path.with_suffix(".pdf")
        self.status.setText("Saving the card…")
        title = card_title(self.draft.card_title, self.draft.question)
        if self.two_versions():  # a card per version of question B
            pages = version_pages(title, self.text.toPlainText())
            self.runner.start(card_steps(path, *pages[0], pages[1:]))
            return
        self.runner.start(card_steps(path, title, self.text.toPlainText()))

    def _on_saved(self, path) -> None:
        self.last_card = Path(path)
        show_problem(self.problem, "")
        self.status.setText(f"Card saved to {path}.")

    def _on_failed(self, exc) -> None:
        self.status.setText("")
        show_problem(self.problem, app_words(exc) if isinstance(exc, DpdeskError)
                     else "The card could not be saved. Check that the folder exists and is writable.")

    def cleanupPage(self) -> None:
        self.runner.cancel()
