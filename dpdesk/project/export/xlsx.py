"""The Excel workbook of :func:`dpdesk.project.export.results.write_xlsx` (XlsxWriter).

Every cell is written with an explicit ``write_number`` or ``write_string`` (never the
type-guessing ``write``), and the workbook is opened with ``strings_to_formulas``,
``strings_to_urls`` and ``strings_to_numbers`` off, so no text ever becomes a formula,
a hyperlink or a number. Formula-like text is also prefixed with ``'``
(:func:`dpdesk.project.export.safe_text.neutralise`). The cells are written by the shared
:class:`dpdesk.project.export.tables.SheetWriter`; this module adds the results' sheets
and number formats.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from dpdesk.project.export.model import (
    METADATA_SHEET,
    README_SHEET,
    ResultsBundle,
    metadata_rows,
    normalise_table,
    sheet_names,
)
from dpdesk.project.export.readme import readme_paragraphs
from dpdesk.project.export.tables import SheetWriter, open_workbook

#: Number format of a column, by its lower-cased name.
COLUMN_FORMATS = {
    "n": "0",
    "excluded": "0",
    "count": "0",
    "counts": "0",
    "estimate": "0.0000",
    "prevalence": "0.0000",
    "difference": "0.0000",
    "ci low": "0.0000",
    "ci high": "0.0000",
    "se": "0.0000",
    "standard error": "0.0000",
    "confidence": "0.0%",
    "local epsilon": "0.000",
    "epsilon": "0.000",
    # regression sheets: coefficients and limits to 2 decimals, p to 3 (APA), test statistics to 2
    "b": "0.00",
    "z": "0.00",
    "t": "0.00",
    "or": "0.00",
    "ci low (b)": "0.00",
    "ci high (b)": "0.00",
    "ci low (or)": "0.00",
    "ci high (or)": "0.00",
    "wald ci low (b)": "0.00",
    "wald ci high (b)": "0.00",
    "lr chi2": "0.00",
    "lr χ²": "0.00",
    "se (b)": "0.00",
    "p": "0.000",
    "p (lr)": "0.000",
    "p-value": "0.000",
    "p-value (holm)": "0.000",
    "statistic": "0.00",  # a subgroup test's G² or χ²
    "pooled estimate": "0.0000",  # the share of all groups together, in the unit of the estimates
    "value": "#,##0.0##",
    "design effect": "0.00",  # a ratio of variances, as the report writes it
    "effective n": "#,##0",  # a number of respondents  # the tests sheet: chi-squares and fit statistics (n, AIC, ...) in one column
}


#: Shares shown in % when percent is chosen: the SE is in the unit of its estimate (one number style).
PERCENT_COLUMNS = ("estimate", "prevalence", "difference", "ci low", "ci high", "se", "standard error",
                   "pooled estimate")


def column_format(name: str, values: list[Any], percent: bool = False) -> str | None:
    """The number format for a column: by name, else ``0`` when every number is whole."""
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    key = name.strip().lower()
    fmt = "0.0%" if percent and key in PERCENT_COLUMNS else COLUMN_FORMATS.get(key)
    if key == "confidence" and any(not (0 <= v <= 1) for v in numbers if math.isfinite(v)):
        return None  # given in percent already (95, not 0.95): keep General
    if fmt:
        return fmt
    if numbers and all(isinstance(v, int) for v in numbers):
        return "0"
    return None


def build_workbook(bundle: ResultsBundle, target: Path, *, percent: bool = False) -> None:
    """Write the workbook of ``bundle`` to ``target``; ``percent`` formats proportions as 0.0%."""
    workbook = open_workbook(target)
    try:
        writer = SheetWriter(workbook, lambda name, values: column_format(name, values, percent))
        renamed = []
        for sheet, (name, table) in zip(sheet_names(bundle), bundle.tables.items()):
            columns, rows = normalise_table(table)
            writer.table(workbook.add_worksheet(sheet), columns, rows)
            if sheet != str(name):  # Excel's rules changed the name: keep the original
                renamed.append([f"sheet {sheet} / table name", str(name)])
        meta = workbook.add_worksheet(METADATA_SHEET)
        writer.table(meta, ["Key", "Value"], [list(pair) for pair in metadata_rows(bundle)] + renamed)
        readme = workbook.add_worksheet(README_SHEET)
        readme.set_column(0, 0, 100)
        readme.fit_to_pages(1, 0)
        readme.write_string(0, 0, "About these results", writer.title)
        for row, paragraph in enumerate(readme_paragraphs(bundle), start=2):
            writer.text(readme, row, 0, paragraph, writer.wrap)
    finally:
        workbook.close()
