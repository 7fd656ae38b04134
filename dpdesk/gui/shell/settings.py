"""The user's settings (QSettings): window geometry, recent projects, last folders.

``DPDESK_SETTINGS_DIR`` (set by the tests and the self-test) points the settings at a
folder of its own, so a run never touches the user's real settings.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 8


def make_settings() -> QSettings:
    folder = os.environ.get("DPDESK_SETTINGS_DIR")
    if folder:
        return QSettings(str(Path(folder) / "dpdesk.ini"), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "dpdesk", "dpdesk")


def data_folder() -> Path:
    """A folder for files the program makes for the user (the example project): the same
    per-user data folder as the ledger's key and the registries (:mod:`dpdesk.project.people.user_data`)."""
    from dpdesk.project.people.user_data import user_data_folder

    return user_data_folder()


class Settings:
    """Typed access to the few things dpdesk remembers between sessions."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self._s = qsettings or make_settings()
        self._project_folder: Path | None = None  # the open project's folder: where its files are
        self._chosen: dict[str, str] = {}  # the folders chosen per kind while this project is open

    # recent projects -------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self._s.value("recent/files", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or []) if v]

    def add_recent(self, path: str | os.PathLike) -> None:
        path = str(Path(path).absolute())
        files = [path] + [f for f in self.recent_files() if f != path]
        self._s.setValue("recent/files", files[:MAX_RECENT])
        self._s.sync()

    def remove_recent(self, path: str) -> None:
        self._s.setValue("recent/files", [f for f in self.recent_files() if f != str(path)])
        self._s.sync()

    def clear_recent(self) -> None:
        self._s.setValue("recent/files", [])
        self._s.sync()

    # folders ---------------------------------------------------------------------
    def set_project(self, path: str | os.PathLike | None) -> None:
        """The project now open (None: none): its folder is where its file dialogs start."""
        self._project_folder = Path(path).absolute().parent if path is not None else None
        self._chosen = {}

    def last_folder(self, kind: str) -> str:
        """Where a file dialog for ``kind`` ("project", "data", "export", "report", ...) opens: the folder
        chosen for it since this project was opened, else the open project's folder, else the folder
        last used for it, else home. (Opening a project starts where projects were last opened.)"""
        candidates = [self._chosen.get(kind)]
        if kind != "project" and self._project_folder is not None:
            candidates.append(str(self._project_folder))
        candidates.append(str(self._s.value(f"folders/{kind}", "") or ""))
        return next((f for f in candidates if f and Path(f).is_dir()), str(Path.home()))

    def start_path(self, kind: str, name: str = "") -> str:
        """``name`` in :meth:`last_folder` (the folder itself without a name): a file dialog's start."""
        folder = Path(self.last_folder(kind))
        return str(folder / name) if name else str(folder)

    def set_last_folder(self, kind: str, path: str | os.PathLike) -> None:
        p = Path(path)
        folder = str(p if p.is_dir() else p.parent)
        self._s.setValue(f"folders/{kind}", folder)
        self._chosen[kind] = folder

    # window ----------------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self._s.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, geometry: QByteArray) -> None:
        self._s.setValue("window/geometry", geometry)
        self._s.sync()

    # preferences -----------------------------------------------------------------
    def value(self, key: str, default=None):
        return self._s.value(f"preferences/{key}", default)

    def set_value(self, key: str, value) -> None:
        self._s.setValue(f"preferences/{key}", value)
        self._s.sync()
