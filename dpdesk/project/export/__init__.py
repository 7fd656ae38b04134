"""Results out of dpdesk: workbook, CSV, clipboard text, the reproducibility script, safe text.

Owns the results bundle (the export model), its writers and the text neutralising that every
file leaving dpdesk goes through (``safe_text``). May use ``dpdesk.mechanisms``; never the
ledger, the readers or Qt.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    "export_results": "dpdesk.project.export.results",
    "ResultsBundle": "dpdesk.project.export.results",
    "ExportError": "dpdesk.project.export.results",
    "write_csv": "dpdesk.project.export.results",
    "write_xlsx": "dpdesk.project.export.results",
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
