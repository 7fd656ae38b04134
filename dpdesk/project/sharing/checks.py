"""Before sharing row-level data: column roles and the disclosure checks on a data frame.

The researcher marks each column as a *direct identifier* (names or locates a person by
itself: left out of a shared file, or pseudonymised), a *quasi-identifier* (known to
outsiders and identifying in combination: age, sex, region, dates, occupation),
*sensitive* (what must not be learnt about a person) or *other*. :func:`default_roles`
proposes roles from the import's identifier detection and the column types;
:func:`check` codes the columns and runs the checks of
:mod:`dpdesk.mechanisms.disclosure` (k-anonymity, prosecutor risk, l-diversity,
t-closeness). Randomized-response columns are protected at the source (each answer is
already randomized) and are left out of the sensitive-column checks unless
``include_protected`` asks for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from dpdesk.errors import DataError
from dpdesk.mechanisms import disclosure as dc
from dpdesk.project.reading import identifiers

IDENTIFIER, QUASI, SENSITIVE, OTHER = "identifier", "quasi-identifier", "sensitive", "other"
ROLES = (IDENTIFIER, QUASI, SENSITIVE, OTHER)

_QUASI_NAMES = {
    "age", "ageyears", "agegroup", "sex", "gender", "birthyear", "yearofbirth", "dob", "dateofbirth", "birthdate",
    "zip", "zipcode", "postcode", "postalcode", "plz", "region", "county", "state", "province", "city", "town",
    "municipality", "district", "country", "countryofbirth", "nationality", "ethnicity", "race", "education",
    "occupation", "job", "profession", "employment", "employer", "maritalstatus", "marital", "religion",
    "income", "householdsize", "children", "school", "classroom", "grade", "department", "faculty", "height",
    "weight",
}
#: a quasi-identifier with more distinct values than this share of the records identifies nearly everyone
NEARLY_UNIQUE = 0.5


@dataclass
class ColumnRole:
    """A column's proposed or chosen role, with the reason in words."""

    column: str
    role: str
    reason: str = ""
    protected: bool = False  # a randomized-response column: protected at the source


def _key(text) -> str:
    return re.sub(r"[^0-9a-z]", "", str(text).lower())


def rr_columns(project) -> list[str]:
    """The data columns of the project's randomized-response items."""
    return [it.column for it in project.items() if getattr(it, "column", None)]


def default_roles(frame: pd.DataFrame, report=None, protected=()) -> dict[str, ColumnRole]:
    """Proposed roles: identifiers by name and content (as at import), randomized-response
    columns sensitive and protected, demographics and dates quasi-identifiers, the rest other.

    ``report`` (an ``ImportReport``) gives question texts; columns it already left out as
    identifiers are not in the frame and need no role.
    """
    labels = getattr(report, "variable_labels", {}) or {}
    protected = {str(c) for c in protected}
    roles: dict[str, ColumnRole] = {}
    n = len(frame)
    for column in frame.columns:
        name = str(column)
        series = frame[column]
        kind = identifiers.by_name(name, labels.get(name))
        if name in protected:
            roles[name] = ColumnRole(name, SENSITIVE, "randomized-response answers (protected at the source)", True)
            continue
        if kind:
            roles[name] = ColumnRole(name, IDENTIFIER, f"{kind} (by column name)")
            continue
        kind, share = identifiers.by_content(series)
        if kind and share >= 0.5:
            roles[name] = ColumnRole(name, IDENTIFIER, f"{kind} (by content: {share:.0%} of values)")
            continue
        key = _key(name)
        if pd.api.types.is_datetime64_any_dtype(series.dtype):
            roles[name] = ColumnRole(name, QUASI, "a date (dates identify in combination)")
            continue
        if identifiers.is_time_stamp_name(name) or _looks_like_times(series):
            roles[name] = ColumnRole(name, QUASI, "a time stamp (when someone answered identifies in combination)")
            continue
        twin = _direct_twin(key, protected)
        if twin:
            roles[name] = ColumnRole(name, SENSITIVE, f"the same question as {twin!r}, asked directly (not protected)")
            continue
        if key in _QUASI_NAMES or any(key.startswith(s) for s in ("birth", "zip", "postcode", "dob")):
            roles[name] = ColumnRole(name, QUASI, "a demographic or place (by column name)")
            continue
        if n >= 20 and not pd.api.types.is_float_dtype(series.dtype):
            distinct = series.nunique(dropna=True)
            if distinct >= 0.95 * n:
                roles[name] = ColumnRole(name, IDENTIFIER, f"a record key ({distinct} distinct values in {n} rows)")
                continue
        roles[name] = ColumnRole(name, OTHER, "")
    return roles


def _looks_like_times(series: pd.Series) -> bool:
    """Most of a sample of text values parse as dates or date-times (e.g. "2024-03-01 10:22:05")."""
    if not (pd.api.types.is_object_dtype(series.dtype) or pd.api.types.is_string_dtype(series.dtype)):
        return False
    sample = series.dropna().astype(str).head(50)
    sample = sample[sample.str.len() >= 8]
    if len(sample) < 3 or not sample.str.contains(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}", regex=True).all():
        return False
    parsed = pd.to_datetime(sample, errors="coerce", format="mixed")
    return bool(parsed.notna().mean() >= 0.8)


def _direct_twin(key: str, protected) -> str | None:
    """The randomized-response column this one asks directly ("cheat_direct" for "cheat")."""
    if "direct" not in key:
        return None
    stem = key.replace("direct", "")
    for column in protected:
        other = _key(column)
        if stem and other and (stem.startswith(other) or other.startswith(stem) or stem[:4] == other[:4]):
            return str(column)
    return None


@dataclass
class ShareOptions:
    """What to check: quasi-identifiers, sensitive columns and the thresholds k, l, t.

    ``ordered`` maps a sensitive column to True (ordered distance) or False (equal
    distance) for t-closeness; by default numeric and ordered-categorical columns are
    ordered. ``protected`` columns (randomized response) are skipped in the sensitive
    checks unless ``include_protected``.
    """

    quasi: list[str]
    sensitive: list[str] = field(default_factory=list)
    k: int = 5
    l: int | None = 2
    entropy_l: bool = False
    t: float | None = None
    ordered: dict[str, bool] = field(default_factory=dict)
    protected: list[str] = field(default_factory=list)
    include_protected: bool = False

    def checked_sensitive(self) -> list[str]:
        return [c for c in self.sensitive if self.include_protected or c not in self.protected]

    def skipped_sensitive(self) -> list[str]:
        return [c for c in self.sensitive if c not in self.checked_sensitive()]

    def to_dict(self) -> dict:
        return {"quasi-identifiers": list(self.quasi), "sensitive": list(self.sensitive), "k": self.k,
                "l": self.l, "l measure": "entropy" if self.entropy_l else "distinct", "t": self.t,
                "randomized-response columns checked": bool(self.include_protected)}


def codes_of(series: pd.Series, *, ordered: bool = False) -> np.ndarray:
    """Integer codes of a column (missing: -1); with ``ordered`` the codes are the values' ranks."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy(dtype=np.int64)
        if ordered and not series.cat.ordered:  # rank the categories by their own order (sorted when numeric)
            try:
                order = np.argsort(np.argsort(np.asarray(series.cat.categories), kind="stable"))
                codes = np.where(codes >= 0, order[np.maximum(codes, 0)], -1)
            except TypeError:
                pass
        return codes
    codes, _ = pd.factorize(series, sort=ordered, use_na_sentinel=True)
    return codes.astype(np.int64, copy=False)


def is_ordered(series: pd.Series) -> bool:
    """Numeric, date and ordered-categorical columns take the ordered distance."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        return bool(series.cat.ordered)
    return bool(pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(series.dtype)
                or pd.api.types.is_datetime64_any_dtype(series.dtype))


@dataclass
class SensitiveCheck:
    """l-diversity and t-closeness of one sensitive column."""

    column: str
    l: dc.LDiversity | None
    t: dc.TCloseness | None


@dataclass
class DisclosureCheck:
    """The result of :func:`check`: k-anonymity and risk, and the sensitive-column checks."""

    options: ShareOptions
    classes: dc.Classes
    k: dc.KAnonymity
    sensitive: list[SensitiveCheck]
    skipped: list[str]
    warnings: list[str]

    @property
    def at_risk(self) -> np.ndarray:
        """Records failing any check: a class below k, below l, or farther than t."""
        mask = self.k.at_risk.copy()
        for s in self.sensitive:
            for part in (s.l, s.t):
                if part is not None:
                    mask |= part.at_risk
        return mask

    @property
    def passes(self) -> bool:
        return not self.at_risk.any()

    def summary(self) -> list[tuple[str, str]]:
        """The risk summary as (measure, value in words) pairs."""
        k = self.k
        rows = [("records", f"{k.n_records}"), ("equivalence classes", f"{k.n_classes}"),
                ("smallest class (k achieved)", f"{k.smallest} (threshold {k.k})"),
                ("records in classes below k", f"{k.n_at_risk} ({_pct(k.share_at_risk)})"),
                ("records unique on the quasi-identifiers", f"{k.n_unique}"),
                ("highest prosecutor risk", _pct(k.highest_risk)),
                ("average prosecutor risk", _pct(k.average_risk))]
        for s in self.sensitive:
            if s.l is not None:
                rows.append((f"{s.column}: smallest distinct l / entropy l",
                             f"{s.l.smallest_distinct} / {s.l.smallest_entropy_l:.2f} (threshold {s.l.l}); "
                             f"{s.l.n_at_risk} records below"))
            if s.t is not None and s.t.distance.size:
                kind = "ordered" if s.t.ordered else "equal"
                limit = f" (threshold {s.t.t:g}); {s.t.n_at_risk} records above" if s.t.t is not None else ""
                rows.append((f"{s.column}: largest t (EMD, {kind} distance)", f"{s.t.largest:.3f}{limit}"))
        for c in self.skipped:
            rows.append((f"{c}: not checked", "randomized-response answers, protected at the source"))
        rows.append(("records failing a check", f"{int(self.at_risk.sum())} ({_pct(self.at_risk.mean() if k.n_records else 0)})"))
        return rows


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%" if x >= 0.001 or x == 0 else f"{100 * x:.3f}%"


def _check_columns(frame: pd.DataFrame, names, what: str) -> None:
    missing = [c for c in names if c not in frame.columns]
    if missing:
        raise DataError(f"The data has no {what} column {', '.join(map(repr, missing))}. Its columns are: "
                        f"{', '.join(map(str, list(frame.columns)[:30]))}.")


def check(frame: pd.DataFrame, options: ShareOptions, *, require_quasi: bool = True) -> DisclosureCheck:
    """Run every check of ``options`` on ``frame`` (see the module docstring).

    With ``require_quasi=False`` and no quasi-identifiers every record is in one class
    (after every quasi-identifier was dropped, nothing singles anyone out).
    """
    if frame.shape[0] == 0:
        raise DataError("The data has no records, so there is nothing to check or share. Import a file with data.")
    if not options.quasi and require_quasi:
        from dpdesk.errors import in_app

        head = ("No quasi-identifiers are marked. Mark the columns an outsider could know about a person "
                "(age, sex, region, dates, occupation) as quasi-identifiers")
        raise in_app(DataError(head + " (--quasi)."), head + " in the role column, then press Check.")
    _check_columns(frame, options.quasi, "quasi-identifier")
    _check_columns(frame, options.sensitive, "sensitive")
    both = sorted(set(options.quasi) & set(options.sensitive))
    if both:
        raise DataError(f"{', '.join(both)} is marked both quasi-identifier and sensitive; give each column one role.")
    n = len(frame)
    warnings = []
    codes = []
    for column in options.quasi:
        c = codes_of(frame[column])
        distinct = int(c.max()) + 1 if c.size else 0
        if n >= 100 and distinct > NEARLY_UNIQUE * n:
            warnings.append(f"Quasi-identifier {column!r} has {distinct} distinct values in {n} records, nearly one "
                            f"per record, so it identifies almost everyone by itself. Generalise it (bands, month "
                            f"or year, merging rare categories) or treat it as a direct identifier.")
        codes.append(c)
    classes = dc.equivalence_classes(codes or [np.zeros(n, dtype=np.int64)])
    kres = dc.k_anonymity(classes, options.k)
    checks = []
    for column in options.checked_sensitive():
        series = frame[column]
        ordered = options.ordered.get(column, is_ordered(series))
        s = codes_of(series, ordered=ordered)
        ldiv = dc.l_diversity(classes, s, options.l, entropy=options.entropy_l) if options.l else None
        tclo = dc.t_closeness(classes, s, ordered=ordered, t=options.t)
        checks.append(SensitiveCheck(column, ldiv, tclo))
    return DisclosureCheck(options, classes, kres, checks, options.skipped_sensitive(), warnings)
