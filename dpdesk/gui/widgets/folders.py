"""Where a file dialog opens: ``settings_for(widget).start_path(kind, name)``.

The folder chosen for that kind of file since the project was opened, else the open
project's folder, else the folder last used for it, else home (``Settings.last_folder``);
``set_last_folder(kind, path)`` remembers a choice. A widget finds the window's settings
through its parents (or a view's ``window_``); without a window (a widget on its own in a
test) the dialog starts at the bare file name, as before.
"""

from __future__ import annotations

from pathlib import Path


class _NoSettings:
    """Stands in for :class:`Settings` when a widget belongs to no main window."""

    def start_path(self, kind: str, name: str = "") -> str:
        return name

    def last_folder(self, kind: str) -> str:
        return str(Path.home())

    def set_last_folder(self, kind: str, path) -> None:
        return None


def _is_settings(value) -> bool:
    """The window's settings (``dpdesk.gui.shell.settings.Settings``), known by what it does: a widget never
    imports the shell."""
    return callable(getattr(value, "start_path", None)) and callable(getattr(value, "set_last_folder", None))


def settings_for(widget):
    """The main window's :class:`~dpdesk.gui.shell.settings.Settings` for ``widget`` (a stand-in if none)."""
    seen = set()
    w = widget
    while w is not None and id(w) not in seen:
        seen.add(id(w))
        settings = getattr(w, "settings", None)
        if _is_settings(settings):
            return settings
        w = getattr(w, "window_", None) or (w.parentWidget() if hasattr(w, "parentWidget") else None)
    from PySide6.QtWidgets import QApplication

    for top in QApplication.topLevelWidgets():
        settings = getattr(top, "settings", None)
        if _is_settings(settings):
            return settings
    return _NoSettings()
