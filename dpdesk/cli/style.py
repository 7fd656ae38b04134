"""``--style percent:1`` and the like: the number style of a command's tables and text."""

from __future__ import annotations

from dpdesk.errors import DataError


def parse_style(text: str):
    """The :class:`~dpdesk.project.number_style.NumberStyle` that ``--style`` names."""
    from dpdesk.project.number_style import NumberStyle

    try:
        unit, decimals = text.split(":")
        return NumberStyle(unit, int(decimals))
    except ValueError:
        raise DataError(f"--style {text!r}: write percent:1, percent:2, percent:3, proportion:1, proportion:2 or "
                        "proportion:3.") from None
