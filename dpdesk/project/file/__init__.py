"""The ``.dpdesk`` file itself: one SQLite document.

Owns the schema and its migrations, opening and validating a file, the lock that keeps one
opener per file, atomic copies, and the tables that hold imported datasets. May use
``dpdesk.errors`` and ``dpdesk.project.study.items``; never the readers, the ledger, exports or Qt.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    "Project": "dpdesk.project.file.store",
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
