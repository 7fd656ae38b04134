"""The QApplication and the program's start.

The application object lives until ``run`` returns and every connection is to a bound
method (PITFALLS.md: a lambda capturing ``self`` crashed the real program at exit).
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication

from dpdesk import __version__


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    app.setApplicationName("dpdesk")
    app.setOrganizationName("dpdesk")
    app.setApplicationVersion(__version__)
    return app


def run(argv: list[str] | None = None) -> int:
    argv = list(argv or [])
    if "--selftest" in argv:
        from dpdesk.gui.selftest import selftest

        return selftest()
    app = make_app(argv)
    from dpdesk.gui.main_window import MainWindow

    window = MainWindow()
    window.show()
    code = app.exec()
    del window
    return code
