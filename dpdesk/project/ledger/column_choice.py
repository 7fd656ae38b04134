"""Which columns a release form may propose first: never a time stamp or an identifier.

A release of a respondent ID or of a time stamp is rarely what a researcher wants and can
spend budget on a column that identifies people, so the form's default choice skips them
(the researcher can still pick any column). Uses only the stored column names and dtypes
(no data read): identifiers by name (:func:`dpdesk.project.reading.identifiers.by_name`),
time stamps by dtype or by name (StartDate, EndDate, RecordedDate, ...).
"""

from __future__ import annotations

from dpdesk.project.reading import identifiers

__all__ = ["avoided_columns", "declared_bounds", "default_column", "numeric_columns"]

_ID_WORDS = ("id", "uuid", "guid", "respondent", "token", "responseid", "caseid", "serial")


def _is_avoided(name: str, dtype: str) -> bool:
    key = identifiers._key(name)
    if identifiers.by_name(name):
        return True
    if "datetime" in str(dtype) or identifiers.is_time_stamp_name(name):
        return True
    return key in _ID_WORDS or key.endswith("id") and len(key) <= 12


def avoided_columns(dataset) -> set[str]:
    """Names of ``dataset``'s columns (a ``Dataset`` with ``columns`` and ``dtypes``) not to propose."""
    dtypes = getattr(dataset, "dtypes", {}) or {}
    return {c for c in dataset.columns if _is_avoided(str(c), str(dtypes.get(c, "")))}


def _is_numeric(dtype: str) -> bool:
    return any(k in dtype.lower() for k in ("int", "float"))


def numeric_columns(dataset) -> list[str]:
    """The columns a sum, mean or median can use: stored as numbers (not text, not time stamps)."""
    dtypes = getattr(dataset, "dtypes", {}) or {}
    return [c for c in dataset.columns if _is_numeric(str(dtypes.get(c, ""))) and "datetime" not in str(dtypes.get(c))]


def declared_bounds(dataset) -> dict[str, tuple]:
    """Public bounds the file itself declares: ``{column: (lowest, highest)}`` labelled code.

    An SPSS or Stata variable with value labels (1 = Never ... 5 = Always) declares its
    range in its metadata, so these bounds do not depend on who answered; user-missing codes
    (99 = refused) are left out. The data themselves are never read (their range would leak).
    """
    from dpdesk.project.reading.codes import numeric_codes

    report = dataset.report if isinstance(getattr(dataset, "report", None), dict) else {}
    missing = report.get("missing_values") or {}
    out = {}
    for column in numeric_columns(dataset):
        codes = numeric_codes((report.get("value_labels") or {}).get(column) or {})
        skip = set(numeric_codes({m: "" for m in missing.get(column) or [] if not isinstance(m, dict)}))
        spans = [m for m in missing.get(column) or [] if isinstance(m, dict)]
        values = [c for c in codes if isinstance(c, (int, float)) and not isinstance(c, bool) and c not in skip
                  and not any(_in_span(c, s) for s in spans)]
        if len(values) >= 2:
            out[column] = (min(values), max(values))
    return out


def _in_span(value, span: dict) -> bool:
    try:
        return float(span.get("from")) <= value <= float(span.get("to"))
    except (TypeError, ValueError):
        return False


def default_column(dataset, numeric: bool = False) -> str | None:
    """The first column fit to propose (a numeric one for sums, means and medians)."""
    dtypes = getattr(dataset, "dtypes", {}) or {}
    avoid = avoided_columns(dataset)
    for c in dataset.columns:
        kind = str(dtypes.get(c, ""))
        if c in avoid:
            continue
        if numeric == any(k in kind for k in ("int", "float")):
            return c
    return next((c for c in dataset.columns if c not in avoid), None)
