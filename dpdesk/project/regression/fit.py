"""Logistic regression of a randomized-response item on the data's columns.

``regress(project, "exam_cheating", ["age", "faculty"])`` builds the design matrix from the
item's dataset (numeric columns as they are, categorical ones as 0/1 dummies against a
reference level, optional ``a:b`` interactions and centring), maps the item's answers to
response codes with the item's stored mapping (as for its prevalence estimate), leaves
out rows with a missing answer or covariate and says how many, and fits
``dpdesk.mechanisms.rr.regression.logistic``. No formulas: the matrix is built here, named columns
alongside, and the mechanisms only see numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpdesk.errors import DataError, in_app
from dpdesk.mechanisms import rr
from dpdesk.project.analysis.estimates import stored_table
from dpdesk.project.mapping.code_matching import (
    _classify,
    _is_missing_code,
    _key,
    _missing_keys,
)
from dpdesk.project.mapping import value_labels_for

INTERCEPT = "(Intercept)"


@dataclass(frozen=True)
class Predictor:
    """How one data column entered the model: ``kind`` "numeric" or "categorical"."""

    column: str
    kind: str
    columns: tuple[str, ...]          # its design-matrix columns
    reference: str | None = None      # categorical: the level every dummy is compared with
    levels: tuple[str, ...] = ()      # categorical: all levels, reference first
    centre: float | None = None       # numeric: the mean subtracted (None: not centred)
    labelled: bool = False            # numeric codes, every one value-labelled: categories by default

    def to_dict(self) -> dict[str, Any]:
        return {"column": self.column, "kind": self.kind, "columns": list(self.columns), "reference": self.reference,
                "levels": list(self.levels), "centre": self.centre, "labelled": self.labelled}


@dataclass
class RegressionResult:
    """The fit with what went into it: predictors, rows used and rows left out (and why)."""

    item: str
    question: str
    design: rr.Design
    fit: rr.LogisticFit
    predictors: tuple[Predictor, ...]
    interactions: tuple[str, ...]
    n_rows: int
    n_used: int
    excluded_answers: int
    excluded_covariates: dict[str, int] = field(default_factory=dict)
    dataset: str = ""
    direct_column: str | None = None
    sample_design: Any = None  # the SurveyDesign used, or None (a simple random sample)
    cluster: str | None = None  # the column of a multilevel model's clusters

    @property
    def n_excluded(self) -> int:
        return self.n_rows - self.n_used

    def table(self) -> list[dict[str, Any]]:
        return self.fit.table()

    def to_dict(self) -> dict[str, Any]:
        return {"item": self.item, "question": self.question, "dataset": self.dataset,
                "predictors": [p.to_dict() for p in self.predictors], "interactions": list(self.interactions),
                "n_rows": self.n_rows, "n_used": self.n_used, "excluded_answers": self.excluded_answers,
                "excluded_covariates": dict(self.excluded_covariates), "direct_column": self.direct_column,
                "survey_design": None if self.sample_design is None else self.sample_design.to_dict(),
                "cluster": self.cluster,
                "fit": self.fit.to_dict()}


# ----------------------------------------------------------------------------- answers


def _item(project, name: str):
    for item in project.items():
        if item.name == name:
            return item
    names = ", ".join(repr(i.name) for i in project.items()) or "none yet"
    raise DataError(f"The project has no item {name!r}; its items are {names}.")


def answer_codes(item, table) -> tuple[np.ndarray, np.ndarray]:
    """Per row: the response index in ``design.responses`` and the design group (1, 2), or -1.

    The same matching as the item's counts (``mapping``): codes, value labels and
    user-missing codes; -1 marks a missing or unmatched answer (or group).
    """
    d = rr.Design.from_dict(item.design_record)
    if not item.column or not item.codes:
        head = f"Item {item.name!r} is not mapped in this dataset: map it to a column of the data first "
        raise in_app(DataError(head + "(Data > Map items…, or dpdesk item PROJECT NAME --dataset DS --column ... "
                               "--codes ...)."), head + "(Data > Map items…).")
    frame, report = table.frame, table.report
    if getattr(report, "kind", "") == "counts":
        raise DataError(f"Regression needs one row per respondent; the dataset of {item.name!r} is a counts table.")
    for col in (item.column, item.group_column):
        if col is not None and col not in frame.columns:
            raise DataError(f"Item {item.name!r}: there is no column {col!r} in the data.")
    codes = {str(k): v if isinstance(v, list) else [v] for k, v in dict(item.codes).items()}
    missing = (report.missing_values or {}).get(item.column, []) if report is not None else []
    answer, _ = _classify(frame[item.column], codes, value_labels_for(report, item.column), missing, item.column, "")
    names = list(codes)
    order = np.array([names.index(r) if r in names else -1 for r in d.responses])
    if np.any(order < 0):
        raise DataError(f"Item {item.name!r}: its codes ({', '.join(names)}) do not name every response of the "
                        f"design ({', '.join(d.responses)}).")
    remap = np.full(len(names), -1)
    remap[order] = np.arange(len(order))
    response = np.where(answer >= 0, remap[np.clip(answer, 0, None)], -1)
    group = np.ones(len(frame), np.int64)
    if d.groups > 1:
        if not item.group_column or not item.group_codes:
            raise DataError(f"Item {item.name!r} uses a two-group design: map its group column first.")
        gcodes = {str(k): v if isinstance(v, list) else [v] for k, v in dict(item.group_codes).items()}
        gmissing = (report.missing_values or {}).get(item.group_column, []) if report is not None else []
        g, _ = _classify(frame[item.group_column], gcodes, value_labels_for(report, item.group_column), gmissing,
                         item.group_column, "")
        group = np.where(g >= 0, g + 1, -1)
        response = np.where(group > 0, response, -1)
    return response, group


# ----------------------------------------------------------------------------- covariates


def _column(frame, report, name: str):
    """The column's values with missing ones (blank, NaN, user-missing codes) as None-able mask."""
    import pandas as pd

    if name not in frame.columns:
        shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:20])
        raise DataError(f"There is no column {name!r} to use as a predictor. The columns are: {shown}. "
                        f"Check the name (it is case-sensitive).")
    series = frame[name]
    missing = _missing_keys((report.missing_values or {}).get(name, []) if report is not None else [])
    keys = [_key(v) for v in series.tolist()]
    blank = np.array([k is None or _is_missing_code(k, missing) for k in keys])
    numeric = pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
    if not numeric and not blank.all():
        numeric = all(isinstance(k, float) for k, b in zip(keys, blank) if not b)
    return series, keys, blank, bool(numeric)


def _labels(report, name) -> dict:
    labels = value_labels_for(report, name)
    return {_key(k): str(v) for k, v in labels.items()}


def value_labelled(report, name, keys, blank) -> bool:
    """A numeric column whose every value in the data has a value label (SPSS's 1 = Female, 2 = Male).

    Such codes name categories, not amounts: a slope across "1, 2, 3" would depend on the
    order someone numbered genders in. A scale with only its ends labelled (1 = disagree ...
    5 = agree) has unlabelled values and stays numeric.
    """
    labels = _labels(report, name)
    seen = {k for k, b in zip(keys, blank) if not b}
    return len(seen) >= 2 and bool(labels) and all(k in labels for k in seen)


def design_matrix(table, predictors, *, reference=None, interactions=(), center=(), categorical=(), rows=None,
                  numeric=(), intercept_only: bool = False):
    """``(X, names, predictors, missing, terms, missing_by_column, interactions)`` from the table's columns.

    ``rows``: the rows that can be used (those with an answer); levels and centres are
    taken over these rows without a missing covariate. ``missing`` marks rows with a
    missing covariate, ``missing_by_column`` the same per column.

    Numeric columns enter as they are (``center``: minus their mean over the rows used);
    other columns (and those in ``categorical``) as 0/1 dummies for each level but the
    reference (``reference[column]``, matched case-insensitively; default the level with
    the most rows, the most stable comparison, where R would take the first level).
    A numeric column whose every value has a value label (:func:`value_labelled`) enters as
    categories too, unless it is in ``numeric``; its levels follow the codes and its default
    reference is the lowest code (SPSS's first category, as R's first factor level).
    ``interactions`` are ``"a:b"`` products of two predictors' columns. ``intercept_only``: no
    predictors is allowed (the intercept alone, as a multilevel model's ``y ~ 1 + (1|cluster)``).
    """
    frame, report = table.frame, table.report
    reference = dict(reference or {})
    predictors = list(dict.fromkeys(str(p) for p in predictors))
    if not predictors and not intercept_only:
        raise DataError("Give at least one predictor (a column of the data).")
    for col in list(reference) + list(center):
        if col not in predictors:
            raise DataError(f"{col!r} is given a reference level or centring but is not among the predictors "
                            f"({', '.join(predictors)}). Add it to the predictors.")
    n = len(frame)
    missing = np.zeros(n, bool)
    missing_by: dict[str, np.ndarray] = {}
    parsed = {}
    for col in predictors:
        series, keys, blank, is_number = _column(frame, report, col)
        labelled = is_number and col not in numeric and value_labelled(report, col, keys, blank)
        if col in categorical or labelled:
            is_number = False
        missing_by[col] = blank
        missing |= blank
        parsed[col] = (keys, blank, is_number, labelled and col not in categorical)
    used = ~missing & (np.ones(n, bool) if rows is None else np.asarray(rows, bool))
    blocks, names, info, terms = [np.ones((n, 1))], [INTERCEPT], [], {}
    by_column: dict[str, tuple[np.ndarray, list[str]]] = {}
    for col in predictors:
        keys, blank, is_number, labelled = parsed[col]
        if is_number:
            values = np.array([k if not b else np.nan for k, b in zip(keys, blank)], float)
            centre = None
            if col in center:
                centre = float(np.mean(values[used])) if used.any() else 0.0
                values = values - centre
            by_column[col] = (values[:, None], [col])
            info.append(Predictor(col, "numeric", (col,), centre=centre))
            if col in reference:
                raise DataError(f"{col!r} is numeric; a reference level applies to categorical predictors only.")
            continue
        if col in center and labelled:
            head = (f"{col!r} has value labels, so it enters as categories, which cannot be centred. To centre it, "
                    f"use its codes as numbers (Treat as: numeric")
            raise in_app(DataError(head + f"; command line: --numeric {col})."), head + ").")
        if col in center:
            raise DataError(f"{col!r} is categorical and cannot be centred; centre numeric predictors only.")
        labels = _labels(report, col)
        shown: dict[Any, str] = {}  # matching key -> the label as first written in the data
        for k, b, raw in zip(keys, blank, frame[col].tolist()):
            if not b and k not in shown:
                shown[k] = labels.get(k, _display(raw))
        text = [None if b else shown[k] for k, b in zip(keys, blank)]
        counts: dict[str, int] = {}
        for t, u in zip(text, used):
            if t is not None and u:
                counts[t] = counts.get(t, 0) + 1
        if labelled:  # in the order of the codes: 1 = Female, 2 = Male, 3 = Non-binary
            code_of = {t: k for k, t in shown.items()}
            levels = sorted(counts, key=lambda t: float(code_of[t]))
        else:
            levels = sorted(counts, key=_level_order)
        if len(levels) < 2:
            raise DataError(f"Predictor {col!r} has only {len(levels)} level among the rows used "
                            f"({', '.join(levels) or 'none'}); it cannot predict anything. Drop it.")
        if col in reference:
            wanted = _key(reference[col])
            ref = next((lv for lv in levels if _key(lv) == wanted), None)
            if ref is None and shown.get(wanted) in levels:  # a labelled column's code: --ref sex=2 is Male
                ref = shown[wanted]
            if ref is None:
                raise DataError(f"The reference level {reference[col]!r} of {col!r} is not one of its levels: "
                                f"{', '.join(levels)}.")
        elif labelled:  # the lowest code, as SPSS lists the categories
            ref = levels[0]
        else:  # the largest level: the most stable comparison (ties: the first in order)
            ref = max(levels, key=lambda lv: counts[lv])
        others = [lv for lv in levels if lv != ref]
        dummies = np.array([[t == lv for lv in others] for t in text], float).reshape(n, len(others))
        cols = [f"{col}[{lv}]" for lv in others]
        by_column[col] = (dummies, cols)
        info.append(Predictor(col, "categorical", tuple(cols), reference=ref, levels=tuple([ref] + others),
                              labelled=labelled))
        if len(cols) > 1:
            terms[col] = cols
    for col in predictors:
        block, cols = by_column[col]
        blocks.append(block)
        names.extend(cols)
    clean = []
    for spec in interactions:
        parts = [s.strip() for s in str(spec).split(":")]
        if len(parts) != 2 or not all(parts):
            raise DataError(f"Interaction {spec!r} must name two predictors joined by a colon, e.g. 'age:gender'.")
        for part in parts:
            if part not in by_column:
                raise DataError(f"Interaction {spec!r}: {part!r} is not among the predictors "
                                f"({', '.join(predictors)}); add it as a main effect too.")
        (ba, ca), (bb, cb) = by_column[parts[0]], by_column[parts[1]]
        block = np.column_stack([ba[:, i] * bb[:, k] for i in range(ba.shape[1]) for k in range(bb.shape[1])])
        cols = [f"{a}:{b}" for a in ca for b in cb]
        blocks.append(block)
        names.extend(cols)
        label = ":".join(parts)
        clean.append(label)
        if len(cols) > 1:
            terms[label] = cols
    X = np.column_stack(blocks)
    return X, names, tuple(info), missing, terms, missing_by, tuple(clean)


def _display(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _level_order(level: str):
    try:
        return (0, float(level), level)
    except ValueError:
        return (1, 0.0, level.casefold())


# ----------------------------------------------------------------------------- fit


def regress(project, item_name: str, predictors, *, reference=None, interactions=(), center=(),
            confidence: float = 0.95, categorical=(), numeric=(), dataset: str | None = None,
            direct_column: str | None = None, direct_codes: dict | None = None,
            progress=None, survey=None, cluster: str | None = None, nagq: int = 1) -> RegressionResult:
    """Fit ``logit P(item = yes) = b0 + b' x`` for a binary RR item on the named columns.

    ``reference``: ``{column: level}`` for categorical predictors; ``interactions``:
    ``"a:b"`` strings; ``center``: numeric columns to centre at their mean; ``categorical``:
    numeric-looking columns to treat as categories (e.g. a year coded 1-5); ``numeric``:
    value-labelled numeric columns to take as numbers (they enter as categories by default,
    see :func:`design_matrix`).
    ``direct_column``: the same question asked directly (a comparison group): rows without a
    randomized answer but with a direct one enter as group 0, taken at face value (RRreg's
    ``RRlog``); ``direct_codes`` its codes (default ``DIRECT_CODES``: Yes/No, 1/0).
    ``progress(fraction, text)`` is passed to ``rr.logistic`` (a worker's progress and Cancel).
    ``survey``: the sample design (default: the dataset's stored one; ``False``: none). With
    a design the fit is design-based: weighted pseudo-likelihood, sandwich SEs, Wald
    intervals and tests on the design df; rows left out keep their PSU in the design.
    ``cluster``: a column of cluster labels (school, firm, country) for a random intercept per
    cluster (``rr.logistic(random_intercept=...)``, as RRreg's RRmixed, with ``nagq`` quadrature
    points); rows without a label are left out and counted. One-group yes/no designs, no sample design.
    """
    item = _item(project, item_name)
    if dataset is not None:  # its mapping in that dataset (items are read as mapped in the active one)
        item = item.in_dataset(dataset)
    d = rr.Design.from_dict(item.design_record)
    if not d.is_binary or (d.model == "prevalence" and len(d.states) != 2):
        raise DataError(f"Item {item_name!r} ({d.name}) has several categories; regression needs a yes/no item.")
    table = stored_table(project, dataset)
    response, group = answer_codes(item, table)
    if cluster is not None:
        _check_multilevel(d, item_name, direct_column)
    if direct_column is not None:
        response, group = _with_direct(table, response, group, direct_column, direct_codes or DIRECT_CODES)
    bad_answer = response < 0
    X, names, info, missing_cov, terms, missing_by, clean = design_matrix(
        table, predictors, reference=reference, interactions=interactions, center=center, categorical=categorical,
        rows=~bad_answer, numeric=numeric, intercept_only=cluster is not None)
    use = ~bad_answer & ~missing_cov
    if cluster is not None:
        labels, no_label = cluster_labels(table, cluster)
        missing_by = {**missing_by, cluster: no_label}
        use &= ~no_label
    n_used = int(use.sum())
    if n_used == 0:
        raise DataError(f"No row has both an answer to {item_name!r} and every predictor "
                        f"({', '.join(str(p) for p in predictors) or 'none'}).")
    if d.groups > 1 and len(set(group[use].tolist()) - {0}) < 2:
        raise DataError(f"Item {item_name!r}: after leaving out missing values only one randomization group is "
                        f"left; the design needs both.")
    from dpdesk.project.analysis.estimates import sample_design
    from dpdesk.project.study.survey_design import estimator_arguments

    sd = sample_design(project, dataset, survey)
    if cluster is not None:
        if sd is not None:
            head = "A multilevel model cannot use the dataset's survey design (weights, strata, PSUs); fit it"
            raise in_app(DataError(f"{head} as a simple random sample with --no-design, or drop --cluster."),
                         f"{head} without clusters (the logistic model uses the design), or as a simple random "
                         f"sample: remove the dataset's survey design in Data (Remove design).")
        fit = rr.logistic(d, response[use], X[use], group=group[use], names=names, confidence=confidence,
                          terms=terms, random_intercept=labels[use], nagq=nagq, progress=progress)
    elif sd is None:
        fit = rr.logistic(d, response[use], X[use], group=group[use], names=names,
                          confidence=confidence, terms=terms, progress=progress)
    else:
        args = estimator_arguments(table.frame, sd, table.report.first_data_row, table.report)
        fit = rr.logistic(d, response, X, group=group, names=names, confidence=confidence, terms=terms,
                          progress=progress, used=use, **args)
    from dpdesk.project.study.active import dataset_named

    ds = dataset or dataset_named(project, None).name  # the active dataset, which stored_table read
    excluded = {c: int((m & ~bad_answer).sum()) for c, m in missing_by.items() if (m & ~bad_answer).any()}
    return RegressionResult(item.name, item.question, d, fit, info, clean, len(table.frame), n_used,
                            int(bad_answer.sum()), excluded, ds, direct_column, sd, cluster)


def _check_multilevel(d, item_name: str, direct_column) -> None:
    """What a multilevel model refuses before anything is read: two-group designs, direct answers."""
    if d.groups != 1 or d.model != "prevalence" or len(d.responses) != 2:
        head = (f"Item {item_name!r} uses the {d.name!r} design; a multilevel model needs a one-group yes/no design "
                "(Warner, forced response, crosswise, unrelated question with known prevalence, triangular, Kuk with "
                "one card, Mangat), as RRmixed. Fit it without")
        raise in_app(DataError(f"{head} --cluster."), f"{head} clusters.")
    if direct_column is not None:
        raise in_app(DataError("A multilevel model cannot include directly asked answers (--direct); drop one of "
                               "them."), "A multilevel model cannot include directly asked answers; drop one of them.")


def cluster_labels(table, column: str) -> tuple[np.ndarray, np.ndarray]:
    """Each row's cluster label (as text, so 1 and "1" are one cluster) and the rows without one."""
    frame, report = table.frame, table.report
    if column not in frame.columns:
        shown = ", ".join(repr(str(c)) for c in list(frame.columns)[:20])
        raise DataError(f"There is no column {column!r} to use as the cluster. The columns are: {shown}. Check the "
                        f"name (it is case-sensitive).")
    _series, keys, blank, _numeric = _column(frame, report, column)
    labels = np.array([None if b else _display(k) for k, b in zip(keys, blank)], dtype=object)
    return labels, np.asarray(blank, bool)


#: Default codes of a directly asked yes/no question (matched case-insensitively).
DIRECT_CODES = {"no": ["No", 0], "yes": ["Yes", 1]}


def _with_direct(table, response, group, column: str, codes: dict):
    """Rows with no randomized answer but a direct one: response 0/1 in group 0."""
    frame, report = table.frame, table.report
    if column not in frame.columns:
        raise DataError(f"There is no column {column!r} for the direct question.")
    codes = {str(k): v if isinstance(v, list) else [v] for k, v in dict(codes).items()}
    if set(codes) != {"no", "yes"}:
        raise DataError(f"The direct question's codes must be given for 'no' and 'yes'; got {', '.join(codes)}.")
    missing = (report.missing_values or {}).get(column, []) if report is not None else []
    answer, _ = _classify(frame[column], codes, value_labels_for(report, column), missing, column, "")
    direct = np.where(answer >= 0, (answer == list(codes).index("yes")).astype(np.int64), -1)
    use = (response < 0) & (direct >= 0)
    if not use.any():
        raise DataError(f"No row without a randomized answer has a direct answer in {column!r} "
                        f"(codes {codes}); check the column and its codes.")
    return np.where(use, direct, response), np.where(use, 0, group)


def prediction_curve(result: RegressionResult, column: str, points: int = 50) -> list[dict[str, Any]]:
    """Predicted prevalence across one predictor, the others held at their sample means.

    As ``RRreg::plot.RRlog(center.preds = TRUE)``: a numeric predictor on a grid of
    ``points`` values over its observed range (in its own units, also when centred); a
    categorical one per level. Interaction columns follow the varied predictor times the
    mean of their other factor. Rows: ``value``, ``estimate``, ``low``, ``high`` (CI by the
    delta method on the logit scale).
    """
    fit = result.fit
    pred = next((p for p in result.predictors if p.column == column), None)
    if pred is None:
        raise DataError(f"{column!r} is not a predictor of this model ({', '.join(p.column for p in result.predictors)}).")
    X = fit._data.X
    names = list(fit.names)
    means = X.mean(axis=0)
    if pred.kind == "numeric":
        j = names.index(column)
        grid = np.linspace(X[:, j].min(), X[:, j].max(), max(2, int(points)))
        settings = [({column: g}, g + (pred.centre or 0.0)) for g in grid]
    else:
        settings = [({c: float(c == f"{column}[{lv}]") for c in pred.columns}, lv) for lv in pred.levels]
    rows = np.tile(means, (len(settings), 1))
    for k, (values, _) in enumerate(settings):
        for name, v in values.items():
            rows[k, names.index(name)] = v
        for j, name in enumerate(names):
            parts = name.split(":")
            if len(parts) == 2 and (parts[0] in values or parts[1] in values):
                a = values.get(parts[0], means[names.index(parts[0])])
                b = values.get(parts[1], means[names.index(parts[1])])
                rows[k, j] = a * b
    est = fit.predict(rows)
    return [{"value": _plain_value(v), "estimate": float(e[0]), "low": float(e[1]), "high": float(e[2])}
            for (_, v), e in zip(settings, est)]


def _plain_value(v):
    return float(v) if isinstance(v, (float, np.floating)) else v
