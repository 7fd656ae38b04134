"""Wizard page 1: the question in plain words and the kind of answer."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QVBoxLayout,
    QWizardPage,
)

from dpdesk.gui.wizard.catalog import CATEGORIES, MULTI, YES_NO
from dpdesk.gui.widgets.common import name, note

KINDS = ((YES_NO, "Yes or no"), (CATEGORIES, "One of several categories"),
         (MULTI, "Several options may apply (multi-select)"))


def suggest_name(question: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", question.lower())
    stop = {"in", "the", "last", "have", "you", "ever", "a", "an", "of", "did", "do", "your", "to", "year", "month", "how", "often", "which",
            "what", "this", "are", "is", "were", "was"}
    keep = [w for w in words if w not in stop][:3]
    return "_".join(keep) or "item"


class QuestionPage(QWizardPage):
    def __init__(self, draft, parent=None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.setTitle("The question")
        self.setSubTitle("Write the sensitive question as respondents will read it, and say what kind of answer it has.")
        self.question = name(QPlainTextEdit(), "Question", "The sensitive question, as respondents will read it")
        self.question.setPlaceholderText("For example: In the last year, have you cheated in an exam?")
        self.question.setFixedHeight(80)
        self.question.setTabChangesFocus(True)
        self.item_name = name(QLineEdit(), "Short name", "A short name for this item, used in tables and files")
        self.item_name.setPlaceholderText("for example exam_cheating")
        self.kind_group = QButtonGroup(self)
        self.kind_buttons = {}
        form = QFormLayout()
        form.setVerticalSpacing(12)
        form.addRow("&Question:", self.question)
        form.addRow("Sh&ort name:", self.item_name)
        kinds = QVBoxLayout()
        for key, label in KINDS:
            button = name(QRadioButton(label), label, f"The answer is: {label.lower()}")
            self.kind_group.addButton(button)
            self.kind_buttons[key] = button
            kinds.addWidget(button)
        form.addRow("Answer:", kinds)
        self.categories = name(QLineEdit(), "Categories",
                               "The answer categories, separated by commas (at least two)")
        self.categories.setPlaceholderText("for example: never, once, several times")
        form.addRow("&Categories:", self.categories)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note("Respondents never see the short name. Categories are only needed when the "
                              "answer is not a plain yes or no."))
        layout.addStretch(1)
        self.question.textChanged.connect(self._on_question)
        self.item_name.textEdited.connect(self._on_name_edited)
        self.item_name.installEventFilter(self)  # a suggested name is selected on entry, so typing replaces it
        self.item_name.textChanged.connect(self.completeChanged)
        self.categories.textChanged.connect(self.completeChanged)
        self.kind_group.buttonToggled.connect(self._on_kind)
        self._name_touched = False
        self.setTabOrder(self.question, self.item_name)

    def initializePage(self) -> None:
        d = self.draft
        self.question.setPlainText(d.question)
        self.item_name.setText(d.name)
        self._name_touched = bool(d.name)
        self.kind_buttons[d.answers].setChecked(True)
        self.categories.setText(", ".join(d.categories))
        self._on_kind()

    def _on_question(self) -> None:
        if not self._name_touched and self.draft.editing is None:
            self.item_name.setText(suggest_name(self.question.toPlainText()))
        self.completeChanged.emit()

    def _on_name_edited(self, _text: str) -> None:
        self._name_touched = True

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
        """Clicking into a suggested short name selects it: typing then replaces the suggestion
        instead of appending to it (the walk got "copy_examscopying")."""
        if watched is self.item_name and event.type() == QEvent.Type.FocusIn and not self._name_touched:
            QTimer.singleShot(0, self.item_name.selectAll)  # after the click has placed the cursor
        return super().eventFilter(watched, event)

    def _on_kind(self, *_args) -> None:
        self.categories.setEnabled(self.kind() != YES_NO)
        self.completeChanged.emit()

    def kind(self) -> str:
        for key, button in self.kind_buttons.items():
            if button.isChecked():
                return key
        return YES_NO

    def category_list(self) -> list[str]:
        return [c.strip() for c in self.categories.text().split(",") if c.strip()]

    def isComplete(self) -> bool:
        if not self.question.toPlainText().strip() or not self.item_name.text().strip():
            return False
        if self.kind() != YES_NO:
            cats = self.category_list()
            return len(cats) >= 2 and len(set(cats)) == len(cats)
        return True

    def validatePage(self) -> bool:
        d = self.draft
        d.question = self.question.toPlainText().strip()
        d.name = self.item_name.text().strip()
        kind = self.kind()
        if kind != d.answers:
            d.answers = kind
            d.design_key = ""  # choose again on the next page
        d.categories = self.category_list() if kind != YES_NO else []
        return True
