"""Which page of the user guide each part of the app opens: its "?" button and F1.

One table, so that renaming a page or a heading means changing one line here (the tests check that
every page and anchor below exists in the shipped guide). Keys are the task names of the main
window's left column (``dpdesk.gui.shell.tasks.TASKS``) and a few other places; values are a page of
``docs/guide/`` and a heading's anchor on it ("" for the top of the page).
"""

from __future__ import annotations

VIEW_PAGES: dict[str, tuple[str, str]] = {
    "Welcome": ("getting-started.md", ""),
    "Design": ("design.md", ""),
    "Wizard": ("design.md", "the-wizard-new-survey-item"),
    "Data": ("data.md", ""),
    "Import": ("data.md", "importing-a-file"),
    "Link": ("linked-data.md", "in-the-app"),
    "Mapping": ("data.md", "mapping-items-to-columns"),
    "Languages": ("languages.md", ""),
    "Field": ("fielding.md", ""),
    "Results": ("results.md", ""),
    "Regression": ("regression.md", ""),
    "Tabulate": ("tabulate.md", ""),
    "Export": ("export.md", ""),
    "Share": ("share.md", ""),
}

CONTENTS = ("index.md", "")


def page_for(view: str) -> tuple[str, str]:
    """The page and anchor of ``view``; the guide's contents for anything not listed."""
    return VIEW_PAGES.get(view, CONTENTS)
