"""The document: project file, imports, exports, ledger. No Qt.

Public names are loaded lazily so that importing one part does not pull in pandas.
"""

from __future__ import annotations

import importlib

_PUBLIC = {
    "Project": "dpdesk.project.store",
    "read_table": "dpdesk.project.reading",
    "Table": "dpdesk.project.reading",
    "ImportReport": "dpdesk.project.reading",
    "map_item": "dpdesk.project.mapping",
    "ItemMapping": "dpdesk.project.mapping",
    "MappingReport": "dpdesk.project.mapping",
    "export_results": "dpdesk.project.export",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'dpdesk.project' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
