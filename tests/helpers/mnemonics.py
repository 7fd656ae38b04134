"""The Alt letters (mnemonics, "&N") of a window as a user meets them: which visible control owns each."""

from __future__ import annotations

import re

_LETTER = re.compile(r"&(\w)")


def letter(text: str) -> str | None:
    """The Alt letter of a label's text ("Totals that mean '&no'" -> "n"; "&&" is a plain ampersand)."""
    found = _LETTER.search((text or "").replace("&&", ""))
    return found.group(1).lower() if found else None


def owners(root, extra: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """Each Alt letter in the visible part of ``root`` and the controls that own it: labels with a buddy,
    buttons (the wizard's Next and Back too), group boxes and tabs."""
    from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QTabBar

    out: dict[str, list[str]] = {k: list(v) for k, v in (extra or {}).items()}

    def add(text: str, widget) -> None:
        key = letter(text)
        if key and widget.isVisibleTo(root) and widget.isEnabled():
            out.setdefault(key, []).append(text)

    for label in root.findChildren(QLabel):
        if label.buddy() is not None and label.buddy().isVisibleTo(root):
            add(label.text(), label)
    for button in root.findChildren(QAbstractButton):
        add(button.text(), button)
    for box in root.findChildren(QGroupBox):
        if box.isCheckable():
            add(box.title(), box)
    for bar in root.findChildren(QTabBar):
        if bar.isVisibleTo(root):
            for i in range(bar.count()):
                if letter(bar.tabText(i)):
                    out.setdefault(letter(bar.tabText(i)), []).append(bar.tabText(i))
    return out


def clashes(root, extra: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """The Alt letters of ``root`` that more than one control claims (empty when each has one owner)."""
    return {k: v for k, v in owners(root, extra).items() if len(v) > 1}


def menu_letters(window) -> dict[str, list[str]]:
    """The menu bar's Alt letters (File, Edit, Help): they count in the main window with its views."""
    return {letter(a.text()): [a.text()] for a in window.menuBar().actions() if letter(a.text())}
