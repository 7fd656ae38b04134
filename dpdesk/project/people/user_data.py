"""The user's data folder: where dpdesk keeps what belongs to this machine, not to a project.

The registry of respondents already released from (:mod:`dpdesk.project.people.respondents`) and
the ledger's key and last-seen heads live here. ``DPDESK_SETTINGS_DIR`` (set by the tests
and the self-test) moves it to ``<that folder>/data``; otherwise it is the platform's
per-user application-data folder (``$XDG_DATA_HOME/dpdesk`` or ``~/.local/share/dpdesk`` on
Linux, ``~/Library/Application Support/dpdesk`` on macOS, ``%APPDATA%\\dpdesk`` on Windows),
created with owner-only permissions.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def user_data_folder() -> Path:
    """The folder (created, mode 0700 where the platform has modes)."""
    override = os.environ.get("DPDESK_SETTINGS_DIR")
    if override:
        path = Path(override) / "data"
    elif sys.platform == "win32":
        path = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "dpdesk"
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Application Support" / "dpdesk"
    else:
        path = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "dpdesk"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path
