"""Imports: survey data files (CSV, Excel, SPSS, Stata, platform exports, counts tables) into a table.

Owns file-format detection, encodings, header rows, identifiers left out, and storing an
imported table in a project with its items' mappings (``importing``). May use ``file`` and
``mapping``; never the ledger (an import never touches the budget) or exports.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    "read_table": "dpdesk.project.reading.table",
    "Table": "dpdesk.project.reading.table",
    "ImportReport": "dpdesk.project.reading.table",
    "list_sheets": "dpdesk.project.reading.table",
    "import_file": "dpdesk.project.reading.importing",
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
