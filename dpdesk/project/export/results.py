"""Export results to Excel (.xlsx), CSV and the clipboard, safely and reproducibly.

``export_results(bundle, path)`` chooses the format from the suffix:

* ``.xlsx``: one sheet per result table (frozen header, autofilter, column widths,
  number formats: counts ``0``, estimates and CI bounds ``0.0000``, SE ``0.0000``,
  confidence ``0.0%``, local epsilon ``0.000``; the stored values keep full precision),
  then a "Metadata" sheet (key, value) and a "Readme" sheet in plain words. Written by
  XlsxWriter with ``strings_to_formulas``, ``strings_to_urls`` and ``strings_to_numbers``
  off and one explicit ``write_string``/``write_number`` per cell.
* ``.csv``: one CSV per table -- the first (main) table at ``path``, every other table
  beside it as ``<stem>_<table>.csv`` -- plus ``<stem>_metadata.csv`` and
  ``<stem>_readme.txt``. UTF-8 with a BOM (Excel detects the encoding), comma separated,
  CRLF line ends (RFC 4180), numbers at full precision (``repr``). Separate files rather
  than one file with a "table" column, because the tables have different columns and
  each file then reads directly into R, Stata or pandas.
* beside either, ``<stem>_reproduce.py`` (see :mod:`dpdesk.project.export.repro`) when the
  bundle carries ``repro`` information and ``repro=True``.

CSV, TSV and xlsx cells are written by :mod:`dpdesk.project.export.tables`, the writer every
table leaving dpdesk goes through. Every text cell in every format, column names included,
goes through :func:`dpdesk.project.export.safe_text.neutralise`
(formula-like text gets a leading ``'``, also inside the .xlsx so that it stays inert when
the sheet is saved again as CSV). Numbers are written as numbers and never altered.
Missing values (None, NaN) are empty cells; infinity is the text ``∞`` (``−∞`` with a
U+2212 minus sign); booleans are ``yes``/``no``.

Each file is written atomically: to a temporary file in the same folder, then
``os.replace``, so an interrupted export never leaves a half-written file under the
final name.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any, Callable

from dpdesk.project.export import tables, xlsx
from dpdesk.project.export.model import (  # noqa: F401 - the model's names stay importable from here
    METADATA_SHEET,
    README_SHEET,
    XLSX_TEXT_LIMIT,
    ExportError,
    ReproItem,
    ResultsBundle,
    atomic_write,
    cell_text,
    flatten_metadata,
    metadata_rows,
    normalise_table,
    plain_value,
    sheet_names,
    table_columns,
)
from dpdesk.project.export.readme import readme_paragraphs
from dpdesk.project.export.safe_text import file_slug, neutralise

__all__ = [
    "ExportError",
    "ReproItem",
    "ResultsBundle",
    "export_results",
    "write_xlsx",
    "write_csv",
    "table_to_tsv",
    "table_to_html",
    "atomic_write",
    "sheet_names",
    "cell_text",
    "normalise_table",
    "plain_value",
    "metadata_rows",
]


# --------------------------------------------------------------------------- cells


# --------------------------------------------------------------------------- files


def export_results(bundle: ResultsBundle, path: str | os.PathLike, *, repro: bool = True,
                   percent: bool = False) -> list[Path]:
    """Write ``bundle`` to ``path`` (.xlsx or .csv); return every file written.

    With ``repro=True`` (the default) and repro information in the bundle, the script
    ``<stem>_reproduce.py`` is written beside the results. ``percent=True`` shows
    estimates and CI bounds as ``0.0%`` in the workbook (the values stay proportions).
    """
    path = Path(path)
    if not bundle.tables:
        raise ExportError("There are no results to export yet: run an analysis first, then export.")
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        written = [write_xlsx(bundle, path, percent=percent)]
    elif suffix == ".csv":
        written = write_csv(bundle, path)
    else:
        raise ExportError(
            f"Cannot export results to {path.name!r}: unknown file type {path.suffix or '(none)'!r}. "
            "Use a name ending in .xlsx (Excel workbook) or .csv (comma-separated text)."
        )
    if repro and (bundle.repro or bundle.regressions or bundle.surveys or bundle.correlations):
        from dpdesk.project.export.repro import write_repro_script

        written.append(write_repro_script(bundle, path.with_name(f"{path.stem}_reproduce.py"), results_file=path.name))
    return written


def _write_text(text: str, encoding: str) -> Callable[[Path], None]:
    def write(tmp: Path) -> None:
        with open(tmp, "w", encoding=encoding, newline="") as handle:
            handle.write(text)

    return write


def write_csv(bundle: ResultsBundle, path: str | os.PathLike) -> list[Path]:
    """One UTF-8-with-BOM CSV per table (the main one at ``path``), metadata and readme.

    Other tables go to ``<stem>_<table slug>.csv``, metadata to ``<stem>_metadata.csv``
    (columns Key, Value) and the readme to ``<stem>_readme.txt``.
    """
    path = Path(path)
    taken = {"metadata", "readme", "reproduce"}
    written: list[Path] = []
    for index, (name, table) in enumerate(bundle.tables.items()):
        columns, rows = normalise_table(table)
        target = path if index == 0 else path.with_name(f"{path.stem}_{file_slug(str(name), taken)}.csv")
        written.append(tables.write_csv(target, columns, rows))
    written.append(tables.write_csv(path.with_name(f"{path.stem}_metadata.csv"), ("Key", "Value"), metadata_rows(bundle)))
    readme = "\n\n".join(neutralise(p) for p in readme_paragraphs(bundle)) + "\n"
    written.append(atomic_write(path.with_name(f"{path.stem}_readme.txt"), _write_text(readme, "utf-8")))
    return written


def write_xlsx(bundle: ResultsBundle, path: str | os.PathLike, *, percent: bool = False) -> Path:
    """The Excel workbook: result sheets, then Metadata and Readme (see module docstring)."""

    return atomic_write(Path(path), lambda tmp: xlsx.build_workbook(bundle, tmp, percent=percent))


# --------------------------------------------------------------------------- clipboard

def table_to_tsv(rows: Any) -> str:
    """Tab-separated text (header first, CRLF line ends) that pastes into Excel as a table.

    Numbers keep full precision (``repr``); text is neutralised like in every export;
    a cell containing a tab, a line break or a quote is quoted as in Excel's own copy.
    """
    columns, values = normalise_table(rows)
    return tables.csv_text([columns, *values], delimiter="\t") if columns else ""


def table_to_html(rows: Any) -> str:
    """An HTML ``<table>`` with ``<th>`` headers that pastes into Excel or Word as a table.

    Numbers keep full precision; text cells carry ``mso-number-format:"\\@"`` so that Excel
    keeps them as text (an item "007" stays "007"), and are HTML-escaped and neutralised.
    """
    columns, values = normalise_table(rows)
    out = ["<table>", "<thead><tr>"]
    out += [f"<th>{html.escape(cell_text(c))}</th>" for c in columns]
    out.append("</tr></thead>")
    out.append("<tbody>")
    for row in values:
        out.append("<tr>")
        for value in row:
            text = html.escape(cell_text(value))
            if isinstance(value, str):
                out.append(f"<td style='mso-number-format:\"\\@\"'>{text}</td>")
            else:
                out.append(f"<td>{text}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


