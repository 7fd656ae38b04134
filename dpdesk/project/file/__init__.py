"""The ``.dpdesk`` file itself: one SQLite document.

Owns the schema and its migrations, opening and validating a file, the lock that keeps one
opener per file, atomic copies, and the tables that hold imported datasets. May use
``dpdesk.errors`` and ``dpdesk.project.items``; never the readers, the ledger, exports or Qt.
"""

from __future__ import annotations

import importlib

_PUBLIC = {'Project': 'dpdesk.project.file.store'}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
