"""Wizard page 2: the design, chosen by what the respondent does."""

from __future__ import annotations

import math

from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QLabel,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from dpdesk.errors import DpdeskError, app_words

from dpdesk.gui.shell.prewarm import loaded
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.wizard import meaning
from dpdesk.gui.wizard.catalog import TWO_GROUP_NOTE, YES_NO, choices_for, recommended
from dpdesk.gui.widgets.common import name, note
from dpdesk.gui.wizard.draft import build_design

GUESS = 0.2  # the prevalence at which the efficiency of each design is compared


def default_values(choice) -> dict:
    return {p.name: p.default for p in choice.params}


def facts(choice, categories) -> str:
    """Privacy, efficiency and ease of a design at its default parameters, in one line each."""
    from dpdesk.mechanisms import rr

    try:
        d = build_design(rr, choice.key, default_values(choice), categories)
        eps = d.epsilon
        if math.isinf(eps):
            answers = meaning.unprotected_answers(d)
            privacy = ("some answers are not protected" if not answers
                       else " and ".join(f"'{a}'" for a in answers) + " answers are not protected")
        else:
            privacy = f"an answer is at most {meaning.times(math.exp(eps))} times as likely from one kind of " \
                      f"respondent as from another (epsilon {eps:.2f})"
        guess = GUESS if d.is_binary else ([1 / len(d.categories)] * len(d.categories) if d.model == "categorical"
                                           else [GUESS] * len(d.categories))
        eff = rr.efficiency(d, guess)
        v = float(min(eff)) if hasattr(eff, "__len__") else float(eff)
        where = (f"at a {GUESS:.0%} prevalence" if d.is_binary else "with equal category shares"
                 if d.model == "categorical" else f"at {GUESS:.0%} per option")
        efficiency = (f"needs about {meaning.times(1 / v)} times the respondents of a direct question ({where})"
                      if v > 0 else "carries little information")
    except DpdeskError as exc:  # a catalog default that rr refuses: say so instead of failing
        return f"Not available with these answers: {app_words(exc)}"
    return (f"<b>Privacy:</b> {privacy}.<br><b>Efficiency:</b> {efficiency}.<br>"
            f"<b>Ease for respondents:</b> {choice.ease}.")


def facts_job(job, choices, categories) -> dict:
    """Worker: :func:`facts` of every choice (the first time, this loads the statistics libraries)."""
    return {choice.key: facts(choice, categories) for choice in choices}


WORKING = "Working out its privacy and efficiency…"


class DesignPage(QWizardPage):
    def __init__(self, draft, parent=None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.setTitle("What the respondent does")
        self.setSubTitle("Each way of answering protects respondents differently. The recommended one suits most surveys.")
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        self.inner = QWidget()
        self.inner_layout = QVBoxLayout(self.inner)
        self.inner_layout.setSpacing(14)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self.inner)
        name(scroll, "Designs", "The ways of answering you can choose from")
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        self.group.buttonToggled.connect(self._on_toggled)
        self._built_for = None
        self._facts: dict[str, QLabel] = {}
        self.runner = JobRunner(self)  # the facts, when the libraries they need are not loaded yet
        self.runner.done.connect(self._on_facts)
        self.runner.failed.connect(self._on_facts_failed)

    def initializePage(self) -> None:
        key = (self.draft.answers, tuple(self.draft.categories))
        if key != self._built_for:
            self._build()
            self._built_for = key
        if not self.draft.design_key or self.draft.design_key not in self.buttons:
            self.draft.design_key = recommended(self.draft.answers).key
        self.buttons[self.draft.design_key].setChecked(True)

    def _build(self) -> None:
        while self.inner_layout.count():
            item = self.inner_layout.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        for button in self.buttons.values():
            self.group.removeButton(button)
        self.buttons.clear()
        choices = choices_for(self.draft.answers)
        self._facts = {}
        later = not loaded("dpdesk.mechanisms.rr.planning.sample_size")  # first use: the page shows first, facts follow
        previous = None
        for choice in choices:
            title = choice.title + ("  (recommended)" if choice.recommended else "")
            button = name(QRadioButton(title), choice.title, choice.detail)
            button.setObjectName(f"design_{choice.key}")
            font = button.font()
            font.setBold(True)
            button.setFont(font)
            self.group.addButton(button)
            self.buttons[choice.key] = button
            box = QFrame()
            box.setFrameShape(QFrame.Shape.StyledPanel)
            col = QVBoxLayout(box)
            col.setContentsMargins(12, 10, 12, 10)
            col.addWidget(button)
            detail = note(choice.detail)
            detail.setContentsMargins(24, 0, 0, 0)
            col.addWidget(detail)
            info = note(WORKING if later else facts(choice, self.draft.categories))
            info.setContentsMargins(24, 0, 0, 0)
            self._facts[choice.key] = info
            col.addWidget(info)
            self.inner_layout.addWidget(box)
            if previous is not None:
                QWidget.setTabOrder(previous, button)
            previous = button
        if self.draft.answers == YES_NO:
            two = note(f"<b>About the two-group designs.</b> {TWO_GROUP_NOTE}")
            self.inner_layout.addWidget(two)
        self.inner_layout.addStretch(1)
        if later:
            self.runner.start(facts_job, choices, list(self.draft.categories))

    def _on_facts(self, texts: dict) -> None:
        for key, text in texts.items():
            label = self._facts.get(key)
            if label is not None:
                label.setText(text)

    def _on_facts_failed(self, _exc) -> None:
        self._on_facts({key: "Its privacy and efficiency could not be worked out (an error inside dpdesk)."
                        for key in self._facts})

    def _on_toggled(self, button: QLabel, checked: bool) -> None:
        if checked:
            self.completeChanged.emit()

    def selected(self) -> str:
        for key, button in self.buttons.items():
            if button.isChecked():
                return key
        return ""

    def isComplete(self) -> bool:
        return bool(self.selected())

    def validatePage(self) -> bool:
        key = self.selected()
        if key != self.draft.design_key or not self.draft.values:
            self.draft.values = {}
        self.draft.design_key = key
        return True
