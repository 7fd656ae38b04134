"""One number style for the screen, the clipboard, the report and the plots.

Estimates, standard errors and intervals of shares are shown as percentages (``41.3``,
the unit in the column header) or as proportions (``.413``), with 1 to 3 decimals. APA
style (Publication Manual, 7th ed., sec. 6.36): no leading zero for numbers that cannot
exceed 1 in absolute value (proportions, differences of proportions, p-values); a
leading zero for numbers that can (epsilon, test statistics). p-values get three
decimals, ``< .001`` below that and ``> .999`` above. Negative numbers get a true minus
sign (U+2212) in HTML, Word and LaTeX (:func:`typographic`; TSV and CSV keep ``-`` so a
spreadsheet reads a number), counts a thousands separator, and a ratio is written one way
(``2.97 times``). A confidence limit beyond :data:`LIMIT` is written ``> 1,000``
(:meth:`NumberStyle.limit`): such a limit signals (quasi-)separation, explained by
:data:`SEPARATION_NOTE`. The style is chosen once (preferences, ``--style``) and passed to
every table, sentence and export.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

UNITS = ("percent", "proportion")
MINUS = "\u2212"  # typographic minus, used in HTML only (TSV keeps "-" so spreadsheets read numbers)


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


#: Confidence limits of odds ratios beyond this are written "> 1,000" (below its inverse "< 0.001").
LIMIT = 1000
SEPARATION_NOTE = ("A limit written > 1,000 (or < 0.001) is larger (smaller) than any value the data can "
                   "support: the outcome is (almost) perfectly separated by the predictor, so the interval "
                   "is open-ended on that side.")


def separation_note(intervals) -> str | None:
    """:data:`SEPARATION_NOTE` when any odds-ratio interval ``(low, high)`` is written open-ended (a limit
    beyond :data:`LIMIT` or its inverse, or no upper limit at all: ``None``), else None. The report's table
    note, the command line's ``regress`` and the Regression view all add it from here."""
    for low, high in intervals:
        if high is None or NumberStyle.beyond_limit(low, high):
            return SEPARATION_NOTE
    return None


_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def typographic(text: str) -> str:
    """Every hyphen of a number's text as a true minus sign: ``-0.4`` -> ``−0.4`` (also inside ``[-1, 2]``)."""
    return text.replace("-", MINUS)


def _drop_zero(text: str) -> str:
    """``0.41`` -> ``.41``, ``-0.41`` -> ``-.41`` (APA: values bounded by 1)."""
    if text.startswith("0."):
        return text[1:]
    if text.startswith("-0."):
        return "-" + text[2:]
    return text


@dataclass(frozen=True)
class NumberStyle:
    """``unit`` is "percent" or "proportion"; ``decimals`` 1-3 (default: percent, 1 decimal)."""

    unit: str = "percent"
    decimals: int = 1

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, not {self.unit!r}")
        if not (isinstance(self.decimals, int) and 1 <= self.decimals <= 3):
            raise ValueError(f"decimals must be 1, 2 or 3, not {self.decimals!r}")

    @classmethod
    def from_text(cls, text: str | None) -> "NumberStyle":
        """``"percent:1"`` / ``"proportion:3"`` (as stored in the preferences); bad text gives the default."""
        try:
            unit, decimals = str(text).split(":")
            return cls(unit, int(decimals))
        except (ValueError, TypeError):
            return cls()

    def to_text(self) -> str:
        return f"{self.unit}:{self.decimals}"

    @property
    def percent(self) -> bool:
        return self.unit == "percent"

    @property
    def unit_label(self) -> str:
        """What a column header adds: ``" (%)"`` for percentages, nothing for proportions."""
        return " (%)" if self.percent else ""

    def share(self, x, *, signed: bool = False) -> str:
        """A share (estimate, SE, CI bound, difference) as shown in a table cell."""
        if _missing(x):
            return "n/a"
        x = float(x)
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        if self.percent:
            text = f"{100 * x:.{self.decimals}f}"
        else:
            text = _drop_zero(f"{x:.{self.decimals}f}")
        if text.startswith("-") and text.lstrip("-").strip("0.") == "":  # -0.0 -> 0.0
            text = text[1:]
        if signed and not text.startswith("-") and text.strip("0.") != "":
            text = "+" + text
        return text

    def share_in_text(self, x) -> str:
        """A share inside a sentence: ``41.3%`` or ``.413``."""
        text = self.share(x)
        return text + "%" if self.percent and text != "n/a" else text

    def interval(self, low, high) -> str:
        """``[17.3, 37.0]`` (APA brackets)."""
        return f"[{self.share(low)}, {self.share(high)}]"

    def interval_in_text(self, low, high) -> str:
        return f"{self.share_in_text(low)} to {self.share_in_text(high)}"

    @staticmethod
    def p(p) -> str:
        """``.012``, ``< .001``, ``> .999`` (APA)."""
        if _missing(p):
            return "n/a"
        p = float(p)
        if p < 0.001:
            return "< .001"
        if p > 0.999:
            return "> .999"
        return _drop_zero(f"{p:.3f}")

    @staticmethod
    def p_in_text(p) -> str:
        """``p = .012`` or ``p < .001``."""
        text = NumberStyle.p(p)
        return f"p {text}" if text[0] in "<>" else f"p = {text}"

    @staticmethod
    def number(x, decimals: int = 2) -> str:
        """A number that can exceed 1 (epsilon, a test statistic): leading zero kept; ``∞``."""
        if _missing(x):
            return "n/a"
        x = float(x)
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        return f"{x:.{decimals}f}"

    @staticmethod
    def count(n) -> str:
        """A count with thousands separators: ``12,345``."""
        return "n/a" if _missing(n) else f"{int(n):,}"

    @staticmethod
    def proportion(x, decimals: int = 2) -> str:
        """A quantity that cannot exceed 1 in absolute value (a correlation, a probability): ``.42``, ``-.07``."""
        if _missing(x):
            return "n/a"
        x = float(x)
        if abs(x) > 1:
            raise ValueError(f"a proportion is between -1 and 1, not {x}")
        text = _drop_zero(f"{x:.{decimals}f}")
        return text[1:] if text.startswith("-") and text.strip("-.0") == "" else text

    @staticmethod
    def estimate(x, decimals: int = 2) -> str:
        """An estimate that can exceed 1 (b, SE, z, OR): leading zero, thousands separators, ``∞``."""
        if _missing(x):
            return "n/a"
        x = float(x)
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        text = f"{x:,.{decimals}f}"
        return text[1:] if text.startswith("-") and text.strip("-.0,") == "" else text

    @staticmethod
    def limit(x, decimals: int = 2) -> str:
        """A confidence limit of a ratio: as :meth:`estimate`, but ``> 1,000`` / ``< 0.001`` beyond :data:`LIMIT`.

        Never ``1.47e+04``: a limit that far out signals separation (see :data:`SEPARATION_NOTE`).
        """
        if _missing(x):
            return "n/a"
        x = float(x)
        if x > LIMIT:
            return f"> {LIMIT:,}"
        if 0 <= x < 1 / LIMIT:
            return f"< {1 / LIMIT:.{max(decimals, 3)}f}"
        return NumberStyle.estimate(x, decimals)

    @staticmethod
    def beyond_limit(*xs) -> bool:
        """Whether :meth:`limit` writes any of ``xs`` as ``> 1,000`` or ``< 0.001`` (then add the note)."""
        return any(not _missing(x) and (float(x) > LIMIT or 0 <= float(x) < 1 / LIMIT) for x in xs)

    @staticmethod
    def tiny(x) -> str:
        """A small probability such as a privacy δ, never as ``1e-06``: ``10⁻⁶``, ``2.5 × 10⁻⁷``, or ``0``."""
        if _missing(x):
            return "n/a"
        x = float(x)
        if x == 0 or x >= 0.001:
            return f"{x:g}"
        mantissa, exponent = f"{x:.1e}".split("e")
        power = "10" + str(int(exponent)).translate(_SUPERSCRIPTS)
        return power if mantissa == "1.0" else f"{mantissa.rstrip('0').rstrip('.')} × {power}"

    @staticmethod
    def ratio_in_text(r, decimals: int | None = None) -> str:
        """A ratio inside a sentence, one way everywhere: ``2.97 times``, ``3.00 times`` (never ``3 times`` or
        ``3.0x``), with two decimals below 100 and none from there (``1,097 times``) unless ``decimals``."""
        if decimals is None:
            decimals = 2 if _missing(r) or abs(float(r)) < 100 else 0
        return f"{NumberStyle.estimate(r, decimals)} times"


DEFAULT = NumberStyle()
