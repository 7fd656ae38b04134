"""Writing a shareable extract (CSV, xlsx, SPSS .sav) with its disclosure report.

The report says what was checked (quasi-identifiers, sensitive columns, thresholds),
the risk before and after every step, what was done and what it cost, which columns
were left out or pseudonymised, and the cautions that go with pseudonyms. It never
holds a key. An xlsx file gets the report as a second sheet; a CSV or .sav file gets it
as a text file beside it (``NAME.disclosure-report.txt``). CSV and xlsx go through the
writer of every table leaving dpdesk (:mod:`dpdesk.project.export.tables`): text values and
column names are neutralised for spreadsheets, any field with CR, LF, a comma or a quote is
quoted, and numbers are never altered. The text report neutralises each entry too and
shows line breaks and tabs inside an entry as ``\r``, ``\n``, ``\t``, one entry per line.
A .sav file keeps its values and labels exactly (SPSS does not run cell text). Every file
is written atomically.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path

import pandas as pd

from dpdesk import __version__
from dpdesk.project.export import tables
from dpdesk.project.export.model import ExportError, atomic_write, normalise_table
from dpdesk.project.export.safe_text import neutralise
from dpdesk.project.sharing import pseudonymize as pz
from dpdesk.project.sharing.extract import Extract

FORMATS = (".csv", ".xlsx", ".sav")
XLSX_MAX_ROWS = tables.XLSX_MAX_ROWS
REPORT_COLUMNS = ("what", "detail")
CAUTIONS = (
    "Pseudonyms keep the format of the value (its length and alphabet): a reader learns, for example, "
    "that a student number had 8 digits.",
    "Equal values get equal pseudonyms, so counts of repeated values and links between tables survive; "
    "anyone holding a list of clear values and their pseudonyms from elsewhere can link them.",
    "Only the chosen columns are encrypted: timestamps, free text and other metadata can identify a "
    "person by themselves. Check them before sharing.",
    "Whoever holds the key can turn the pseudonyms back into the values. Keep the key file apart from "
    "the data and never share it.",
)

FF1_REFERENCE = ("Dworkin, M. (2016). Recommendation for block cipher modes of operation: Methods for format-preserving "
                 "encryption (NIST Special Publication 800-38G). National Institute of Standards and Technology. "
                 "https://doi.org/10.6028/NIST.SP.800-38G")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _risk_line(result, loss) -> str:
    k = result.k
    line = (f"k = {k.smallest} (threshold {k.k}); records failing a check {int(result.at_risk.sum())} "
            f"({_pct(result.at_risk.mean() if k.n_records else 0)}); highest risk {_pct(k.highest_risk)}, "
            f"average {_pct(k.average_risk)}")
    if loss is not None:
        line += (f"; cells changed {_pct(loss.share_cells_changed)}, records suppressed "
                 f"{_pct(loss.share_records_suppressed)}, entropy lost {_pct(loss.entropy_loss)}")
    return line


def report_rows(extract: Extract, *, source: str | None = None, dataset: str | None = None,
                at_import: list[dict] | None = None) -> list[tuple[str, str]]:
    """The disclosure report as (heading, text) rows; ``at_import``: the import's ``excluded_columns``."""
    opts = extract.options
    rows: list[tuple[str, str]] = [
        ("Disclosure report", f"written by dpdesk {__version__} on "
                              f"{_dt.datetime.now(_dt.timezone.utc).isoformat(timespec='seconds')}"),
    ]
    if source:
        rows.append(("source", source + (f" (dataset {dataset})" if dataset else "")))
    rows += [
        ("quasi-identifiers", ", ".join(opts.quasi)),
        ("sensitive columns", ", ".join(opts.sensitive) or "none"),
        ("thresholds", f"k = {opts.k}" + (f", {'entropy' if opts.entropy_l else 'distinct'} l = {opts.l}"
                                          if opts.l and opts.sensitive else "")
         + (f", t = {opts.t:g} (earth mover's distance)" if opts.t is not None and opts.sensitive else "")),
        ("risk model", "prosecutor: the attacker knows the person is in the file; risk = 1 / class size"),
    ]
    for column in opts.skipped_sensitive():
        rows.append(("not checked", f"{column}: randomized-response answers, protected at the source"))
    for excluded in at_import or []:
        rows.append(("left out at import", f"{excluded.get('column')}: {excluded.get('reason', '')}"))
    if extract.left_out():
        rows.append(("left out (direct identifiers)", ", ".join(extract.left_out())))
    contexts = {s.column: s.context for s in extract.steps if s.action == "pseudonymise"}
    for column, alphabet in extract.pseudonymised.items():
        rows.append(("pseudonymised", f"{column}: {pseudonym_method(alphabet, contexts.get(column))}; the key is "
                                      "not in this file or the project"))
    for column, counts in extract.declared_missing.items():
        labels = extract.declared_labels.get(column, {})
        shown = ", ".join(code + (f" = {labels[code]}" if labels.get(code, code) != code else "") + f" ({n})"
                          for code, n in counts.items())
        kind = "Stata missing" if all(code.startswith(".") for code in counts) else "user-missing"
        rows.append(("missing values", f"{column}: {sum(counts.values())} {kind} value(s) written as "
                                       f"blanks: {shown}"))
    for column, blank_rows in extract.blanked.items():
        rows.append(("left blank", f"{column}: {len(blank_rows)} value(s) that did not fit the format, rows "
                                   f"{', '.join(map(str, blank_rows[:20]))}{' ...' if len(blank_rows) > 20 else ''}"))
    for i, (step, result, loss) in enumerate(extract.history):
        label = "before any change" if step is None else f"step {i}: {step.description}"
        rows.append((label, _risk_line(result, loss if step is not None else None)))
    rows.append(("result", "every record passes the checks" if extract.result.passes else
                 "some records still fail a check: apply more remedies before sharing"))
    for measure, value in extract.result.summary():
        rows.append((measure, value))
    for warning in extract.result.warnings:
        rows.append(("warning", warning))
    if extract.pseudonymised:
        rows.append(("methods text", pseudonym_methods_text(list(extract.pseudonymised))))
        rows.append(("reference", FF1_REFERENCE))
        rows += [("caution", text) for text in CAUTIONS]
    return rows


def pseudonym_method(alphabet: str, context: str | None = None) -> str:
    """How the pseudonyms of one column were made, for the report (the key's holder decrypts with it)."""
    from dpdesk.project.sharing.fpe import ALPHABETS

    context = pz.DEFAULT_CONTEXT if context is None else context
    return (f"{pz.METHOD} format-preserving encryption (NIST SP 800-38G) with AES over the alphabet {alphabet} "
            f"({ALPHABETS.get(alphabet, alphabet)}), context {context!r} (the tweak: its UTF-8 bytes); to decrypt: "
            f"dpdesk.project.sharing.pseudonymize.reveal(..., alphabet={alphabet!r}, context={context!r}, "
            f"method={pz.METHOD!r}) with the key")


def pseudonym_methods_text(columns: list[str]) -> str:
    """A sentence for a paper's methods section on the pseudonymised columns (cites the standard)."""
    named = ", ".join(columns)
    return (f"Before sharing, the direct identifier{'s' if len(columns) > 1 else ''} {named} "
            f"{'were' if len(columns) > 1 else 'was'} replaced by pseudonyms made with {pz.METHOD} format-preserving "
            f"encryption (NIST SP 800-38G; Dworkin, 2016) under a secret AES key held by the research team, "
            f"so that equal values keep equal pseudonyms and the data can be linked only with the key.")


def _report_cell(text) -> str:
    """One report entry on one line: neutralised, with line breaks and tabs shown as escapes."""
    text = neutralise(str(text))
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def report_text(rows: list[tuple[str, str]]) -> str:
    """The report as text, one ``heading  detail`` line per entry (see the module docstring)."""
    cells = [(_report_cell(h), _report_cell(v)) for h, v in rows]
    width = min(42, max(len(h) for h, _ in cells))
    return "\n".join(f"{h:<{width}}  {v}" for h, v in cells) + "\n"


def _labels(extract: Extract, frame: pd.DataFrame) -> tuple[dict, dict]:
    """Variable and value labels of the columns whose values were not recoded."""
    recoded = {s.column for s in extract.steps if s.action in ("generalise", "pseudonymise")}
    variable = {c: str(v) for c, v in extract.variable_labels.items() if c in frame.columns}
    value = {c: v for c, v in extract.value_labels.items() if c in frame.columns and c not in recoded}
    return variable, value


def _rows(frame: pd.DataFrame) -> tuple[list[str], list[list]]:
    """Column names and plain cell values, dates and booleans as pandas writes them
    (``2024-01-05`` at midnight, ``True``/``False``), not as the results' ``yes``/``no``."""
    out = frame
    as_text = [c for c in frame.columns if pd.api.types.is_datetime64_any_dtype(frame[c].dtype)
               or pd.api.types.is_bool_dtype(frame[c].dtype)]
    if as_text:
        out = frame.copy()
        for column in as_text:
            series = frame[column]
            text = series.astype(object).map(str) if pd.api.types.is_bool_dtype(series.dtype) else series.astype(str)
            out[column] = text.astype(object).where(series.notna(), None)
    return normalise_table(out)


def export_extract(extract: Extract, path, *, source: str | None = None, dataset: str | None = None,
                   at_import: list[dict] | None = None) -> list[Path]:
    """Write the shared frame to ``path`` (.csv, .xlsx or .sav) and its report; returns the files."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise ExportError(f"Cannot write {path.name}: choose a name ending in .csv, .xlsx or .sav.")
    frame = extract.shared_frame()
    rows = report_rows(extract, source=source, dataset=dataset, at_import=at_import)
    if suffix == ".xlsx":
        if len(frame) > XLSX_MAX_ROWS:
            raise ExportError(f"The extract has {len(frame)} rows, more than an Excel sheet holds "
                              f"({XLSX_MAX_ROWS}). Write .csv or .sav instead.")
        return [atomic_write(path, lambda tmp: _write_xlsx(frame, rows, tmp))]
    report = path.with_name(path.stem + ".disclosure-report.txt")
    if suffix == ".csv":
        columns, values = _rows(frame)
        written = tables.write_csv(path, columns, values)
    else:
        written = atomic_write(path, lambda tmp: _write_sav(extract, frame, tmp))
    text = report_text(rows)
    return [written, atomic_write(report, lambda tmp: tmp.write_text(text, encoding="utf-8"))]


def _write_xlsx(frame: pd.DataFrame, rows, target: Path) -> None:
    workbook = tables.open_workbook(target)
    try:
        writer = tables.SheetWriter(workbook)
        columns, values = _rows(frame)
        writer.table(workbook.add_worksheet("Data"), columns, values)
        writer.table(workbook.add_worksheet("Disclosure report"), REPORT_COLUMNS, [list(r) for r in rows],
                     widths=(40, 110))
    finally:
        workbook.close()


def _write_sav(extract: Extract, frame: pd.DataFrame, target: Path) -> None:
    import pyreadstat

    variable, value = _labels(extract, frame)
    out = frame.copy()
    for column in out.columns:  # categories (bands, merged) are written as their labels
        if isinstance(out[column].dtype, pd.CategoricalDtype):
            out[column] = out[column].astype(object).where(out[column].notna(), None)
    labels = [variable.get(str(c)) for c in out.columns]
    try:
        pyreadstat.write_sav(out, str(target), column_labels=labels if any(labels) else None,
                             variable_value_labels={c: {_code(k): str(v) for k, v in m.items()} for c, m in value.items()
                                                    if pd.api.types.is_numeric_dtype(out[c].dtype)} or None)
    except (pyreadstat.ReadstatError, _pyreadstat_error(pyreadstat), ValueError, TypeError) as exc:
        raise ExportError(f"Cannot write the SPSS file {target.name}: {exc}. Write .csv or .xlsx instead, "
                          "or rename columns SPSS does not accept.") from exc


def _pyreadstat_error(pyreadstat):
    """``PyreadstatError``: at the top of the package from pyreadstat 1.3.1, in its parser module before."""
    own = getattr(pyreadstat, "PyreadstatError", None)
    if own is None:
        from pyreadstat._readstat_parser import PyreadstatError as own
    return own


def _code(key):
    """A value-label key as a number (JSON keeps them as text: "1" -> 1)."""
    try:
        number = float(key)
    except (TypeError, ValueError):
        return key
    return int(number) if number.is_integer() else number
