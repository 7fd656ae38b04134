"""The respondent's text in each language: edit it, mark it reviewed, print the card in that language.

The app's own words stay English (wrapped in ``tr()`` for Qt translation); the respondent's
words come from ``dpdesk.project.languages`` (dpdesk's templates, or what the researcher wrote).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from dpdesk.errors import DpdeskError, app_words
from dpdesk.mechanisms.rr.wording.text import TWO_QUESTIONS

from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.shell.steps import StepRunner
from dpdesk.gui.widgets.common import name, note, problem_label, show_problem


class LanguagesDialog(QDialog):
    """One item's respondent text per language (``project.languages``), with its review mark."""

    def __init__(self, project, item_name: str, settings=None, parent=None, language: str | None = None) -> None:
        super().__init__(parent)
        from dpdesk.mechanisms.rr.wording import LANGUAGES
        from dpdesk.project import languages

        self.L = languages
        self.project, self.item_name, self.settings = project, item_name, settings
        self.setObjectName("languagesDialog")
        self.setWindowTitle(self.tr("Respondent text in other languages"))
        item = project.item(item_name)
        self.two_questions = item.design.name in TWO_QUESTIONS
        intro = note(self.tr("What respondents read for '{0}' in each language. dpdesk writes it from its own "
                             "templates; edit any language, then have a native speaker check it.").format(item_name))
        self.language = name(QComboBox(), self.tr("Language"), self.tr("The language of the respondent text"))
        self.source = name(QComboBox(), self.tr("Items written in"),
                           self.tr("The language you wrote the project's questions and instructions in "
                                   "(for every item); the others are translations to review"))
        for code, own in LANGUAGES.items():
            self.language.addItem(f"{own} ({code})", code)
            self.source.addItem(f"{own} ({code})", code)
        self.source.setCurrentIndex(max(self.source.findData(languages.source_language(project)), 0))
        self.mark = QLabel()
        self.mark.setObjectName("reviewMark")
        self.mark.setWordWrap(True)
        self.mark.setAccessibleName(self.tr("Review state"))
        self.untranslated = note(object_name="untranslated")
        self.question = name(QLineEdit(), self.tr("Question"), self.tr("The question in this language"))
        self.question_b = name(QLineEdit(), self.tr("Question B"), self.tr("The harmless question B in this language"))
        self.versioned = item.design.name == "ecwm"  # the extended crosswise model: question B in two versions
        self.question_b2 = name(QLineEdit(), self.tr("Question B, version 2"),
                                self.tr("Version 2 of question B in this language: the complement of version 1 "
                                        "(the other months)"))
        self.card = name(QPlainTextEdit(), self.tr("Card text"),
                         self.tr("Everything the card says in this language; you can edit it"))
        self.card.setTabChangesFocus(True)
        self.reviewed = name(QCheckBox(self.tr("&Reviewed by a native speaker")), self.tr("Reviewed"),
                             self.tr("Tick once a native speaker has checked this language's text"))
        self.reviewer = name(QLineEdit(), self.tr("Reviewed by"), self.tr("Who reviewed it (for your records)"))
        self.reviewer.setPlaceholderText(self.tr("who reviewed it (optional)"))
        self.generated = name(QPushButton(self.tr("Use the &generated text")), self.tr("Use the generated text"),
                              self.tr("Replace your edits of this card with dpdesk's text in this language"))
        self.save_pdf = name(QPushButton(self.tr("Save &card (PDF)…")), self.tr("Save card"),
                             self.tr("Save this language's card as a PDF to print"))
        self.save_all = name(QPushButton(self.tr("Save cards in &all languages…")), self.tr("Save cards in all languages"),
                             self.tr("One PDF with a card per language the item is fielded in"))
        self.save = name(QPushButton(self.tr("&Save")), self.tr("Save"), self.tr("Save this language's text"))
        self.done_button = name(QPushButton(self.tr("Done")), self.tr("Done"),
                                self.tr("Save your edits and close"))
        self.status = note(object_name="languageStatus")
        self.problem = problem_label()
        form = QFormLayout()
        form.addRow(self.tr("Items &written in:"), self.source)
        form.addRow(self.tr("&Language:"), self.language)
        form.addRow(self.tr("&Question:"), self.question)
        form.addRow(self.tr("Question B, version &1:") if self.versioned else self.tr("Question &B:"), self.question_b)
        form.setRowVisible(self.question_b, self.two_questions)
        form.addRow(self.tr("Question B, version &2:"), self.question_b2)
        form.setRowVisible(self.question_b2, self.versioned)
        review = QHBoxLayout()
        review.addWidget(self.reviewed)
        review.addWidget(self.reviewer, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.generated)
        buttons.addStretch(1)
        buttons.addWidget(self.save_pdf)
        buttons.addWidget(self.save_all)
        buttons.addWidget(self.save)
        buttons.addWidget(self.done_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.mark)
        layout.addWidget(self.untranslated)
        layout.addWidget(self.card, 1)
        layout.addLayout(review)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.problem)
        self.resize(760, 600)
        self.runner = StepRunner(self)  # the PDF is laid out on the GUI thread, in steps
        self.runner.done.connect(self._on_saved_pdf)
        self.runner.failed.connect(self._on_failed_pdf)
        self.current: str | None = None
        self._filling = False
        self.card_edited = self.text_edited = self.review_clicked = False
        self.language.currentIndexChanged.connect(self._on_language)
        self.source.currentIndexChanged.connect(self._on_source)
        self.question.textEdited.connect(self._on_text_edited)
        self.question_b.textEdited.connect(self._on_text_edited)
        self.question_b2.textEdited.connect(self._on_text_edited)
        self.card.textChanged.connect(self._on_card_changed)
        self.reviewed.clicked.connect(self._on_review_clicked)
        self.reviewer.textEdited.connect(self._on_review_clicked)
        self.generated.clicked.connect(self.use_generated)
        self.save.clicked.connect(self.save_current)
        self.done_button.clicked.connect(self.accept)
        self.save_pdf.clicked.connect(self._ask_pdf)
        self.save_all.clicked.connect(self._ask_pdf_all)
        from dpdesk.gui.help.window import HelpKey

        HelpKey(self, "Languages")
        start = language or next((c for c in languages.item_languages(project, item_name)
                                  if c != languages.source_language(project)), "de")
        self.language.setCurrentIndex(max(self.language.findData(start), 0))
        self._on_language()

    # ------------------------------------------------------------------ showing one language
    @property
    def dirty(self) -> bool:
        return self.card_edited or self.text_edited or self.review_clicked

    def _on_language(self, *_args) -> None:
        if self.current is not None and self.dirty and not self.save_current():
            self.language.blockSignals(True)  # the edits were refused: stay on their language
            self.language.setCurrentIndex(self.language.findData(self.current))
            self.language.blockSignals(False)
            return
        self.load(self.language.currentData())

    def _on_source(self, *_args) -> None:
        """The researcher's own language changed: keep this language's edits, then store it for the project."""
        source = self.source.currentData()
        if self.dirty and not self.save_current():
            self.source.blockSignals(True)
            self.source.setCurrentIndex(self.source.findData(self.L.source_language(self.project)))
            self.source.blockSignals(False)
            return
        try:
            self.L.set_source_language(self.project, source)
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return
        if self.current is not None:
            self.load(self.current)
        self.status.setText(self.tr("The items are now marked as written in {0}.").format(self.source.currentText()))

    def load(self, language: str) -> None:
        try:
            text = self.L.respondent_text_in(self.project, self.item_name, language)
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return
        self.current = language
        self._filling = True
        self.question.setText(text.question if "question" not in text.untranslated else "")
        self.question.setPlaceholderText(self.tr("not yet written in this language; for now: {0}")
                                         .format(text.question))
        self.question_b.setText(text.question_b if "question_b" not in text.untranslated else "")
        self.question_b2.setText(text.question_b2 if "question_b2" not in text.untranslated else "")
        self.card.setPlainText(text.card)
        self.reviewed.setChecked(text.reviewed)
        self.reviewed.setEnabled(not text.source)
        self.reviewer.setText(text.reviewed_by)
        self.reviewer.setEnabled(not text.source)
        self._filling = False
        self.card_edited = self.text_edited = self.review_clicked = False
        self.generated.setEnabled("card" in text.edited or (text.source and bool(self._item().instructions)))
        if text.source:
            self.mark.setText(self.tr("The language the items are written in."))
            self.mark.setStyleSheet("")
        elif text.reviewed:
            who = self.tr(" by {0}").format(text.reviewed_by) if text.reviewed_by else ""
            self.mark.setText(self.tr("Reviewed{0}.").format(who))
            self.mark.setStyleSheet("color: #1a5e1a;")
        else:
            self.mark.setText(self.tr("⚠ Check with a native speaker before fielding: dpdesk's templates are "
                                      "careful, but only a native speaker knows how respondents read them."))
            self.mark.setStyleSheet("color: #8a4b00; font-weight: bold;")
        words = {"question": self.tr("the question"), "question_b": self.tr("question B, version 1")
                 if self.versioned else self.tr("question B"), "question_b2": self.tr("question B, version 2")}
        missing = [words[p] for p in text.untranslated if p == "question" or self.two_questions]
        self.untranslated.setText(self.tr("Not yet written in this language: {0}. The card shows the "
                                          "placeholder until you write it above.").format(", ".join(missing))
                                  if missing else "")
        self.untranslated.setVisible(bool(missing))
        show_problem(self.problem, "")

    def _item(self):
        return self.project.item(self.item_name)

    def _on_text_edited(self, *_args) -> None:
        if not self._filling:
            self.text_edited = True

    def _on_card_changed(self) -> None:
        if not self._filling:
            self.card_edited = True

    def _on_review_clicked(self, *_args) -> None:
        if not self._filling:
            self.review_clicked = True

    # ------------------------------------------------------------------ saving
    def save_current(self) -> bool:
        """Store this language's edits in the project; False (with the problem shown) if refused."""
        if self.current is None:
            return True
        parts = {}
        if self.text_edited:
            parts["question"] = self.question.text()
            if self.two_questions:
                parts["question_b"] = self.question_b.text()
            if self.versioned:
                parts["question_b2"] = self.question_b2.text()
        if self.card_edited:
            parts["card"] = self.card.toPlainText()
        reviewed = self.reviewed.isChecked() if self.review_clicked else None
        try:
            self.L.set_text(self.project, self.item_name, self.current, reviewed=reviewed,
                            reviewed_by=self.reviewer.text(), **parts)
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return False
        from dpdesk.mechanisms.rr.wording import language_name

        language = self.current
        self.load(language)
        self.status.setText(self.tr("Saved the {0} text.").format(language_name(language)))
        return True

    def use_generated(self) -> None:
        """Forget this language's edited card: dpdesk's text (with the question written above) again."""
        try:
            self.L.set_text(self.project, self.item_name, self.current, card="")
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return
        self.load(self.current)
        self.status.setText(self.tr("Back to dpdesk's text in this language."))

    def accept(self) -> None:
        if self.dirty and not self.save_current():
            return
        self.runner.cancel()
        super().accept()

    def reject(self) -> None:
        self.runner.cancel()
        super().reject()

    # ------------------------------------------------------------------ the card
    def _ask_pdf(self) -> None:
        self._ask([self.current])

    def _ask_pdf_all(self) -> None:
        if self.dirty and not self.save_current():
            return
        self._ask(list(self.L.item_languages(self.project, self.item_name)))

    def _ask(self, languages: list[str]) -> None:
        folder = self.settings.last_folder("export") if self.settings is not None else str(Path.home())
        suffix = "-".join(languages)
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the card"),
                                              str(Path(folder) / f"{self.item_name}-{suffix}.pdf"),
                                              self.tr("PDF files (*.pdf)"))
        if path:
            if self.settings is not None:
                self.settings.set_last_folder("export", path)
            self.save_cards(path, languages)

    def save_cards(self, path, languages: list[str] | None = None) -> None:
        """Write the card(s) in steps; ``runner.done`` fires with the path once saved."""
        from dpdesk.printing import card_steps

        path = Path(path)
        if path.suffix.lower() != ".pdf":
            path = path.with_suffix(".pdf")
        cards = []
        for lang in languages or [self.current]:
            saved = self.L.respondent_text_in(self.project, self.item_name, lang)
            text = self.card.toPlainText() if lang == self.current else saved.card  # on screen: saved or not
            if self.versioned:  # a card per version of question B
                from dataclasses import replace

                from dpdesk.project.languages.cards import version_cards

                cards += version_cards(self._item(), replace(saved, card=text), lang)
            else:
                cards.append((saved.title, text))  # the title never repeats the question
        self.status.setText(self.tr("Saving the card…"))
        self.runner.start(card_steps(cards, path))

    def _on_saved_pdf(self, path) -> None:
        self.last_card = Path(path)
        self.status.setText(self.tr("Card saved to {0}.").format(path))

    def _on_failed_pdf(self, exc) -> None:
        self.status.setText("")
        show_problem(self.problem, app_words(exc) if isinstance(exc, DpdeskError)
                     else self.tr("The card could not be saved. Check that the folder exists and is writable."))


def open_languages(project, item_name: str, settings=None, parent=None) -> LanguagesDialog | None:
    """Open the dialog (non-blocking); errors in words."""
    try:
        dialog = LanguagesDialog(project, item_name, settings, parent)
    except DpdeskError as exc:
        show_error(exc, parent)
        return None
    dialog.open()
    return dialog
