"""Editors that turn a randomizer (die faces, cards, birth months, a number) into a probability.

Each editor has ``value()`` (an exact :class:`~fractions.Fraction` or a float) and
``words()`` (how the respondent uses the randomizer for this parameter), and emits
``changed``.
"""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGridLayout, QSpinBox, QWidget, QHBoxLayout, QLabel

from dpdesk.gui.widgets.common import name, problem_label, show_problem
from dpdesk.gui.widgets.number_entry import NumberEntry

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class Editor(QWidget):
    changed = Signal()

    def __init__(self, param, parent=None) -> None:
        super().__init__(parent)
        self.param = param

    def value(self):
        raise NotImplementedError

    def words(self) -> str:
        return ""


class ExactEditor(Editor):
    """A probability (or the privacy level) typed as a number: 0.75, 1/6 or 75%, read when the entry is
    finished; a number that cannot be used gets a message beside the box."""

    def __init__(self, param, initial, parent=None) -> None:
        super().__init__(param, parent)
        if param.kind == "epsilon":
            self.spin = NumberEntry(initial, low=Fraction(1, 20), high=Fraction(20), decimals=2,
                                    what="the privacy level", range_words="from 0.05 to 20")
        else:
            self.spin = NumberEntry(initial)
        name(self.spin, param.label, f"{param.label}: " + ("the privacy level, smaller is more private"
                                                          if param.kind == "epsilon" else
                                                          "a probability from 0 to 1, such as 0.25, 1/6 or 25%"))
        self.message = problem_label()
        self.message.setAccessibleName(f"Problem with {param.label}")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.spin)
        lay.addWidget(self.message, 1)
        self.spin.changed.connect(self._on_changed)

    def _on_changed(self) -> None:
        show_problem(self.message, self.spin.problem)
        self.changed.emit()

    def value(self):
        """The exact number (raises :class:`EntryProblem` while the box holds something unusable)."""
        return self.spin.value()

    def focus_widget(self):
        return self.spin


class CountEditor(Editor):
    """``k`` out of a total (die faces or cards): the probability ``k / total``."""

    def __init__(self, param, initial, total: int, unit: str, parent=None) -> None:
        super().__init__(param, parent)
        self.total, self.unit = total, unit
        self.spin = QSpinBox()
        self.spin.setKeyboardTracking(False)  # "12" is read as 12 when typed, not first as 1
        self.spin.setRange(0, total)
        self.spin.setValue(round(float(initial) * total))
        self.suffix = QLabel()
        name(self.spin, param.label, f"{param.label}: how many of the {total} {unit}")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.spin)
        lay.addWidget(self.suffix)
        lay.addStretch(1)
        self.spin.valueChanged.connect(self._update)
        self._update()

    def _update(self, *_args) -> None:
        self.suffix.setText(f"of {self.total} {self.unit}")
        self.changed.emit()

    def set_total(self, total: int) -> None:
        fraction = self.spin.value() / self.total if self.total else 0
        self.total = total
        self.spin.setRange(0, total)
        self.spin.setValue(round(fraction * total))
        self._update()

    def value(self):
        return Fraction(self.spin.value(), self.total)

    def faces(self) -> list[int]:
        return list(range(1, self.spin.value() + 1))

    def words(self) -> str:
        k = self.spin.value()
        if self.unit == "faces" and k:
            from dpdesk.mechanisms.rr.randomizers import faces_text

            return f"{self.param.label}: if it shows {faces_text(self.faces())} ({k} of the {self.total} faces)"
        if self.unit == "cards":
            return f"{k} of the {self.total} cards say '{self.param.label}'"
        return f"{self.param.label}: {k} of the {self.total} {self.unit}"

    def question_b(self, again: bool = False) -> str:
        """This count as a harmless question B, as respondents read it (``again``: a second,
        separate draw, when the same kind of randomizer already chose the question)."""
        k = self.spin.value()
        if self.unit == "faces":
            from dpdesk.mechanisms.rr.randomizers import faces_text

            roll = "Roll the die a second time" if again else f"Roll a fair {self.total}-sided die privately"
            return f"{roll}. Did it show {faces_text(self.faces())}?" if k else ""
        draw = "Draw a second card from another shuffled deck" if again else "Draw one card privately from a shuffled deck"
        return (f"{draw} of {self.total} in which {k} card{'s are' if k != 1 else ' is'} marked, and put it back. "
                f"Is your card a marked one?")

    def focus_widget(self):
        return self.spin


class MonthsEditor(Editor):
    """Birth months: the share of the year they cover (``rr.randomizers.birth_month``)."""

    def __init__(self, param, initial, months: list[int] | None = None, parent=None) -> None:
        """``months``: the months to tick (those the researcher ticked before); else the first
        ``initial`` x 12 months."""
        super().__init__(param, parent)
        n = max(1, min(11, round(float(initial) * 12)))
        chosen = set(months) if months else set(range(1, n + 1))
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.boxes = []
        for i, month in enumerate(MONTHS):
            box = name(QCheckBox(month), f"{param.label}: born in {month}", f"Count a birthday in {month} as 'yes'")
            box.setChecked(i + 1 in chosen)
            box.toggled.connect(self.changed)
            grid.addWidget(box, i // 6, i % 6)
            self.boxes.append(box)

    def months(self) -> list[int]:
        return [i + 1 for i, b in enumerate(self.boxes) if b.isChecked()]

    def value(self):
        from dpdesk.mechanisms import rr

        return rr.randomizers.birth_month(self.months())

    def words(self) -> str:
        """The researcher's note (exact share, seasonality): not for the card."""
        return self.value().description

    def question_b(self) -> str:
        """The birthday question as respondents read it."""
        return self.value().question

    def focus_widget(self):
        return self.boxes[0]
