"""A shareable extract: remedies applied step by step to a copy, checks rerun after each.

:class:`Extract` holds a copy of the data; the stored dataset is never touched. Each
remedy -- generalise a quasi-identifier, suppress cells or records, drop a column,
pseudonymise an identifier -- makes a new frame, reruns :func:`sharing.check` and
records the information lost (``dpdesk.mechanisms.disclosure.loss``) beside the risk;
:meth:`Extract.undo` goes back one step. Direct identifiers are left out of the
extract unless pseudonymised. Declared missing codes -- SPSS user-missing values (98
refused, 99 don't know: the import's ``missing_values``) and Stata's extended missing values
(``.a``-``.z``) -- are missing from the start: blanks in the extract and in the checks,
counted in the report by code and label.

Generalisation rules (``COLUMN=RULE`` on the command line):

=================  ==========================================================
``bands:10``       numeric values in bands of width 10 (30-39, 40-49, ...)
``bands:18,30,65`` bands between the given edges (< 18, 18-29, 30-64, 65+)
``top:90``         values above 90 shown as 90 (top-coding)
``bottom:16``      values below 16 shown as 16 (bottom-coding)
``month``/``year`` dates cut to the month or the year
``rare:10``        categories with fewer than 10 records merged into "Other"
``prefix:3``       text cut to its first 3 characters (postcodes)
=================  ==========================================================
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from dpdesk.errors import DataError
from dpdesk.mechanisms import disclosure as dc
from dpdesk.project.mapping.code_matching import _is_missing_code, _key, _missing_keys
from dpdesk.project.reading.stata import tag_of, tags_as_missing
from dpdesk.project.sharing import pseudonymize as pz
from dpdesk.project.sharing.checks import (
    DisclosureCheck,
    ShareOptions,
    _check_columns,
    check,
    codes_of,
)

OTHER_LABEL = "Other"


@dataclass
class Step:
    """One remedy as the report shows it: what was done, to which column, with what result."""

    action: str
    column: str | None
    detail: str
    description: str
    changed: int = 0
    context: str | None = None  # pseudonyms: the context (FF1's tweak), public like the method, needed to decrypt


@dataclass
class _State:
    frame: pd.DataFrame
    kept: np.ndarray  # which of the original records are still in
    changed: dict[str, np.ndarray]  # per column, over the original records: value altered
    quasi: list[str]
    sensitive: list[str]
    pseudonymised: dict[str, str]  # column -> alphabet
    blanked: dict[str, list]  # column -> rows left blank because they did not fit the format
    step: Step | None = None
    result: DisclosureCheck | None = None
    loss: dc.InformationLoss | None = None


def report_labels(report) -> dict:
    """The ``labels`` an :class:`Extract` takes, from an import report: question texts, value
    labels and the declared missing codes."""
    return {"variable_labels": report.variable_labels, "value_labels": report.value_labels,
            "missing_values": report.missing_values}


def _missing_as_blanks(frame: pd.DataFrame, declared: dict) -> tuple[pd.DataFrame, dict]:
    """The frame with Stata's ``.a``-``.z`` and the ``declared`` missing codes (``{column: [98, 99]}``,
    ranges as ``{"from", "to"}``) as blanks, and ``{column: {".a" or "98": count}}`` of them."""
    found = {}
    for column in frame.columns:
        series, counts = tags_as_missing(frame[column])
        if declared.get(column):
            series, codes = _codes_as_missing(series, _missing_keys(declared[column]))
            counts = {**counts, **codes}
        if counts:
            frame = frame.copy() if not found else frame
            frame[column] = series
            found[column] = counts
    return frame, found


def _codes_as_missing(series: pd.Series, missing) -> tuple[pd.Series, dict]:
    """``series`` with the values matching ``missing`` (see ``code_matching``) blanked, and their counts."""
    factor, uniques = pd.factorize(series, use_na_sentinel=True)
    hits = [i for i, value in enumerate(uniques) if _is_missing_code(_key(value), missing)]
    if not hits:
        return series, {}
    per_code = np.bincount(factor[factor >= 0], minlength=len(uniques))
    hits.sort(key=lambda i: (isinstance(_key(uniques[i]), str), _key(uniques[i])))
    counts = {_code_text(uniques[i]): int(per_code[i]) for i in hits}
    return series.mask(np.isin(factor, hits)), counts


def _is_declared(code, missing) -> bool:
    """Whether a value label's ``code`` is one of Stata's tags or a ``missing`` code (``_missing_keys``)."""
    return tag_of(code) is not None or _is_missing_code(_key(code), missing)


def _code_text(code) -> str:
    """A code as the report shows it: ``98`` (not ``98.0``), ``.a`` for Stata's tags."""
    tag = tag_of(code)
    if tag is not None:
        return tag
    key = _key(code)
    return str(int(key)) if isinstance(key, float) and key.is_integer() else str(code).strip()


def _number(text: str, rule: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise DataError(f"In the rule {rule!r}, {text!r} is not a number.") from None


class Extract:
    """A copy of ``frame`` to make safe; ``identifiers`` are left out unless pseudonymised."""

    def __init__(self, frame: pd.DataFrame, options: ShareOptions, *, identifiers=(), labels: dict | None = None):
        declared = dict((labels or {}).get("missing_values") or {})
        frame, self.declared_missing = _missing_as_blanks(frame, declared)
        _check_columns(frame, options.quasi, "quasi-identifier")
        _check_columns(frame, options.sensitive, "sensitive")
        identifiers = [c for c in identifiers if c in frame.columns]
        if frame.shape[1] and len(identifiers) == frame.shape[1]:
            raise DataError("Every column is marked a direct identifier, so the extract would be empty. Mark the "
                            "survey answers and demographics as quasi-identifiers, sensitive or other.")
        if not options.quasi:
            check(frame, options)  # says what is missing (no records, no quasi-identifiers)
        overlap = sorted(set(identifiers) & (set(options.quasi) | set(options.sensitive)))
        if overlap:
            raise DataError(f"{', '.join(overlap)} is marked a direct identifier and also quasi-identifier or "
                            "sensitive; give each column one role.")
        self.original = frame
        self.options = options
        self.identifiers = list(identifiers)
        value_labels = dict((labels or {}).get("value_labels") or {})
        missing = {c: _missing_keys(declared.get(c)) for c in value_labels}
        self.value_labels = {c: {k: v for k, v in m.items() if not _is_declared(k, missing[c])}
                             for c, m in value_labels.items()}
        self.declared_labels = {c: {_code_text(k): str(v) for k, v in value_labels.get(c, {}).items()
                                    if _is_declared(k, missing[c])} for c in self.declared_missing}
        self.variable_labels = dict((labels or {}).get("variable_labels") or {})
        n = len(frame)
        state = _State(frame.copy(), np.ones(n, dtype=bool), {}, list(options.quasi), list(options.sensitive),
                       {}, {})
        self._entropy_before = sum(dc.entropy_bits(codes_of(frame[c])) for c in options.quasi)
        self._history = [self._evaluate(state)]

    # ------------------------------------------------------------------ state
    @property
    def _now(self) -> _State:
        return self._history[-1]

    @property
    def frame(self) -> pd.DataFrame:
        """The extract as it stands (all columns, identifiers included)."""
        return self._now.frame

    @property
    def result(self) -> DisclosureCheck:
        return self._now.result

    @property
    def loss(self) -> dc.InformationLoss:
        return self._now.loss

    @property
    def steps(self) -> list[Step]:
        return [s.step for s in self._history[1:]]

    @property
    def history(self) -> list[tuple[Step | None, DisclosureCheck, dc.InformationLoss]]:
        """(step, check after it, loss after it) for the start and every step."""
        return [(s.step, s.result, s.loss) for s in self._history]

    @property
    def pseudonymised(self) -> dict[str, str]:
        return dict(self._now.pseudonymised)

    @property
    def blanked(self) -> dict[str, list]:
        return dict(self._now.blanked)

    def left_out(self) -> list[str]:
        """Identifier columns still in the frame and not pseudonymised: not exported."""
        return [c for c in self.identifiers if c in self.frame.columns and c not in self._now.pseudonymised]

    def shared_frame(self) -> pd.DataFrame:
        """What an export writes: the extract without unpseudonymised identifiers."""
        return self.frame.drop(columns=self.left_out())

    def current_options(self) -> ShareOptions:
        s = self._now
        return replace(self.options, quasi=list(s.quasi), sensitive=list(s.sensitive))

    def undo(self) -> Step:
        """Take back the last step; returns it."""
        if len(self._history) == 1:
            raise DataError("There is nothing to undo: no remedy has been applied yet.")
        return self._history.pop().step

    def _evaluate(self, state: _State) -> _State:
        frame = state.frame
        opts = replace(self.options, quasi=state.quasi, sensitive=state.sensitive)
        state.result = check(frame, opts, require_quasi=False)
        n0 = len(self.original)
        cells = sum(int(m[state.kept].sum()) for c, m in state.changed.items() if c in self.options.quasi)
        kept_quasi = [c for c in state.quasi if c in frame.columns]
        after = sum(dc.entropy_bits(codes_of(frame[c])) for c in kept_quasi)
        state.loss = dc.InformationLoss(cells, int(state.kept.sum()) * len(self.options.quasi), n0 - int(state.kept.sum()),
                                        n0, self._entropy_before, after)
        return state

    def _push(self, frame, step: Step, *, kept=None, changed=None, quasi=None, sensitive=None,
              pseudonymised=None, blanked=None) -> Step:
        s = self._now
        state = _State(frame, s.kept if kept is None else kept, changed if changed is not None else s.changed,
                       s.quasi if quasi is None else quasi, s.sensitive if sensitive is None else sensitive,
                       s.pseudonymised if pseudonymised is None else pseudonymised,
                       s.blanked if blanked is None else blanked, step)
        self._history.append(self._evaluate(state))
        return step

    def _mark(self, column: str, mask: np.ndarray) -> dict[str, np.ndarray]:
        s = self._now
        full = s.changed.get(column, np.zeros(len(self.original), dtype=bool)).copy()
        full[np.flatnonzero(s.kept)[mask]] = True
        return {**s.changed, column: full}

    def _column(self, column: str) -> pd.Series:
        if column not in self.frame.columns:
            raise DataError(f"The extract has no column {column!r}. Its columns are: "
                            f"{', '.join(map(str, self.frame.columns[:30]))}.")
        return self.frame[column]

    # ------------------------------------------------------------------ remedies
    def generalize(self, column: str, rule: str) -> Step:
        """Recode ``column`` by ``rule`` (see the module docstring); the checks rerun."""
        series = self._column(column)
        name, _, arg = rule.strip().partition(":")
        name = name.strip().lower()
        known = series.notna().to_numpy()
        if name == "bands":
            parts = [p for p in arg.split(",") if p.strip()]
            if not parts:
                raise DataError(f"The rule {rule!r} needs a width or edges, e.g. bands:10 or bands:18,30,45,65.")
            values = _numeric(series, column, rule)
            edges = (dc.band_edges(values, _number(parts[0], rule)) if len(parts) == 1
                     else [_number(p, rule) for p in parts])
            codes, labels = dc.bands(values, edges)
            new = pd.Series(pd.Categorical.from_codes(codes, categories=labels, ordered=True), index=series.index)
            new = new.cat.remove_unused_categories()
            mask, detail = known, f"bands {', '.join(labels[1:-1][:4])}{' ...' if len(labels) > 6 else ''}"
        elif name in ("top", "bottom"):
            limit = _number(arg, rule)
            values = _numeric(series, column, rule)
            coded, mask = (dc.top_code if name == "top" else dc.bottom_code)(values, limit)
            new = pd.Series(coded, index=series.index)
            if pd.api.types.is_integer_dtype(series.dtype) and float(limit).is_integer():
                new = new.astype(series.dtype)
            detail = f"values {'above' if name == 'top' else 'below'} {limit:g} shown as {limit:g}"
        elif name in ("month", "year"):
            dates = _dates(series, column)
            cut = dc.truncate_dates(dates.to_numpy(dtype="datetime64[ns]"), "M" if name == "month" else "Y")
            new = pd.Series(pd.PeriodIndex(pd.DatetimeIndex(cut.astype("datetime64[ns]")),
                                           freq="M" if name == "month" else "Y").astype(str), index=series.index)
            new[~known] = None
            mask, detail = known, f"dates cut to the {name}"
        elif name == "rare":
            min_count = int(_number(arg, rule))
            codes, cats = pd.factorize(series, use_na_sentinel=True)
            merged, rare = dc.merge_rare(codes, min_count, other=len(cats))
            labels = [str(c) for c in cats] + [OTHER_LABEL]
            new = pd.Series(pd.Categorical.from_codes(merged, categories=_unique(labels)), index=series.index)
            new = new.cat.remove_unused_categories()
            mask = merged != codes
            detail = f"{len(rare)} categories with fewer than {min_count} records merged into {OTHER_LABEL!r}"
        elif name == "prefix":
            width = int(_number(arg, rule))
            if width < 1:
                raise DataError(f"The rule {rule!r} needs a positive number of characters, e.g. prefix:3.")
            text = series.astype("string")
            new = text.str.slice(0, width).astype(object)
            mask = (text.str.len() > width).fillna(False).to_numpy(dtype=bool)
            new[~known] = None
            detail = f"text cut to its first {width} characters"
        else:
            raise DataError(f"Unknown generalisation rule {rule!r}. Use bands:WIDTH, bands:EDGE,EDGE,..., top:X, "
                            f"bottom:X, month, year, rare:N or prefix:N.")
        mask = np.asarray(mask, dtype=bool)
        frame = self.frame.assign(**{column: new})
        step = Step("generalise", column, rule, f"{column}: {detail}", int(mask.sum()))
        return self._push(frame, step, changed=self._mark(column, mask))

    def suppress_records(self, *, which: str = "k") -> Step:
        """Remove the records at risk: in classes below k (``which="k"``) or failing any check (``"any"``)."""
        res = self.result
        at_risk = res.k.at_risk if which == "k" else res.at_risk
        kept = self._now.kept.copy()
        kept[np.flatnonzero(kept)[at_risk]] = False
        frame = self.frame.loc[~at_risk]
        what = "in classes below k" if which == "k" else "failing a check"
        step = Step("suppress records", None, which, f"{int(at_risk.sum())} records {what} removed",
                    int(at_risk.sum()))
        return self._push(frame, step, kept=kept)

    def suppress_cells(self, column: str) -> Step:
        """Blank ``column`` in the records of classes below k (local suppression)."""
        series = self._column(column)
        at_risk = self.result.k.at_risk
        new = series.copy()
        if isinstance(new.dtype, pd.CategoricalDtype):
            new[at_risk] = np.nan
        else:
            new = new.astype(object) if pd.api.types.is_integer_dtype(new.dtype) else new
            new[at_risk] = None
        frame = self.frame.assign(**{column: new})
        step = Step("suppress cells", column, "k", f"{column}: blanked in {int(at_risk.sum())} records below k",
                    int(at_risk.sum()))
        return self._push(frame, step, changed=self._mark(column, at_risk))

    def drop(self, column: str) -> Step:
        """Leave ``column`` out of the extract."""
        self._column(column)
        s = self._now
        changed = self._mark(column, np.ones(len(self.frame), dtype=bool)) if column in s.quasi else None
        step = Step("drop column", column, "", f"{column}: left out", len(self.frame))
        return self._push(self.frame.drop(columns=[column]), step, changed=changed,
                          quasi=[c for c in s.quasi if c != column], sensitive=[c for c in s.sensitive if c != column])

    def pseudonymize(self, column: str, key: str, *, alphabet: str = "auto", context: str = pz.DEFAULT_CONTEXT,
                     invalid: str = "raise", row_offset: int = 0) -> Step:
        """Replace ``column`` by FF1 pseudonyms (:func:`pseudonymize.pseudonymize`); it is then shared."""
        series = self._column(column)
        result = pz.pseudonymize(series, key, alphabet=alphabet, context=context, invalid=invalid,
                                 column=column, row_offset=row_offset)
        frame = self.frame.assign(**{column: result.values})
        blanked = {**self._now.blanked, column: [p.row for p in result.blanked]} if result.blanked else None
        note = f"; {len(result.blanked)} value(s) that did not fit left blank" if result.blanked else ""
        step = Step("pseudonymise", column, result.alphabet,
                    f"{column}: {result.method} pseudonyms over {result.alphabet} (key not stored){note}", len(series),
                    context)
        return self._push(frame, step, pseudonymised={**self._now.pseudonymised, column: result.alphabet},
                          blanked=blanked)


def _unique(labels: list[str]) -> list[str]:
    seen, out = set(), []
    for label in labels:
        while label in seen:
            label = label + " "
        seen.add(label)
        out.append(label)
    return out


def _numeric(series: pd.Series, column: str, rule: str) -> np.ndarray:
    if isinstance(series.dtype, pd.CategoricalDtype) or not pd.api.types.is_numeric_dtype(series.dtype):
        values = pd.to_numeric(series.astype(object), errors="coerce")
        if (values.isna() & series.notna()).any():
            raise DataError(f"The rule {rule!r} needs numbers, but column {column!r} has text values. Use rare:N to "
                            f"merge rare categories, or prefix:N for codes.")
        return values.to_numpy(dtype=float)
    return series.to_numpy(dtype=float, na_value=np.nan)


def _dates(series: pd.Series, column: str) -> pd.Series:
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        return series.dt.tz_localize(None) if getattr(series.dt, "tz", None) is not None else series
    with warnings.catch_warnings():  # "could not infer format": each value parsed on its own, as wanted
        warnings.simplefilter("ignore", UserWarning)
        dates = pd.to_datetime(series.astype(object), errors="coerce")
    if (dates.isna() & series.notna()).any():
        bad = series[dates.isna() & series.notna()].index[0]
        raise DataError(f"Column {column!r} is not all dates (row label {bad} is not); month and year need dates.")
    return dates
