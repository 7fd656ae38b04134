"""The QApplication and the program's start.

The application object lives until ``run`` returns and every connection is to a bound
method (PITFALLS.md: a lambda capturing ``self`` crashed the real program at exit).
Heavy libraries (scipy, pandas, matplotlib) are imported only when a view needs them,
so the first window appears quickly (``benchmarks/startup.py``).
"""

from __future__ import annotations

import os
import sys

from PySide6.QtWidgets import QApplication

from dpdesk import __version__


def make_app(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    app.setApplicationName("dpdesk")
    app.setOrganizationName("dpdesk")
    app.setApplicationDisplayName("dpdesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("dpdesk")  # matches the installed dpdesk.desktop (taskbar icon, Wayland app id)
    from dpdesk.gui.shell import gc_guard

    gc_guard.install(app)  # cyclic garbage (Qt objects among it) is collected on the GUI thread only
    return app


def run(argv: list[str] | None = None) -> int:
    argv = list(argv or [])
    app = make_app(argv)
    from dpdesk.gui.dialogs.errors import install_excepthook
    from dpdesk.gui.shell.main_window import MainWindow

    install_excepthook()
    window = MainWindow()
    window.show()
    project = next((a for a in app.arguments()[1:] if not a.startswith("-")), None)  # dpdesk FILE.dpdesk
    recent = window.settings.recent_files()
    if project is not None:
        window.open_project(project)
    elif recent and str(window.settings.value("reopen_last", "false")).lower() == "true":
        window.open_project(recent[0])
    if os.environ.get("DPDESK_QUIT_AFTER_SHOW"):  # installer checks and benchmarks/package.py
        return _report_and_quit(app, window)
    code = app.exec()
    del window
    return code


def _report_and_quit(app: QApplication, window) -> int:
    """Print that the window is shown (and which project is open), then close: no event loop."""
    app.processEvents()
    opened = window.project.path if window.project is not None else "-"
    print(f"dpdesk window shown: {window.isVisible()}; project: {opened}", flush=True)
    window.close()
    app.processEvents()
    return 0 if window.project is None else 1
