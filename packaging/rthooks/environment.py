"""PyInstaller runtime hook (Linux): a usable Qt platform, and a clean environment for child programs.

1. Wayland. The bundle leaves out Qt's Wayland platform plugin (and the Wayland client libraries
   and shell integrations it needs; packaging/bundle_filter.py), so ``QT_QPA_PLATFORM=wayland``
   would make Qt abort (exit 134). Every Wayland desktop runs XWayland, so where the bundle has no
   Wayland plugin, wayland entries are dropped from ``QT_QPA_PLATFORM`` and Qt uses xcb (X11);
   a one-line message on stderr says so.
2. Child programs. PyInstaller's bootloader puts the bundle's own folder on ``LD_LIBRARY_PATH``
   (keeping the original in ``LD_LIBRARY_PATH_ORIG``). Programs the app starts (a PDF viewer, the
   file manager, xdg-open) would inherit it and load the bundle's Qt, glib or fontconfig instead
   of their own. This process no longer needs the variable (the dynamic loader reads it once, at
   start-up), so it is restored here, before any child can be started, for every way of starting
   one (QDesktopServices, QProcess, subprocess).
"""

import glob
import os
import sys


def restore_library_path(environ, bundle: str) -> None:
    """Put back the ``LD_LIBRARY_PATH`` the user had (none, if they had none)."""
    original = environ.pop("LD_LIBRARY_PATH_ORIG", None)
    current = environ.get("LD_LIBRARY_PATH")
    if original is not None:
        environ["LD_LIBRARY_PATH"] = original
    elif current is not None:
        kept = [p for p in current.split(os.pathsep)
                if p and os.path.realpath(p) != os.path.realpath(bundle) and not p.startswith(bundle + os.sep)]
        if kept:
            environ["LD_LIBRARY_PATH"] = os.pathsep.join(kept)
        else:
            del environ["LD_LIBRARY_PATH"]


def has_wayland_plugin(bundle: str) -> bool:
    return bool(glob.glob(os.path.join(bundle, "PySide6", "Qt", "plugins", "platforms", "libqwayland*.so")))


def choose_platform(environ, bundle: str, stderr=sys.stderr) -> None:
    """Drop wayland from ``QT_QPA_PLATFORM`` when the bundle cannot honour it (see the module doc)."""
    wanted = environ.get("QT_QPA_PLATFORM", "")
    names = [n for n in wanted.split(";") if n.strip()]
    if not any(n.strip().startswith("wayland") for n in names) or has_wayland_plugin(bundle):
        return
    rest = [n for n in names if not n.strip().startswith("wayland")] or ["xcb"]
    environ["QT_QPA_PLATFORM"] = ";".join(rest)
    how = "through XWayland" if environ.get("DISPLAY") else "but no X11 display is set (DISPLAY): start XWayland or an X server"
    print(f"dpdesk: this build has no Wayland platform plugin (QT_QPA_PLATFORM={wanted}); "
          f"using {environ['QT_QPA_PLATFORM']} (X11) instead, {how}.", file=stderr)


if sys.platform.startswith("linux") and hasattr(sys, "_MEIPASS"):
    restore_library_path(os.environ, sys._MEIPASS)
    choose_platform(os.environ, sys._MEIPASS)
