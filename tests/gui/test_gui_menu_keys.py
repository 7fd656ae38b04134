"""Every menu can be worked from the keyboard: within one menu no two entries share an Alt letter (File had
"Open &Recent" and "Export &Report": pressing R went to Open Recent)."""

from __future__ import annotations

import re


def _letters(menu) -> list[str]:
    out = []
    for action in menu.actions():
        if action.isSeparator():
            continue
        found = re.search(r"&(\w)", action.text().replace("&&", ""))
        assert found, f"{action.text()!r} in {menu.title()!r} has no Alt letter"
        out.append(found.group(1).lower())
    return out


def test_each_menus_alt_letters_are_distinct(window):
    menus = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
    assert menus
    for menu in menus:
        letters = _letters(menu)
        assert len(letters) == len(set(letters)), (menu.title(), letters)
    assert len(_letters(window.menuBar())) == len(menus)
