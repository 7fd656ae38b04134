"""Which columns a release form may propose first: never a time stamp or an identifier.

A release of a respondent ID or of a time stamp is rarely what a researcher wants and can
spend budget on a column that identifies people, so the form's default choice skips them
(the researcher can still pick any column). Uses only the stored column names and dtypes
(no data read): identifiers by name (:func:`dpdesk.project.reading.identifiers.by_name`),
time stamps by dtype or by name (StartDate, EndDate, RecordedDate, ...).
"""

from __future__ import annotations

from dpdesk.project.reading import identifiers

__all__ = ["avoided_columns", "default_column"]

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
