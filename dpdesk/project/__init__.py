"""The document layer: everything about a project, no Qt.

Sub-packages, each named for its job:

- ``file``     the ``.dpdesk`` SQLite document: schema, migrations, validation, lock, datasets
- ``reading``  imports: data files and counts tables into a table, and into a project
- ``ledger``   the privacy budget, the release transaction and the ledger's chain
- ``export``   results out: workbook, CSV, clipboard, reproducibility script, safe text
- ``sharing``  disclosure checks, remedies, pseudonyms and shareable extracts

and, where a reader expects them, ``items`` (what a project returns), ``mapping`` (codes to
responses) and ``analysis`` (from a project to estimates). Public names are loaded lazily so
that importing one part does not pull in pandas.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    "Project": "dpdesk.project.file.store",
    "read_table": "dpdesk.project.reading.table",
    "Table": "dpdesk.project.reading.table",
    "ImportReport": "dpdesk.project.reading.table",
    "map_item": "dpdesk.project.mapping",
    "ItemMapping": "dpdesk.project.mapping",
    "MappingReport": "dpdesk.project.mapping",
    "import_file": "dpdesk.project.reading.importing",
    "export_results": "dpdesk.project.export.results",
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
