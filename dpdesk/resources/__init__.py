"""dpdesk's run-time files (the example survey, the icon, the third-party licences of a bundle),
read with :mod:`importlib.resources` so that the source tree, an installed wheel and a frozen
PyInstaller bundle (``dpdesk/resources`` under ``sys._MEIPASS``) all find them the same way.

    examples/students.csv, examples/items.json   the bundled example survey (tools/make_example.py)
    icons/dpdesk.svg                             the application and document icon
    licences/                                    third-party licences, written at build time by
                                                 packaging/collect_licences.py (bundles only)
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def path(*parts: str) -> Path:
    """The file or folder ``dpdesk/resources/<parts>`` on disk.

    Installed wheels, the source tree and PyInstaller bundles keep packages as folders, so the
    resource is a real path (never inside a zip archive) that other programs can open too.
    """
    return Path(str(resources.files(__name__).joinpath(*parts)))


def icon() -> Path:
    """The application icon (SVG), for ``QIcon`` and desktop files."""
    return path("icons", "dpdesk.svg")
