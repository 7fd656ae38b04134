"""The guided privacy-budget step: how harmful would disclosure be -> a suggested epsilon.

The four questions are DP Creator's data-sensitivity levels (OpenDP's DP Creator, which
follows the Harvard data security levels): public; confidential but no material harm;
could cause material harm; would likely cause serious harm. Each suggests an epsilon and,
for Gaussian noise, a delta. The suggestion is explained with a worked example of the
accuracy it buys, computed by :mod:`dpdesk.mechanisms.central.accuracy` from the exact
discrete Laplace distribution. Once set, a budget can only be lowered: the dialog then
says why, and :func:`dpdesk.project.ledger.budget.lower_budget` refuses anything higher.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QRadioButton,
    QVBoxLayout,
)

from dpdesk.project.ledger.text import epsilon_text, number_text


@dataclass(frozen=True)
class HarmLevel:
    key: str
    question: str
    epsilon: str
    delta: str
    words: str


LEVELS = (
    HarmLevel("public", "Public information: its disclosure would harm no one", "1", "1e-5",
              "Noise is not needed to protect anyone, but a budget keeps every table consistent with what "
              "was promised. A generous total is fine."),
    HarmLevel("confidential", "Confidential, but disclosure would not cause material harm", "1", "1e-5",
              "A moderate total: any one person's answers change what is published only a little."),
    HarmLevel("harm", "Disclosure could cause material harm to respondents or the organisation", "0.25",
              "1e-6", "A small total: tables are noisier, and any one person's answers are well hidden."),
    HarmLevel("serious", "Disclosure would likely cause serious harm to respondents", "0.05", "1e-7",
              "A very small total: only a few coarse tables will be useful, but each person is strongly "
              "protected."),
)
DELTAS = ("1e-5", "1e-6", "1e-7", "1e-8")
LOWER_ONLY = ("A budget is set once and can then be lowered, never raised: the releases already published "
              "were made under it, and a larger total would let new ones add to them beyond what was "
              "promised to these respondents.")


def exact(text: str) -> Fraction:
    """Exact value of a number as typed ("0.25", "1e-6")."""
    return Fraction(str(text))


def worked_example(epsilon, cells: int = 5, share: Fraction = Fraction(1, 5)) -> str:
    """What ``epsilon`` buys, in words: half-widths of a count and of a table (discrete Laplace)."""
    from dpdesk.mechanisms.central import accuracy

    eps = exact(epsilon)
    if eps <= 0:
        return "Choose an epsilon above 0."
    part = eps * share
    one = accuracy.laplace_half_width(1 / part, 0.95, 1)
    table = accuracy.laplace_half_width(1 / part, 0.95, cells)
    return (f"<b>What it buys.</b> Spending a fifth of it (ε = {number_text(part, up=False)}) on a single count "
            f"gives that count within <b>±{one}</b> people (95% of the time); a table of {cells} categories "
            f"with the same fifth has every cell within <b>±{table}</b> at once. In a survey of 1,000 "
            f"respondents, ±{one} is ±{one / 10:g} percentage points. Spending the whole budget on one "
            f"count: ±{accuracy.laplace_half_width(1 / eps, 0.95, 1)}.")


class BudgetDialog(QDialog):
    """Set (``current`` None) or lower (``current`` a BudgetStatus) the privacy budget."""

    def __init__(self, current=None, parent=None) -> None:
        super().__init__(parent)
        self.current = current
        self.setObjectName("budgetDialog")
        lowering = current is not None
        self.setWindowTitle("Lower the privacy budget" if lowering else "Set the privacy budget")
        intro = QLabel(
            (f"The privacy budget of this project is {current.total_text}; {current.spent_text} is spent"
             + (f" ({current.spent_here_text} here, {current.copies_text} in copies of this project on this "
                "computer, from the same people)" if getattr(current, "copies", ()) else "") + ". "
             + LOWER_ONLY) if lowering else
            "Every noisy table you publish spends part of a fixed <b>privacy budget</b> (epsilon, ε). Smaller "
            "means better protection for each respondent and noisier tables. The budget protects the people in "
            "this project's data, whatever files they arrive in: it covers every dataset you import, it is set "
            "once, and re-importing or correcting the data never resets it. "
            "<b>How harmful would it be if a respondent's answers were disclosed?</b>")
        intro.setWordWrap(True)
        self.levels = QButtonGroup(self)
        box = QGroupBox("Harm from disclosure")
        col = QVBoxLayout(box)
        for i, level in enumerate(LEVELS):
            radio = QRadioButton(level.question)
            radio.setAccessibleDescription(level.words)
            self.levels.addButton(radio, i)
            col.addWidget(radio)
        box.setVisible(not lowering)
        self.epsilon = QDoubleSpinBox()
        self.epsilon.setDecimals(4)
        self.epsilon.setRange(0.0001, 10.0)
        self.epsilon.setSingleStep(0.05)
        self.epsilon.setAccessibleName("Total epsilon")
        self.gaussian = QCheckBox("Also allow Gaussian noise (adds a small δ, the chance the promise fails)")
        self.delta = QComboBox()
        self.delta.addItems(DELTAS)
        self.delta.setAccessibleName("Delta")
        self.suggestion = QLabel()
        self.suggestion.setWordWrap(True)
        self.example = QLabel()
        self.example.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Total ε", self.epsilon)
        form.addRow("", self.gaussian)
        form.addRow("δ", self.delta)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Lower the budget" if lowering else "Set the budget")
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(box)
        layout.addWidget(self.suggestion)
        layout.addLayout(form)
        layout.addWidget(self.example)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.levels.idClicked.connect(self.choose_level)
        self.epsilon.valueChanged.connect(self._update)
        self.gaussian.toggled.connect(self._update)
        self.delta.currentIndexChanged.connect(self._update)
        self.resize(620, 520)
        if lowering:
            self.epsilon.setMaximum(float(current.total_epsilon))
            self.epsilon.setValue(float(current.total_epsilon))
            has_delta = bool(current.total_delta)
            self.gaussian.setChecked(has_delta)
            self.gaussian.setEnabled(False)
            if has_delta:
                self.delta.clear()
                self.delta.addItems([d for d in DELTAS if exact(d) <= current.total_delta] or DELTAS[-1:])
            self.suggestion.setText("Only a smaller total is possible.")
        else:
            self.choose_level(1)
            self.levels.button(1).setChecked(True)
        self._update()

    def choose_level(self, index: int) -> None:
        level = LEVELS[index]
        self.epsilon.setValue(float(level.epsilon))
        self.delta.setCurrentText(level.delta)
        self.suggestion.setText(f"<b>Suggested: ε = {level.epsilon}</b> (δ = {level.delta} if you allow Gaussian "
                                f"noise). {level.words}")

    def values(self) -> tuple[Fraction, Fraction]:
        """The chosen (epsilon, delta), exact."""
        eps = exact(f"{self.epsilon.value():.4f}")  # the shown digits, not locale text
        delta = exact(self.delta.currentText()) if self.gaussian.isChecked() else Fraction(0)
        return eps, delta

    def _update(self, *_args) -> None:
        self.delta.setEnabled(self.gaussian.isChecked())
        eps, delta = self.values()
        text = f"You are choosing {epsilon_text(eps, delta)}. " if eps > 0 else ""
        if delta:
            text += ("With a δ, releases may use Gaussian noise, and their combined cost is counted by a "
                     "privacy-loss-distribution accountant, which is tighter when many tables are published. ")
        self.example.setText(text + (worked_example(eps) if eps > 0 else ""))
        if self.current is not None:
            lower = eps < self.current.total_epsilon or delta < self.current.total_delta
            self.ok.setEnabled(lower)
            self.ok.setToolTip("" if lower else "Choose a smaller total to lower the budget. " + LOWER_ONLY)
