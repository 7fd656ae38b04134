"""Randomized-response items as predictors and in correlations, from a project's data.

``linear_regression(project, "gpa", ["exam_cheating"], ["age"])`` fits RRreg's RRlin
(:func:`dpdesk.mechanisms.rr.linear`) with the items' answers mapped as for their prevalence
(:func:`.fit.answer_codes`) and the covariates built as for the logistic model
(:func:`.fit.design_matrix`); ``correlations(project, ["exam_cheating", "age"])`` gives RRcor's
corrected correlations (:func:`dpdesk.mechanisms.rr.correlation`). Rows with a missing answer,
outcome or covariate are left out, and counted by cause.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpdesk.errors import DataError, EstimationError, in_app
from dpdesk.mechanisms import rr
from dpdesk.project.analysis.estimates import stored_table
from dpdesk.project.regression.fit import INTERCEPT, Predictor, _column, _item, answer_codes, design_matrix


def plain(x) -> float | None:
    """A number for strict JSON: None for NaN and infinities."""
    return float(x) if x is not None and math.isfinite(float(x)) else None


@dataclass
class LinearResult:
    """An RRlin fit with what went into it: outcome, RR items, covariates, rows used and left out."""

    outcome: str
    items: tuple[str, ...]
    fit: Any  # rr.LinearFit
    predictors: tuple[Predictor, ...]
    n_rows: int
    n_used: int
    excluded: dict[str, int] = field(default_factory=dict)  # cause (an item or column) -> rows
    dataset: str = ""

    def to_dict(self) -> dict[str, Any]:
        f = self.fit
        coefs = [{"term": c.name, "b": plain(c.estimate), "se": plain(c.se), "z": plain(c.z), "p": plain(c.p),
                  "ci_low": plain(c.ci[0]), "ci_high": plain(c.ci[1])} for c in f.coefficients]  # as the logistic's
        return {"model": "linear", "outcome": self.outcome, "rr_items": list(self.items), "dataset": self.dataset,
                "predictors": [p.to_dict() for p in self.predictors], "n_rows": self.n_rows, "n_used": self.n_used,
                "excluded": dict(self.excluded), "confidence": f.confidence, "coefficients": coefs,
                "sigma": {"estimate": plain(f.sigma), "se": plain(f.sigma_se)},
                "prevalence": {k: {"estimate": plain(e), "se": plain(s)} for k, (e, s) in f.prevalence.items()},
                "pattern_probabilities": {k: plain(v) for k, v in f.pattern_probabilities.items()},
                "loglik": plain(f.loglik), "n": f.n, "notes": list(f.notes)}


def _items_in(project, names, dataset):
    items = []
    for name in names:
        item = _item(project, name)
        items.append(item.in_dataset(dataset) if dataset is not None else item)
    return items


def _rr_spec(item, table):
    """``(design, responses, group)`` of a yes/no item, and the rows without a usable answer."""
    d = rr.Design.from_dict(item.design_record)
    response, group = answer_codes(item, table)
    return d, response, group, response < 0


def numeric_column(table, name: str, role: str) -> tuple[np.ndarray, np.ndarray]:
    """A numeric column's values (NaN where missing) and its missing rows; a text column is refused."""
    series, keys, blank, is_number = _column(table.frame, table.report, name)
    if not is_number:
        example = next((str(v).strip() for v, k, b in zip(series.tolist(), keys, blank)
                        if not b and not isinstance(k, float)), None)
        raise DataError(f"Column {name!r} is not numeric (it has values such as {example!r}), so it cannot be "
                        f"{role}. Choose a column of numbers, or map it as an RR item.")
    values = np.array([np.nan if b else float(k) for k, b in zip(keys, blank)], float)
    return values, np.asarray(blank, bool) | ~np.isfinite(values)


def linear_regression(project, outcome: str, items, predictors=(), *, reference=None, interactions=(), center=(),
                      categorical=(), numeric=(), confidence: float = 0.95,
                      dataset: str | None = None, survey=None) -> LinearResult:
    """Fit ``outcome = b0 + b' x + c' s + e`` with ``s`` the true states of the RR ``items`` (RRreg's RRlin).

    ``items``: yes/no RR items mapped in the dataset (the active one by default), as predictors;
    ``predictors`` and the options after it: covariates, as :func:`.fit.regress`. See
    :func:`dpdesk.mechanisms.rr.linear` for the model, the fit and the SEs. ``survey``: as
    :func:`.fit.regress`; a sample design is refused (RRlin assumes a simple random sample).
    """
    items = list(dict.fromkeys(str(i) for i in items))
    if not items:
        raise in_app(DataError("Give at least one RR item as a predictor (--rr ITEM)."),
                     "Give at least one RR item as a predictor.")
    from dpdesk.project.analysis.estimates import sample_design

    if sample_design(project, dataset, survey) is not None:
        head = "A linear model with RR predictors cannot use the dataset's survey design (weights, strata, PSUs)"
        raise in_app(DataError(f"{head}; fit it as a simple random sample with --no-design."),
                     f"{head}. To fit it as a simple random sample, remove the dataset's survey design in Data "
                     f"(Remove design).")
    table = stored_table(project, dataset)
    y, no_y = numeric_column(table, outcome, "the outcome of a linear regression")
    specs, excluded, bad = {}, {}, np.zeros(len(y), bool)
    if no_y.any():
        excluded[outcome] = int(no_y.sum())
    for item in _items_in(project, items, dataset):
        d, response, group, missing = _rr_spec(item, table)
        specs[item.name] = (d, response, group)
        if missing.any():
            excluded[item.name] = int(missing.sum())
        bad |= missing
    bad |= no_y
    if predictors:
        X, names, info, missing_cov, _terms, missing_by, _clean = design_matrix(
            table, predictors, reference=reference, interactions=interactions, center=center, categorical=categorical,
            rows=~bad, numeric=numeric)
        for col, m in missing_by.items():
            if m.any():
                excluded[col] = int(m.sum())
        bad |= missing_cov
    else:
        X, names, info = np.ones((len(y), 1)), [INTERCEPT], ()
    use = ~bad
    if not use.any():
        raise DataError(f"No row has a value of {outcome!r}, an answer to every RR item and every covariate.")
    rr_specs = {k: (d, r[use], g[use]) for k, (d, r, g) in specs.items()}
    fit = rr.linear(y[use], X[use], rr_specs, names=names, confidence=confidence)
    from dpdesk.project.study.active import dataset_named

    ds = dataset or dataset_named(project, None).name
    return LinearResult(outcome, tuple(specs), fit, tuple(info), len(y), int(use.sum()), excluded, ds)


#: More resamples than this change the SEs in digits nobody reads, and would run for hours.
MAX_BOOTSTRAP = 100_000


@dataclass
class CorrelationResult:
    """RRcor's corrected correlations, what each name was (an RR item or a column) and the rows used."""

    kinds: dict[str, str]  # name -> "rr item" or "column"
    fit: Any  # rr.Correlations
    n_rows: int
    n_used: int
    excluded: dict[str, int] = field(default_factory=dict)
    dataset: str = ""
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        f = self.fit
        grid = lambda m: [[plain(v) for v in row] for row in np.asarray(m, float)]  # noqa: E731
        return {"variables": [{"name": k, "kind": v} for k, v in self.kinds.items()], "dataset": self.dataset,
                "n_rows": self.n_rows, "n_used": self.n_used, "excluded": dict(self.excluded),
                "bootstrap": f.bootstrap, "seed": self.seed, "r": grid(f.r), "se": grid(f.se),
                "p_value": grid(f.p_value), "notes": list(f.notes)}


def correlations(project, names, *, bootstrap: int = 1000, seed: int | None = None,
                 dataset: str | None = None, progress=None) -> CorrelationResult:
    """Corrected correlations of RR items and numeric columns (RRreg's RRcor), with bootstrap SEs and p-values.

    Each name is a yes/no RR item of the project (mapped in the dataset) or else a numeric column
    of the data; rows missing any of them are left out. ``seed`` fixes the bootstrap resamples
    (default 0, as :func:`dpdesk.mechanisms.rr.correlation`); ``progress(fraction, text)`` follows them (and may
    stop them by raising).
    """
    names = list(dict.fromkeys(str(n) for n in names))
    if len(names) < 2:
        raise DataError("Give at least two names to correlate: RR items or numeric columns.")
    if not 0 <= bootstrap <= MAX_BOOTSTRAP:
        tail = f" must be 0 (no SEs) or a number of resamples up to {MAX_BOOTSTRAP:,}, such as 1000."
        raise in_app(DataError(f"--bootstrap {bootstrap}{tail}"), f"The number of bootstrap resamples ({bootstrap}){tail}")
    table = stored_table(project, dataset)
    item_names = {it.name for it in project.items()}
    n = len(table.frame)
    specs, kinds, excluded, bad = {}, {}, {}, np.zeros(n, bool)
    for name in names:
        if name in item_names:
            item = _items_in(project, [name], dataset)[0]
            d, response, group, missing = _rr_spec(item, table)
            if len(d.responses) != 2:
                raise DataError(f"Item {name!r} ({d.name}) has {len(d.responses)} possible answers; a correlation "
                                f"needs a yes/no answer.")
            specs[name], kinds[name] = (d, response, group), "rr item"
        elif name in table.frame.columns:
            values, missing = numeric_column(table, name, "correlated")
            specs[name], kinds[name] = values, "column"
        else:
            items = ", ".join(sorted(item_names)) or "none"
            raise DataError(f"{name!r} is neither an item of the project (items: {items}) nor a column of the data. "
                            f"Check the name (it is case-sensitive).")
        if missing.any():
            excluded[name] = int(missing.sum())
        bad |= missing
    use = ~bad
    if use.sum() < 4:
        raise DataError(f"Only {int(use.sum())} rows have a value of every variable ({', '.join(names)}); a "
                        f"correlation needs at least 4.")
    cut = {k: (v[0], v[1][use], v[2][use]) if isinstance(v, tuple) else v[use] for k, v in specs.items()}
    try:
        with np.errstate(invalid="ignore", divide="ignore"):  # a resample with no variation counts as NaN
            fit = rr.correlation(cut, bootstrap=int(bootstrap), rng=seed, progress=progress)
    except EstimationError as exc:
        raise DataError(str(exc)) from None
    from dpdesk.project.study.active import dataset_named

    ds = dataset or dataset_named(project, None).name
    return CorrelationResult(kinds, fit, n, int(use.sum()), excluded, ds, seed)
