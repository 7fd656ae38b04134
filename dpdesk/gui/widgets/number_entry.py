"""A box for a probability (or another bounded number) typed as a decimal, a fraction or a percentage.

``0.75``, ``0,75``, ``.75``, ``3/4`` and ``75%`` all mean 3/4. The number is read when the
entry is finished (Enter, Tab or a click elsewhere), never keystroke by keystroke, and a
number that cannot be used gets a message in words beside the box. An exact value set by
the program (2/3 from a die) is shown rounded but kept exact until the researcher types
something else, so three probabilities from a die still add up to exactly 1.
"""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import QRegularExpression, Signal
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import QLineEdit

from dpdesk.errors import app_words


class EntryProblem(ValueError):
    """The text in a number box cannot be used (the message says why, in words)."""


def parse_number(text: str) -> Fraction:
    """The exact number typed: a decimal (point or comma), a fraction ``a/b`` or a percentage."""
    raw = text.strip().replace(" ", "")
    if not raw:
        raise EntryProblem("The box is empty. Type a number such as 0.25 or 1/4.")
    percent = raw.endswith("%")
    body = raw[:-1] if percent else raw
    if "," in body and "." not in body:
        body = body.replace(",", ".")
    try:
        if "/" in body:
            top, bottom = body.split("/", 1)
            value = Fraction(Fraction(top), Fraction(bottom))
        else:
            value = Fraction(body)
    except ZeroDivisionError:
        raise EntryProblem(f"'{text.strip()}' divides by zero. Type a fraction such as 1/6.") from None
    except ValueError:
        raise EntryProblem(f"'{text.strip()}' is not a number. Type a decimal such as 0.75, a fraction such "
                           f"as 1/6, or a percentage such as 75%.") from None
    return value / 100 if percent else value


def shown(value: Fraction, decimals: int) -> str:
    """``value`` as the box shows it: exact when it has few decimals (0.75), else rounded (0.6667)."""
    text = f"{float(value):.{decimals}f}"
    if Fraction(text) == value:
        text = text.rstrip("0").rstrip(".") if "." in text else text
        return text or "0"
    return text


class NumberEntry(QLineEdit):
    """A line edit holding an exact number between ``low`` and ``high``.

    ``value()`` is the exact :class:`~fractions.Fraction` (or raises :class:`EntryProblem`);
    ``changed`` is emitted when an entry is finished with a different number or a problem;
    ``problem`` is the current message ("" when the number is fine).
    """

    changed = Signal()

    def __init__(self, value, *, low=Fraction(0), high=Fraction(1), low_open: bool = False,
                 decimals: int = 4, what: str = "a probability", range_words: str = "from 0 to 1",
                 parent=None) -> None:
        super().__init__(parent)
        self.low, self.high, self.low_open = Fraction(low), Fraction(high), low_open
        self.decimals, self.what, self.range_words = decimals, what, range_words
        self.problem = ""
        self.setProperty("number_field", True)  # Enter confirms the number, it does not press Next
        self.setValidator(QRegularExpressionValidator(QRegularExpression(r"[0-9.,/%\s]*"), self))
        self.setMaximumWidth(110)
        self._value = Fraction(0)
        self.set_value(value)
        self.editingFinished.connect(self._finished)

    def set_value(self, value) -> None:
        """Show ``value`` (kept exact; a float is read by its decimal digits)."""
        self._value = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
        self._shown = shown(self._value, self.decimals)
        self.problem = ""
        self.setText(self._shown)

    def value(self) -> Fraction:
        if self.problem:
            raise EntryProblem(self.problem)
        return self._value

    def _check(self, value: Fraction) -> Fraction:
        if value < self.low or value > self.high or (self.low_open and value == self.low):
            raise EntryProblem(f"{shown(value, self.decimals)} cannot be {self.what}: it must be "
                               f"{self.range_words}.")
        return value

    def _finished(self) -> None:
        text = self.text()
        if text == self._shown and not self.problem:
            return  # unchanged: keep the exact value behind the rounded text
        try:
            self._value = self._check(parse_number(text))
        except EntryProblem as exc:
            self.problem = app_words(exc)
        else:
            self.problem = ""
            self._shown = text
        self.changed.emit()
