"""Read a survey data file into a :class:`Table`: a data frame and an import report.

``read_table(path, **overrides)`` looks at the bytes (not only the extension) and reads
CSV/TSV text, Excel ``.xlsx``, SPSS ``.sav``/``.por``, Stata ``.dta`` or SAS transport
``.xpt``. It recognises exports of Qualtrics, SurveyMonkey, LimeSurvey and REDCap by their
header signature, turns question text into variable labels, drops direct identifiers (e-mail,
IP address, names, response IDs, location, phone) unless asked to keep them, and says in the
report what it did.

Every problem with the input raises :class:`dpdesk.errors.DataError` whose message names
the file, the place (row, column, value) and a fix; no other exception type escapes for
any input file. A ``progress`` callback may cancel the import: it returns ``False`` or
raises; then :class:`Cancelled` (or the callback's own exception) is raised.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from dpdesk.errors import DataError, DpdeskError
from dpdesk.project.reading.option_words import choose

__all__ = ["Cancelled", "ImportReport", "Source", "Table", "list_sheets", "read_table"]

ProgressCallback = Callable[[float], Any]


class Cancelled(DataError):
    """The import was cancelled by its progress callback (nothing was imported).

    A subclass of :class:`DataError`, so code that stops on any import problem also stops
    here; catch ``Cancelled`` first to treat it as a cancellation rather than an error.
    """


@dataclass(frozen=True)
class Source:
    """The file a table came from: name, size in bytes and SHA-256 of its bytes."""

    name: str
    path: str
    size: int
    sha256: str

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclass
class ImportReport:
    """What the import found and did, in words a researcher can check.

    ``excluded_columns`` is a list of ``{"column", "reason"}``; ``variable_labels`` maps a
    column to its question text; ``value_labels`` maps a column to ``{code: label}``;
    ``missing_values`` maps a column to its user-missing codes (refused, don't know), which
    stay in the frame as codes, distinct from blanks. ``first_data_row`` is the row number
    (1-based, as a spreadsheet shows the file) of the frame's index label 0.
    """

    format: str = ""
    encoding: str | None = None
    delimiter: str | None = None
    decimal: str | None = None
    header_rows: int = 1
    platform: str | None = None
    kind: str = "responses"
    sheet: str | None = None
    sheets: list[str] = field(default_factory=list)
    n_rows: int = 0
    n_columns: int = 0
    first_data_row: int = 2
    excluded_columns: list[dict] = field(default_factory=list)
    variable_labels: dict[str, str] = field(default_factory=dict)
    value_labels: dict[str, dict] = field(default_factory=dict)
    missing_values: dict[str, list] = field(default_factory=dict)
    count_column: str | None = None
    response_column: str | None = None
    group_columns: list[str] = field(default_factory=list)
    dropped_rows: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    import_ids: dict[str, str] = field(default_factory=dict)  # Qualtrics: column -> ImportId (QID3)

    @property
    def decimal_mark(self) -> str | None:
        return self.decimal

    @property
    def missing_codes(self) -> dict[str, list]:
        return self.missing_values

    @property
    def excluded(self) -> list[str]:
        """Names of the columns left out (identifiers, blank columns)."""
        return [e["column"] for e in self.excluded_columns]

    def to_dict(self) -> dict:
        """A JSON-able copy (codes become plain ints, floats or strings)."""
        return _jsonable(dataclasses.asdict(self))


@dataclass
class Table:
    """An imported data set: ``frame`` (codes, one row per respondent), ``report``, ``source``."""

    frame: Any
    report: ImportReport
    source: Source
    #: set when the table is stored: released data it shares respondents with (words, for the user)
    seen_before: list = field(default_factory=list)
    #: set when the table is stored: the items that mapped themselves, and how (words, for the user)
    auto_mapped: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"report": self.report.to_dict(), "source": self.source.to_dict()}


def _jsonable(value):
    if isinstance(value, dict):
        return {_json_key(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return _plain(value)


def _json_key(key):
    key = _plain(key)
    return key if isinstance(key, (str, int, float, bool)) or key is None else str(key)


def _plain(value):
    """numpy scalars to Python scalars; anything else not JSON-able to its text."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    item = getattr(value, "item", None)
    if callable(item):
        try:
            return item()
        except (TypeError, ValueError):
            pass
    return str(value)


def file_source(path: str) -> Source:
    """Name, size and SHA-256 of the file's bytes (read in 1 MiB blocks)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return Source(os.path.basename(path), os.path.abspath(path), os.path.getsize(path), digest.hexdigest())


def list_sheets(path) -> list[str]:
    """The sheet names of an Excel workbook, in workbook order."""
    from dpdesk.project.reading import excel, formats

    path = os.fsdecode(os.fspath(path))

    def names() -> list[str]:
        if not os.path.isfile(path):
            raise DataError(f"{os.path.basename(path)}: no such file ({path}). Check the path.")
        fmt = formats.detect_format(path)
        if fmt != "xlsx":
            raise DataError(f"{os.path.basename(path)}: this is a {fmt.upper()} file, which has no "
                            f"sheets. Only .xlsx workbooks have sheets; import the file directly.")
        return excel.sheet_names(path)

    return _guarded(path, names)


def read_table(path, **overrides) -> Table:
    """Read a CSV/TSV, .xlsx, .sav, .por, .dta or .xpt file into a :class:`Table`.

    Overrides (all optional): ``encoding``, ``delimiter``, ``decimal``, ``header_rows``,
    ``sheet`` (name or 0-based index), ``platform`` (``"qualtrics"``, ``"surveymonkey"``,
    ``"limesurvey"``, ``"redcap"``, ``"none"``), ``kind`` (``"responses"`` or
    ``"counts"``), ``keep_identifiers`` (``True`` or a list of column names),
    ``format`` (``"csv"``, ``"xlsx"``, ``"sav"``, ``"dta"``, ``"por"``, ``"xpt"``) and ``progress``
    (``callback(fraction)``; returning ``False`` or raising cancels).
    """
    try:
        path = os.fsdecode(os.fspath(path))
    except TypeError:
        raise DataError(f"read_table needs the path of a file, not {type(path).__name__} "
                        f"{str(path)[:60]!r}. Pass the file's name as text.") from None
    overrides = {_ALIASES.get(k, k): v for k, v in overrides.items()}
    return _guarded(path, lambda: _read(path, overrides))


_ALIASES = {"sep": "delimiter", "sheet_name": "sheet", "decimal_mark": "decimal",
            "kind_of_table": "kind", "keep_identifier_columns": "keep_identifiers"}
_KNOWN = {"encoding", "delimiter", "decimal", "header_rows", "sheet", "platform", "kind",
          "keep_identifiers", "progress", "format"}


def _read(path: str, overrides: dict) -> Table:
    from dpdesk.project.reading import formats, shape

    unknown = sorted(set(overrides) - _KNOWN)
    if unknown:
        raise DataError(f"read_table got unknown option(s) {', '.join(unknown)}. "
                        f"Use only: {', '.join(sorted(_KNOWN))}.")
    name = os.path.basename(path)
    if overrides.get("kind") not in (None, "responses", "counts"):
        raise DataError(f"{name}: {overrides['kind']!r} is not a kind of file dpdesk reads. Say whether it has "
                        f"one row per respondent or is a counts table: {choose('kind', 'counts')}.")
    if not os.path.exists(path):
        raise DataError(f"{name}: no such file ({path}). Check the path and try again.")
    if os.path.isdir(path):
        raise DataError(f"{name}: is a folder, not a data file. Choose a .csv, .xlsx, .sav or .dta file.")
    progress = _Progress(overrides.get("progress"))
    progress(0.0)
    size = os.path.getsize(path)
    if size == 0:
        raise DataError(f"{name}: the file is empty (0 bytes). Export the data again and check that "
                        f"the export finished.")
    fmt = formats.detect_format(path, overrides.get("format"))
    report = ImportReport(format=fmt)
    mismatch = formats.extension_warning(path, fmt)
    if mismatch:
        report.warnings.append(mismatch)
    if fmt == "csv":
        from dpdesk.project.reading import delimited

        frame, sha256 = delimited.read_text(path, report, overrides, progress)
        source = Source(name, os.path.abspath(path), size, sha256)
    elif fmt == "xlsx":
        from dpdesk.project.reading import excel

        frame = excel.read_workbook(path, report, overrides, progress)
    else:
        from dpdesk.project.reading import spss

        frame = spss.read_stat_file(path, fmt, report, progress)
    if fmt != "csv":
        source = file_source(path)
    frame = shape.finish(frame, report, overrides, name, progress)
    progress(1.0)
    return Table(frame=frame, report=report, source=source)


class _Progress:
    """Calls the user's callback; a ``False`` return value cancels with :class:`Cancelled`."""

    def __init__(self, callback: ProgressCallback | None):
        self.callback = callback
        self.last = -1.0

    def __call__(self, fraction: float) -> None:
        if self.callback is None:
            return
        fraction = min(1.0, max(0.0, float(fraction)))
        if fraction < self.last:
            fraction = self.last
        self.last = fraction
        try:
            answer = self.callback(fraction)
        except Exception as exc:
            exc._dpdesk_from_callback = True  # re-raised unchanged by _guarded
            raise
        if answer is False:
            raise Cancelled("Import cancelled; nothing was imported.")


def _guarded(path: str, work: Callable[[], Any]):
    """Run ``work``; any exception that is not ours becomes a :class:`DataError`."""
    name = os.path.basename(path)
    try:
        return work()
    except DataError as exc:
        if name in str(exc) or isinstance(exc, Cancelled):
            raise
        raise DataError(f"{name}: {exc}") from exc
    except SyntaxError as exc:
        from dpdesk.project.reading.excel import is_xml_error

        if not is_xml_error(exc):  # a real SyntaxError is a bug in dpdesk: let it show
            raise
        if fmt_is_xlsx(path):
            from dpdesk.project.reading import excel

            raise excel.malformed_xml(path, exc) from None
        raise DataError(f"{name}: malformed XML inside the file ({_short(exc)}). Save it again from "
                        f"its program, or export the data as CSV.") from None
    except (DpdeskError, KeyboardInterrupt, SystemExit, GeneratorExit, ImportError):
        raise
    except MemoryError:
        raise DataError(f"{name}: the file needs more memory than this computer has. Split it, "
                        f"or aggregate it to a counts table elsewhere (see the import guide).") from None
    except RecursionError:
        raise DataError(f"{name}: the file is nested too deeply to read. Re-export it as CSV.") from None
    except Exception as exc:  # noqa: BLE001 - the contract: only DataError for input files
        if getattr(exc, "_dpdesk_from_callback", False):
            raise
        if fmt_is_xlsx(path):
            from dpdesk.project.reading import excel

            damaged = excel.damaged_zip(path, exc)
            if damaged is not None:
                raise damaged from exc
        raise DataError(f"{name}: could not be read ({type(exc).__name__}: {_short(exc)}). "
                        f"Check that it is a CSV, .xlsx, .sav or .dta file, or re-export it "
                        f"as UTF-8 CSV.") from exc


def fmt_is_xlsx(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def _short(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."
