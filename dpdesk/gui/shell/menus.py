"""The main window's menus and actions, with the platform's standard shortcuts."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence


def _action(window, text: str, slot, shortcut=None, tip: str = "") -> QAction:
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(slot)
    return action


def build_menus(window) -> dict[str, QAction]:
    """Create File, Edit and Help menus on ``window`` (a MainWindow); return the actions by name."""
    SK = QKeySequence.StandardKey
    a = {
        "new": _action(window, "&New Project…", window.new_project_dialog, SK.New, "Create a new project file"),
        "open": _action(window, "&Open Project…", window.open_project_dialog, SK.Open, "Open a project file"),
        "example": _action(window, "Open the &Example Project", window.open_example,
                           tip="A student survey with three sensitive questions"),
        "save": _action(window, "&Save", window.save_now, SK.Save,
                        "dpdesk saves every change automatically; this says so"),
        "save_as": _action(window, "Save &As…", window.save_as_dialog, SK.SaveAs,
                           "Save a copy of the project under a new name and continue there"),
        "report": _action(window, "Expor&t Report…", window.export_report,
                          tip="Save the Results document with a cover and a methods paragraph as PDF or HTML"),
        "close": _action(window, "&Close Project", window.close_project, SK.Close, "Close the project"),
        "quit": _action(window, "&Quit", window.close, SK.Quit, "Quit dpdesk"),
        "preferences": _action(window, "&Preferences…", window.show_preferences, SK.Preferences),
        "guide": _action(window, "&User Guide", window.show_guide, tip="The user guide, offline: every view, step by step"),
        "help": _action(window, "&Help on This View", window.show_help, SK.HelpContents,
                        "The user guide's page on the view you are in"),
        "about": _action(window, "&About dpdesk", window.show_about),
    }
    if a["preferences"].shortcut().isEmpty():  # no standard key on this platform
        a["preferences"].setShortcut(QKeySequence("Ctrl+,"))
    if QKeySequence("F1") not in a["help"].shortcuts():  # F1 everywhere, beside the platform's own key
        a["help"].setShortcuts([*a["help"].shortcuts(), QKeySequence("F1")])
    if a["quit"].shortcut().isEmpty():
        a["quit"].setShortcut(QKeySequence("Ctrl+Q"))
    undo = window.undo_stack.createUndoAction(window, "&Undo")
    undo.setShortcut(QKeySequence(SK.Undo))
    redo = window.undo_stack.createRedoAction(window, "&Redo")
    redo.setShortcut(QKeySequence(SK.Redo))
    a["undo"], a["redo"] = undo, redo
    a["quit"].setMenuRole(QAction.MenuRole.QuitRole)
    a["preferences"].setMenuRole(QAction.MenuRole.PreferencesRole)
    a["about"].setMenuRole(QAction.MenuRole.AboutRole)

    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(a["new"])
    file_menu.addAction(a["open"])
    window.recent_menu = file_menu.addMenu("Open &Recent")
    file_menu.addAction(a["example"])
    file_menu.addSeparator()
    file_menu.addAction(a["save"])
    file_menu.addAction(a["save_as"])
    file_menu.addAction(a["report"])
    file_menu.addAction(a["close"])
    file_menu.addSeparator()
    file_menu.addAction(a["quit"])
    edit_menu = bar.addMenu("&Edit")
    edit_menu.addAction(undo)
    edit_menu.addAction(redo)
    edit_menu.addSeparator()
    edit_menu.addAction(a["preferences"])
    help_menu = bar.addMenu("&Help")
    help_menu.addAction(a["guide"])
    help_menu.addAction(a["help"])
    help_menu.addAction(a["about"])
    return a
