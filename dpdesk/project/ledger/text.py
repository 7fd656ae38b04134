"""Budget amounts as text for people: "ε = 0.3, δ = 10⁻⁶", never rounded in their favour.

An epsilon is shown with at most three significant digits (:data:`SHOWN`), rounded UP for
what is spent (a cost) and DOWN for what is left, so the text never shows more budget
than there is: an accountant's 0.1999985 spent is "ε = 0.2", 2.8000015 left is "ε = 2.8"
and 0.0499999 left is "ε = 0.0499". A delta is written in the number style
(:meth:`~dpdesk.project.number_style.NumberStyle.tiny`: ``10⁻⁶``, ``2.5 × 10⁻⁷``),
rounded up to two significant digits (a larger delta is the safe side). :func:`number_text`
keeps six significant digits for the few places that need them.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

__all__ = ["number_text", "epsilon_text", "delta_text"]

DIGITS = 6
#: Significant digits of an epsilon in :func:`epsilon_text`.
SHOWN = 3


def number_text(x: Fraction | float, *, up: bool, digits: int = DIGITS) -> str:
    """``x`` in decimal with at most ``digits`` significant digits, rounded up or down (never nearest)."""
    if x == math.inf:
        return "∞"
    x = Fraction(x)
    if x == 0:
        return "0"
    sign = -1 if x < 0 else 1
    a = abs(x)
    exp = math.floor(math.log10(a))
    while Fraction(10) ** exp > a:
        exp -= 1
    while Fraction(10) ** (exp + 1) <= a:
        exp += 1
    step = Fraction(10) ** (exp - digits + 1)
    q = a / step
    towards_up = up if sign > 0 else not up
    n = math.ceil(q) if towards_up else math.floor(q)
    d = (Decimal(n).scaleb(exp - digits + 1) * sign).normalize()
    if -5 <= exp < 15:
        text = format(d, "f")
    else:
        text = format(d, "e").replace("e-0", "e-").replace("e+", "e")
    return text


def delta_text(d: Fraction) -> str:
    """A delta such as 1/1000000 as "10⁻⁶" (two significant digits, rounded up: a larger delta is the safe side)."""
    from dpdesk.project.number_style import _SUPERSCRIPTS

    d = Fraction(d)
    if d <= 0:
        return "0"
    exp = math.floor(math.log10(d))
    while Fraction(10) ** exp > d:
        exp -= 1
    while Fraction(10) ** (exp + 1) <= d:
        exp += 1
    step = Fraction(10) ** (exp - 1)
    up = Fraction(math.ceil(d / step)) * step
    if up >= Fraction(1, 1000):
        return number_text(up, up=True)
    mantissa = up / Fraction(10) ** exp
    power = "10" + str(exp).translate(_SUPERSCRIPTS)
    if mantissa == 1:
        return power
    return f"{number_text(mantissa, up=True)} × {power}"


def epsilon_text(epsilon, delta=0, *, up: bool = True) -> str:
    """ "ε = 1" or "ε = 1, δ = 10⁻⁶"; ``up`` chooses the rounding of epsilon (up: spent, down: left)."""
    text = f"ε = {number_text(epsilon, up=up, digits=SHOWN)}"
    if delta:
        text += f", δ = {delta_text(delta)}"
    return text
