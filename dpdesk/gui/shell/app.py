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
    from dpdesk.gui.shell import none_guard

    none_guard.install()  # PySide6 6.12 leaks a reference to None per call on Python 3.11
    app = QApplication.instance() or QApplication([sys.argv[0], *(argv or [])])
    app.setApplicationName("dpdesk")
    app.setOrganizationName("dpdesk")
    app.setApplicationDisplayName("dpdesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("dpdesk")  # matches the installed dpdesk.desktop (taskbar icon, Wayland app id)
    icon = app_icon()
    if icon is not None:
        app.setWindowIcon(icon)  # every window's _NET_WM_ICON / taskbar icon
    from dpdesk.gui.shell import gc_guard

    gc_guard.install(app)  # cyclic garbage (Qt objects among it) is collected on the GUI thread only
    return app


def app_icon():
    """dpdesk's icon (the SVG shipped in the package), or None where it is missing."""
    from importlib.resources import files

    from PySide6.QtGui import QIcon

    path = files("dpdesk") / "resources" / "icons" / "dpdesk.svg"
    if not path.is_file():
        return None
    icon = QIcon(str(path))
    return None if icon.isNull() else icon


def run(argv: list[str] | None = None) -> int:
    argv = list(argv or [])
    app = make_app(argv)
    from dpdesk.gui.shell import single_instance

    project = next((a for a in app.arguments()[1:] if not a.startswith("-")), None)  # dpdesk FILE.dpdesk
    checking = bool(os.environ.get("DPDESK_QUIT_AFTER_SHOW"))
    socket_path = None
    if not checking:  # installer checks: always a fresh window
        from dpdesk.gui.shell import private_socket

        socket_path = private_socket.socket_path()
        if socket_path is None:
            print(private_socket.why_no_socket(), file=sys.stderr)
        elif single_instance.hand_over(project, socket_path):
            print("dpdesk is already running; " + (f"it opens {project} (or asks first)." if project
                                                    else "its window comes forward."))
            return 0
    from dpdesk.gui.dialogs.errors import install_excepthook
    from dpdesk.gui.shell.main_window import MainWindow
    from dpdesk.gui.widgets.screen_fit import fit_on_screen

    install_excepthook()
    window = MainWindow()
    window.show()
    fit_on_screen(window)  # the first-run size (1100 x 720) too: a 1024 x 700 laptop shows the whole window
    server = single_instance.InstanceServer(app, socket_path)
    if socket_path is not None:
        server.listen()
    server.open_requested.connect(window.bring_forward)
    file_events = single_instance.FileOpenFilter(app)
    file_events.open_requested.connect(window.bring_forward)
    app.installEventFilter(file_events)
    recent = window.settings.recent_files()
    if project is not None:
        window.open_project(project)
    elif recent and str(window.settings.value("reopen_last", "false")).lower() == "true":
        window.open_project(recent[0])
    if os.environ.get("DPDESK_QUIT_AFTER_SHOW"):  # installer checks and benchmarks/package.py
        return _report_and_quit(app, window)
    code = app.exec()
    server.close()
    del window
    if "dpdesk.project.linked.spark_source" in sys.modules:  # a linked dataset used Spark: end its JVM
        from dpdesk.project.linked.spark_source import stop_sessions

        stop_sessions()
    return code


def _report_and_quit(app: QApplication, window) -> int:
    """Print that the window is shown (and which project is open), then close: no event loop."""
    app.processEvents()
    opened = window.project.path if window.project is not None else "-"
    print(f"dpdesk window shown: {window.isVisible()}; project: {opened}", flush=True)
    window.close()
    app.processEvents()
    return 0 if window.project is None else 1
