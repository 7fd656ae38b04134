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
* beside either, ``<stem>_reproduce.py`` (see :mod:`dpdesk.project.repro`) when the
  bundle carries ``repro`` information and ``repro=True``.

Every text cell in every format goes through :func:`dpdesk.project.safe_text.neutralise`
(formula-like text gets a leading ``'``, also inside the .xlsx so that it stays inert when
the sheet is saved again as CSV). Numbers are written as numbers and never altered.
Missing values (None, NaN) are empty cells; infinity is the text ``∞`` (``−∞`` with a
U+2212 minus sign); booleans are ``yes``/``no``.

Each file is written atomically: to a temporary file in the same folder, then
``os.replace``, so an interrupted export never leaves a half-written file under the
final name.
"""

from __future__ import annotations

import csv
import html
import io
import math
import os
import stat
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timezone
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable

from dpdesk.errors import DpdeskError
from dpdesk.project.safe_text import excel_sheet_name, file_slug, neutralise

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

XLSX_TEXT_LIMIT = 32767  # Excel's maximum characters in one cell
_UMASK = os.umask(0o022)  # read once at import (os.umask can only be read by setting it)
os.umask(_UMASK)
METADATA_SHEET = "Metadata"
README_SHEET = "Readme"


class ExportError(DpdeskError, ValueError):
    """Results that cannot be exported as asked (unknown format, unwritable file)."""


@dataclass
class ReproItem:
    """What the reproducibility script needs to recompute one item's estimates.

    ``design`` and ``params`` are passed as ``rr.design(design, **params)``; ``counts`` is
    the vector of response counts (a list of vectors, one per group, for two-group
    designs); ``subgroups`` maps a subgroup label to its counts in the same shape.
    """

    item: str
    design: str
    params: dict[str, Any]
    counts: list[Any]
    subgroups: dict[str, list[Any]] = field(default_factory=dict)
    confidence: float = 0.95
    ci: str = "default"


@dataclass
class ResultsBundle:
    """Everything one export writes; plain data, convertible to and from JSON.

    ``tables`` is an ordered mapping of table (sheet) name to rows -- a list of dicts or a
    pandas DataFrame; the first table is the main one ("Estimates"). ``metadata`` holds
    key/value pairs (nested dicts are flattened as ``key / subkey``). ``readme`` is a list
    of paragraphs; None means :func:`default_readme`. ``repro`` lists :class:`ReproItem`.
    """

    tables: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)
    readme: list[str] | None = None
    repro: list[ReproItem] | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (DataFrames become lists of row dicts)."""
        return {
            "tables": {name: [dict(zip(cols, row)) for row in rows]
                       for name, (cols, rows) in ((n, normalise_table(t)) for n, t in self.tables.items())},
            "metadata": _jsonable(self.metadata),
            "readme": None if self.readme is None else list(self.readme),
            "repro": None if self.repro is None else [_jsonable(asdict(r)) for r in self.repro],
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "ResultsBundle":
        repro = record.get("repro")
        return cls(
            tables=dict(record.get("tables") or {}),
            metadata=dict(record.get("metadata") or {}),
            readme=record.get("readme"),
            repro=None if repro is None else [ReproItem(**r) for r in repro],
        )


def _jsonable(value: Any) -> Any:
    """Nested dicts/lists of JSON types; exact Fractions and Decimals become strings ("1/3")."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (Fraction, Decimal)):
        return str(value)
    tolist = getattr(value, "tolist", None)  # numpy arrays and scalars
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return _jsonable(tolist())
    return plain_value(value)


# --------------------------------------------------------------------------- cells

def plain_value(value: Any) -> Any:
    """A cell value as None, bool, int, float or str (numpy/pandas scalars unwrapped)."""
    kind = type(value)
    if kind is str or kind is int:  # fast path for the common cells
        return value
    if kind is float:
        return None if value != value else value
    if value is None or isinstance(value, bool):
        return None if value is None else bool(value)
    if isinstance(value, float):  # also numpy.float64, a float subclass
        value = float(value)
        return None if math.isnan(value) else value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str.__str__(value)  # a plain str, also from a str subclass
    if isinstance(value, (Fraction, Decimal)):
        as_float = float(value)
        exact = Fraction(repr(as_float)) == Fraction(value)
        return as_float if exact else f"{value} (≈ {as_float!r})"
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    item = getattr(value, "item", None)  # numpy scalar
    if callable(item) and getattr(value, "ndim", None) == 0:
        return plain_value(item())
    try:
        import pandas as pd  # local: only when a pandas object may be present

        if value is pd.NA or value is pd.NaT:
            return None
        if isinstance(value, pd.Timestamp):
            return value.isoformat()
    except ImportError:  # pragma: no cover
        pass
    return str(value)


def cell_text(value: Any) -> str:
    """The text of one cell in CSV, TSV and HTML: full-precision numbers, safe text."""
    kind = type(value)
    if kind is str:
        return neutralise(value)
    if kind is float and math.isfinite(value):
        return repr(value)
    value = plain_value(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "∞" if value > 0 else "\u2212∞"
        return repr(value)
    return neutralise(value)


def normalise_table(table: Any) -> tuple[list[str], list[list[Any]]]:
    """(column names, rows of plain values) from a list of dicts or a DataFrame."""
    if hasattr(table, "to_dict") and hasattr(table, "columns"):  # pandas DataFrame
        columns = [str(c) for c in table.columns]
        rows = [[plain_value(v) for v in row] for row in table.itertuples(index=False, name=None)]
        return columns, rows
    columns: list[str] = []
    seen: set[str] = set()
    records = list(table or [])
    for record in records:
        if not isinstance(record, dict):
            raise ExportError(
                f"A result table row must be a dict of column -> value, not {type(record).__name__}."
            )
        for key in record:
            if str(key) not in seen:
                seen.add(str(key))
                columns.append(str(key))
    rows = [[plain_value(_get(r, c)) for c in columns] for r in records]
    return columns, rows


def table_columns(table: Any) -> list[str]:
    """The column names of a table (without converting its rows)."""
    if hasattr(table, "to_dict") and hasattr(table, "columns"):
        return [str(c) for c in table.columns]
    return list(dict.fromkeys(str(k) for record in (table or []) if isinstance(record, dict) for k in record))


def _get(record: dict, column: str) -> Any:
    if column in record:
        return record[column]
    for key, value in record.items():
        if str(key) == column:
            return value
    return None


def flatten_metadata(metadata: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """(key, plain value) pairs; nested dicts become ``key / subkey``, lists are joined."""
    pairs: list[tuple[str, Any]] = []
    for key, value in metadata.items():
        name = f"{prefix} / {key}" if prefix else str(key)
        if isinstance(value, dict):
            pairs.extend(flatten_metadata(value, name) if value else [(name, None)])
        elif isinstance(value, (list, tuple)):
            if any(isinstance(v, (dict, list, tuple)) for v in value):
                pairs.extend(flatten_metadata({str(i + 1): v for i, v in enumerate(value)}, name))
            else:
                pairs.append((name, ", ".join(cell_text(v) for v in value)))
        else:
            pairs.append((name, plain_value(value)))
    return pairs


def metadata_rows(bundle: ResultsBundle) -> list[tuple[str, Any]]:
    """The Metadata sheet: the bundle's pairs plus the export time and dpdesk version."""
    from dpdesk import __version__

    pairs = flatten_metadata(bundle.metadata)
    keys = {k.lower() for k, _ in pairs}
    if not keys & {"app version", "dpdesk version", "version"}:
        pairs.insert(0, ("dpdesk version", __version__))
    pairs.append(("exported at (UTC)", datetime.now(timezone.utc).replace(microsecond=0).isoformat()))
    return [(k, "n/a" if v is None else v) for k, v in pairs]


def readme_paragraphs(bundle: ResultsBundle) -> list[str]:
    if bundle.readme is not None:
        return [str(p) for p in bundle.readme]
    from dpdesk.project.results_readme import default_readme

    return default_readme(bundle)


# --------------------------------------------------------------------------- files

def atomic_write(path: Path, write: Callable[[Path], None]) -> Path:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then ``os.replace`` it.

    The final file keeps the permissions of the file it replaces, or gets ordinary ones
    (0666 minus the umask), not mkstemp's 0600.
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(f"Cannot export to {path}: the folder {folder} does not exist. Choose an existing folder.")
    try:
        fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"Cannot write in the folder {folder}: {exc.strerror}. Choose another folder.") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        write(tmp)
        with open(tmp, "r+b") as handle:  # on disk before it takes the final name
            os.fsync(handle.fileno())
        os.chmod(tmp, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ExportError(
            f"Cannot write {path}: {exc.strerror or exc}. If the file is open in another program "
            "(such as Excel), close it, or choose another name."
        ) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


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
    if repro and bundle.repro:
        from dpdesk.project.repro import write_repro_script

        written.append(write_repro_script(bundle, path.with_name(f"{path.stem}_reproduce.py"), results_file=path.name))
    return written


def _csv_text(rows: Iterable[Iterable[Any]], delimiter: str = ",") -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    for row in rows:
        writer.writerow([cell_text(v) for v in row])
    return buffer.getvalue()


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
        written.append(atomic_write(target, _write_text(_csv_text([columns, *rows]), "utf-8-sig")))
    meta = [("Key", "Value"), *metadata_rows(bundle)]
    written.append(atomic_write(path.with_name(f"{path.stem}_metadata.csv"), _write_text(_csv_text(meta), "utf-8-sig")))
    readme = "\n\n".join(neutralise(p) for p in readme_paragraphs(bundle)) + "\n"
    written.append(atomic_write(path.with_name(f"{path.stem}_readme.txt"), _write_text(readme, "utf-8")))
    return written


def write_xlsx(bundle: ResultsBundle, path: str | os.PathLike, *, percent: bool = False) -> Path:
    """The Excel workbook: result sheets, then Metadata and Readme (see module docstring)."""
    from dpdesk.project import export_xlsx

    return atomic_write(Path(path), lambda tmp: export_xlsx.build_workbook(bundle, tmp, percent=percent))


# --------------------------------------------------------------------------- clipboard

def table_to_tsv(rows: Any) -> str:
    """Tab-separated text (header first, CRLF line ends) that pastes into Excel as a table.

    Numbers keep full precision (``repr``); text is neutralised like in every export;
    a cell containing a tab, a line break or a quote is quoted as in Excel's own copy.
    """
    columns, values = normalise_table(rows)
    return _csv_text([columns, *values], delimiter="\t") if columns else ""


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


def sheet_names(bundle: ResultsBundle) -> list[str]:
    """The Excel sheet name of each result table, in order (Metadata and Readme reserved)."""
    taken = {METADATA_SHEET.lower(), README_SHEET.lower()}
    return [excel_sheet_name(str(name), taken) for name in bundle.tables]
