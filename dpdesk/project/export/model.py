"""The export model: a bundle of result tables, metadata and the reproducibility information.

Writers (``results`` for CSV/xlsx/clipboard, ``xlsx``, ``repro``, ``readme``) import this
module and never each other, so the export package has no cycles. Cells are turned into
plain values and text here, once, for every format.
"""

from __future__ import annotations

import math
import os
import stat
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timezone
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from dpdesk.errors import DpdeskError
from dpdesk.project.export.safe_text import excel_sheet_name, neutralise

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
    ``mapping`` is the item's column and codes (``column``, ``codes``, ``group_column``,
    ``group_codes``) and ``by`` the subgroup column, so that the script can count the
    stored data again and check the counts.
    """

    item: str
    design: str
    params: dict[str, Any]
    counts: list[Any]
    subgroups: dict[str, list[Any]] = field(default_factory=dict)
    confidence: float = 0.95
    ci: str = "default"
    mapping: dict[str, Any] | None = None
    by: str | None = None


@dataclass
class ResultsBundle:
    """Everything one export writes; plain data, convertible to and from JSON.

    ``tables`` is an ordered mapping of table (sheet) name to rows -- a list of dicts or a
    pandas DataFrame; the first table is the main one ("Estimates"). ``metadata`` holds
    key/value pairs (nested dicts are flattened as ``key / subkey``). ``readme`` is a list
    of paragraphs; None means :func:`default_readme`. ``repro`` lists :class:`ReproItem`;
    ``regressions`` the regressions the script refits and checks (plain dicts, see
    ``dpdesk.project.regression.export.regression_repro``); ``surveys`` the weighted items it
    refits and checks (``dpdesk.project.analysis.survey.survey_repro``); ``correlations`` the corrected
    correlations it recomputes with their bootstrap seed (``regression.correlation_report.correlation_repro``);
    ``project_file`` the project's path,
for the script only (the metadata a reader sees names the file, never its folder).
    """

    tables: dict[str, Any]
    metadata: dict[str, Any] = field(default_factory=dict)
    readme: list[str] | None = None
    repro: list[ReproItem] | None = None
    regressions: list[dict[str, Any]] | None = None
    surveys: list[dict[str, Any]] | None = None  # weighted items the script refits (survey_analysis.survey_repro)
    correlations: list[dict[str, Any]] | None = None  # corrected correlations the script recomputes
    project_file: str | None = None  # where the script finds the rows; the sheets name the file only

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (DataFrames become lists of row dicts)."""
        return {
            "tables": {name: [dict(zip(cols, row)) for row in rows]
                       for name, (cols, rows) in ((n, normalise_table(t)) for n, t in self.tables.items())},
            "metadata": _jsonable(self.metadata),
            "readme": None if self.readme is None else list(self.readme),
            "repro": None if self.repro is None else [_jsonable(asdict(r)) for r in self.repro],
            "regressions": None if self.regressions is None else _jsonable(self.regressions),
            "surveys": None if self.surveys is None else _jsonable(self.surveys),
            "correlations": None if self.correlations is None else _jsonable(self.correlations),
            "project_file": self.project_file,
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "ResultsBundle":
        repro = record.get("repro")
        return cls(
            tables=dict(record.get("tables") or {}),
            metadata=dict(record.get("metadata") or {}),
            readme=record.get("readme"),
            repro=None if repro is None else [ReproItem(**r) for r in repro],
            regressions=record.get("regressions"),
            surveys=record.get("surveys"),
            correlations=record.get("correlations"),
            project_file=record.get("project_file"),
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


def _get(record: dict, column: str) -> Any:
    if column in record:
        return record[column]
    for key, value in record.items():
        if str(key) == column:
            return value
    return None


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


def sheet_names(bundle: ResultsBundle) -> list[str]:
    """The Excel sheet name of each result table, in order (Metadata and Readme reserved)."""
    taken = {METADATA_SHEET.lower(), README_SHEET.lower()}
    return [excel_sheet_name(str(name), taken) for name in bundle.tables]
