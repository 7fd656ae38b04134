"""About dpdesk (issue 17): the version, the libraries in use, and their licence texts."""

from __future__ import annotations

from tests.helpers.gui import shot


def test_about_lists_the_libraries_with_their_licence_texts(window, qtbot):
    from dpdesk import __version__

    window.show_about()
    dialog = window.about
    qtbot.waitUntil(lambda: dialog.list.count() > 0, timeout=30_000)
    names = [dialog.libraries[i].name.lower() for i in range(dialog.list.count())]
    for needed in ("pyside6-essentials", "numpy", "scipy", "pandas", "opendp", "matplotlib"):
        assert any(n.replace("_", "-") == needed for n in names), (needed, names)
    qt = next(i for i, n in enumerate(names) if n.replace("_", "-") == "pyside6-essentials")
    dialog.list.setCurrentRow(qt)
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in dialog.text.toPlainText().upper()
    from PySide6.QtWidgets import QLabel

    assert any(f"dpdesk {__version__}" in label.text() for label in dialog.findChildren(QLabel))
    shot(dialog, "about_dialog")
    dialog.reject()
