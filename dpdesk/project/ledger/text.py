"""Budget amounts as text for people: "ε = 0.3 (δ = 1e-6)", never rounded in their favour.

Exact values with at most six significant digits are shown exactly; others are rounded
to six significant digits, UP for what is spent and DOWN for what is left, so the text
never shows more budget than there is.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

__all__ = ["number_text", "epsilon_text", "delta_text"]

DIGITS = 6


def number_text(x: Fraction | float, *, up: bool) -> str:
    """``x`` in decimal with at most 6 significant digits, rounded up or down."""
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
    step = Fraction(10) ** (exp - DIGITS + 1)
    q = a / step
    towards_up = up if sign > 0 else not up
    n = math.ceil(q) if towards_up else math.floor(q)
    d = (Decimal(n).scaleb(exp - DIGITS + 1) * sign).normalize()
    if -5 <= exp < 15:
        text = format(d, "f")
    else:
        text = format(d, "e").replace("e-0", "e-").replace("e+", "e")
    return text


def delta_text(d: Fraction) -> str:
    """A delta such as 1/1000000 as "1e-6" (rounded up: a larger delta is the safe side)."""
    d = Fraction(d)
    if d == 0:
        return "0"
    text = number_text(d, up=True)
    if "e" not in text and d < Fraction(1, 1000):
        mant, _, exp = format(Decimal(text).normalize(), "e").partition("e")
        text = f"{mant}e{int(exp)}"
    return text


def epsilon_text(epsilon, delta=0, *, up: bool = True) -> str:
    """ "ε = 1" or "ε = 1 (δ = 1e-6)"; ``up`` chooses the rounding of epsilon."""
    text = f"ε = {number_text(epsilon, up=up)}"
    if delta:
        text += f" (δ = {delta_text(delta)})"
    return text
