"""Where dpdesk keeps the files it makes for the user, without Qt.

:func:`data_folder` is the folder Qt calls ``AppDataLocation`` for an application
"dpdesk" of the organisation "dpdesk" (the GUI uses the same function):

- ``$DPDESK_SETTINGS_DIR/data`` when that variable is set (tests, the self-test);
- Linux and other Unix: ``$XDG_DATA_HOME/dpdesk/dpdesk`` (default ``~/.local/share``);
- macOS: ``~/Library/Application Support/dpdesk/dpdesk``;
- Windows: ``%APPDATA%\\dpdesk\\dpdesk``.

:func:`private_folder` is a sub-folder only its owner may enter (mode 0700), for
secrets such as the ledger's key.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dpdesk.errors import ProjectError

__all__ = ["data_folder", "private_folder"]

_APP = ("dpdesk", "dpdesk")  # organisation, application (as set in dpdesk.gui.shell.app)


def _platform_base() -> Path:
    home = Path.home()
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return Path(appdata) if appdata else home / "AppData" / "Roaming"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support"
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) if xdg and os.path.isabs(xdg) else home / ".local" / "share"


def data_folder(create: bool = True) -> Path:
    """The user's dpdesk data folder (made, with its parents, unless ``create=False``)."""
    folder = os.environ.get("DPDESK_SETTINGS_DIR")
    path = Path(folder) / "data" if folder else _platform_base().joinpath(*_APP)
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ProjectError(f"dpdesk cannot create its data folder {path} ({exc.strerror or exc}). "
                               "Check that your home folder is writable, or set DPDESK_SETTINGS_DIR "
                               "to a folder of yours.") from exc
    return path


def private_folder(name: str, create: bool = True) -> Path:
    """``data_folder()/name``, readable and writable by its owner only (0700 on POSIX)."""
    path = data_folder(create) / name
    if not create:
        return path
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        if os.name == "posix" and path.stat().st_mode & 0o077:
            os.chmod(path, 0o700)  # made by hand or by an older version: close it
    except OSError as exc:
        raise ProjectError(f"dpdesk cannot create its private folder {path} ({exc.strerror or exc}). "
                           "Check the permissions of the data folder, or set DPDESK_SETTINGS_DIR.") from exc
    return path
