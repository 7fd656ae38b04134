"""A regression as plain rows and text: what the app shows, the project saves and the workbook gets.

:class:`RegressionSpec` is what the researcher chose (outcome, predictors, reference levels,
centring, interactions, the predictor to plot); :func:`fit_report` fits it
(``regression.regress``) and returns a :class:`RegressionReport`: the APA coefficient table
as text cells and as full-precision rows, the likelihood-ratio tests and fit statistics, the
odds ratios for a forest plot, the predicted prevalence across one predictor, and the plain
sentences. Everything is JSON-able, so a saved report reads back exactly and shows the same.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from dpdesk.project.regression.fit import INTERCEPT, RegressionResult, regress
from dpdesk.project.regression.text import p_cell, quoted, report_text, sentences, term_label

#: ``Project.analyses()`` options of a saved regression carry this ``analysis`` value.
ANALYSIS = "regression"
MODELS = ("logistic", "multilevel", "linear")
CURVE_POINTS = 25


@dataclass
class RegressionSpec:
    """The model the researcher asked for (as ``regression.regress`` takes it)."""

    item: str
    predictors: list[str]
    reference: dict[str, str] = field(default_factory=dict)
    interactions: list[str] = field(default_factory=list)
    center: list[str] = field(default_factory=list)
    categorical: list[str] = field(default_factory=list)
    confidence: float = 0.95
    dataset: str | None = None
    plot: str | None = None  # the predictor across which the prevalence is plotted
    numeric: list[str] = field(default_factory=list)  # value-labelled columns taken as numbers, not categories
    model: str = "logistic"        # "logistic" | "multilevel" (random intercept per cluster) | "linear" (RRlin)
    cluster: str | None = None     # multilevel: the column of clusters
    nagq: int = 1                  # multilevel: quadrature points (1: Laplace)
    outcome: str | None = None     # linear: the numeric column explained (``item`` is "" then)
    rr_items: list[str] = field(default_factory=list)  # linear: the RR items as predictors

    def to_dict(self) -> dict[str, Any]:
        return {"analysis": ANALYSIS, **asdict(self)}

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "RegressionSpec":
        """A saved spec; one saved before the model was chosen (no ``model``) is logistic."""
        known = set(cls.__dataclass_fields__)
        spec = cls(**{k: v for k, v in dict(record).items() if k in known})
        if spec.model not in MODELS:
            raise TypeError(f"unknown model {spec.model!r}")
        return spec


@dataclass
class RegressionReport:
    """One fitted regression as rows and text (see the module docstring)."""

    spec: RegressionSpec
    title: str
    header: list[str]              # the APA table's column heads
    cells: list[list[str]]         # its rows as text (2 decimals, p as ".012" / "< .001")
    coefficients: list[dict]       # full precision: the workbook's rows
    tests: list[dict]              # likelihood-ratio tests (terms, model, nuisance)
    statistics: list[dict]         # n, log-likelihood, deviance, AIC, BIC, iterations
    forest: list[dict]             # odds ratios with CIs (no intercept)
    curve: dict                    # {"predictor", "kind", "rows": [{value, estimate, CI low, CI high}]}
    sentences: list[str]
    text: str                      # the whole result as plain text (as ``dpdesk regress`` prints it)
    note: str                      # under the table: what b, OR, the interval and the tests are
    fit: dict                      # ``RegressionResult.to_dict()``: everything, for the record
    item_label: str = ""           # the item as output names it (short label or question; "" in older saves)
    column_labels: dict = field(default_factory=dict)  # predictor code -> its label (those that have one)
    design: str = ""               # with a survey design: "Weighted; Taylor linearization with ...; design df 32"

    @property
    def outcome(self) -> str:
        """What the report calls the outcome: the item's label (its name in reports saved before labels); a linear
        model's outcome column."""
        return self.item_label or self.spec.item or self.spec.outcome or ""

    @property
    def model(self) -> str:
        return self.spec.model

    def column(self, code: str) -> str:
        """A predictor's label (its code when it has none)."""
        return str(self.column_labels.get(code) or code)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able: an infinite or undefined number (an open-ended interval) becomes None."""
        out = _finite(asdict(self))
        out["spec"] = self.spec.to_dict()
        return out

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "RegressionReport":
        record = dict(record)
        record["spec"] = RegressionSpec.from_dict(record["spec"])
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in record.items() if k in known})

    def coefficient(self, term: str) -> dict:
        """The row of ``term``, by its label ("Faculty: Law (vs Arts)") or code (``faculty[Law]``)."""
        return next(r for r in self.coefficients if term in (r["term"], r.get("term code")))

    def separation_note(self) -> str | None:
        """Why a limit reads "> 1,000" or "< 0.001" (quasi-separation), when one does; else None."""
        from dpdesk.project.number_style import separation_note

        return separation_note((c.get("CI low (OR)"), c.get("CI high (OR)")) for c in self.coefficients)


def _finite(value):
    import math

    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.integer):
        return int(value)
    return value


def fit_report(project, spec: RegressionSpec, progress=None) -> RegressionReport:
    """Fit ``spec`` (any of :data:`MODELS`) on the project's data and return the report (errors as ``DpdeskError``)."""
    if spec.model not in MODELS:
        from dpdesk.errors import DataError

        raise DataError(f"Unknown model {spec.model!r}: choose one of {', '.join(MODELS)}.")
    if spec.model == "linear":
        from dpdesk.project.regression.rr_models import linear_regression

        result = linear_regression(project, spec.outcome or "", spec.rr_items, spec.predictors,
                                   reference=spec.reference, interactions=spec.interactions, center=spec.center,
                                   categorical=spec.categorical, numeric=spec.numeric, confidence=spec.confidence,
                                   dataset=spec.dataset)
        return linear_report(project, result, spec)
    multilevel = spec.model == "multilevel"
    if multilevel and not spec.cluster:
        from dpdesk.errors import DataError

        raise DataError("A multilevel model needs the column of clusters (school, firm, country).")
    result = regress(project, spec.item, spec.predictors, reference=spec.reference, interactions=spec.interactions,
                     center=spec.center, categorical=spec.categorical, numeric=spec.numeric,
                     confidence=spec.confidence, dataset=spec.dataset, progress=progress,
                     cluster=spec.cluster if multilevel else None, nagq=spec.nagq)
    return labelled_report(project, result, spec)


def linear_report(project, result, spec: RegressionSpec) -> RegressionReport:
    """The report of an RRlin fit (a ``rr_models.LinearResult``) in the project's labels."""
    from dpdesk.project.regression.model_reports import linear_parts
    from dpdesk.project.study.labels import Labels, item_label

    labels = Labels.from_stored(project.column_labels(result.dataset)) if result.dataset else Labels()
    items = {it.name: item_label(it, project.item_labels()) for it in project.items() if it.name in result.items}
    spec = RegressionSpec(**{**asdict(spec), "model": "linear", "item": "", "outcome": result.outcome,
                             "rr_items": list(result.items), "dataset": spec.dataset or result.dataset, "plot": None})
    parts = linear_parts(result, labels, items)
    report = RegressionReport(spec=spec, fit=result.to_dict(), **parts)
    return RegressionReport.from_dict(report.to_dict())


def text_labels(project, result: RegressionResult):
    """``(labels, item)``: the fit's dataset's column labels (a ``Labels``) and the item's short label or question."""
    from dpdesk.project.study.labels import Labels, item_label

    labels = Labels.from_stored(project.column_labels(result.dataset)) if result.dataset else Labels()
    item = next((it for it in project.items() if it.name == result.item), None)
    return labels, (item_label(item, project.item_labels()) if item else None)


def labelled_report(project, result: RegressionResult, spec: RegressionSpec) -> RegressionReport:
    """:func:`report_of` in the project's labels: its columns' labels and the item's short label or question."""
    return report_of(result, spec, *text_labels(project, result))


def report_of(result: RegressionResult, spec: RegressionSpec, labels=None,
              item: str | None = None) -> RegressionReport:
    """The report of a fit; terms and the title in ``labels`` (a ``Labels``) and the item's ``item`` label."""
    from dpdesk.project.study.labels import Labels

    from dpdesk.project.regression.model_reports import coefficient_parts

    labels = labels or Labels()
    f = result.fit
    conf = round(100 * f.confidence)
    survey = f.df is not None  # design-based: Wald t and F tests on the design df, no likelihood
    multilevel = result.cluster is not None and hasattr(f, "random_sd")
    stat = "t" if survey else "z"
    header = ["Predictor", "b", "SE", stat, "p", "OR", f"{conf}% CI"]
    cells, rows, forest = coefficient_parts(result, labels, stat, likelihood_ratio=not (survey or multilevel))
    if multilevel:
        return _multilevel_report(result, spec, labels, item, header, cells, rows, forest)
    nu = f.nuisance
    if survey:
        tests = _wald_tests(result, labels)
    else:
        tests = [{"test": f"{term_label(result, t.name, labels)} (all its levels)", "df": t.df, "chi2": t.chi2,
                  "p": t.p} for t in f.terms]
        tests += [{"test": _term_label(result, c.name, labels), "df": 1, "chi2": c.lr_chi2, "p": c.lr_p}
                  for c in f.coefficients if c.name != INTERCEPT]
        if f.model_test is not None:
            tests.insert(0, {"test": "model against the intercept only", "df": f.model_test.df,
                             "chi2": f.model_test.chi2, "p": f.model_test.p})
        if nu is not None and nu.null is not None:
            tests.append({"test": f"{nu.name} = {nu.null:g}", "df": 1, "chi2": nu.lr_chi2, "p": nu.lr_p})
    m, lo, hi = f.average_prevalence
    # a pseudo-likelihood has no log-likelihood, deviance, AIC or BIC to compare models by
    likelihood = [] if survey else [
        {"statistic": "log-likelihood", "value": f.loglik},
        {"statistic": "deviance", "value": f.deviance},
        {"statistic": "AIC", "value": f.aic},
        {"statistic": "BIC", "value": f.bic},
    ]
    statistics = [
        {"statistic": "n (rows used)", "value": f.n},
        {"statistic": "rows left out", "value": result.n_excluded},
        *likelihood,
        *([{"statistic": "design degrees of freedom", "value": f.df}] if survey else []),
        {"statistic": "parameters", "value": f.n_params},
        {"statistic": "iterations to converge", "value": f.iterations},
        {"statistic": "average predicted prevalence", "value": m},
        {"statistic": f"  {conf}% CI low", "value": lo},
        {"statistic": f"  {conf}% CI high", "value": hi},
    ]
    if f.n_direct:
        statistics.insert(1, {"statistic": "asked directly (group 0)", "value": f.n_direct})
    if nu is not None:
        statistics += [{"statistic": f"{nu.name} (nuisance)", "value": nu.estimate},
                       {"statistic": f"  {nu.name} {conf}% CI low", "value": nu.ci[0]},
                       {"statistic": f"  {nu.name} {conf}% CI high", "value": nu.ci[1]}]
    plot = spec.plot if spec.plot in [p.column for p in result.predictors] else _default_plot(result)
    spec = RegressionSpec(**{**asdict(spec), "plot": plot, "dataset": spec.dataset or result.dataset})
    design = ""
    if survey:
        design = f"{f.sample_design.describe()}; design df {f.df}"
        note = (f"Note. N = {f.n:,}. {design}. b: log-odds; OR = exp(b) with its {conf}% Wald interval on the "
                f"design degrees of freedom; t and p: Wald t tests on {f.df} design df; SEs from the {f.se_method}. "
                f"Weighted pseudo-maximum likelihood: likelihood-ratio tests, profile-likelihood intervals and "
                f"likelihood-based fit statistics are not valid with survey weights.")
    else:
        note = (f"Note. N = {f.n:,}. b: log-odds; OR = exp(b) with its {conf}% {f.ci_method} interval; z and p: "
                f"Wald tests; SEs from the {f.se_method}.")
    title = f"Logistic regression of {_title_words(item or result.item, result.design.summary or result.design.name)}"
    named = {p.column: labels.column(p.column) for p in result.predictors if labels.column(p.column) != p.column}
    report = RegressionReport(spec, title, header, cells, rows, tests, statistics, forest,
                              prevalence_curve(result, plot), sentences(result, labels, item),
                              report_text(result, labels, item), note, result.to_dict(), item or "", named, design)
    return RegressionReport.from_dict(report.to_dict())  # the same values as a saved one reads back


def _multilevel_report(result, spec, labels, item, header, cells, rows, forest) -> RegressionReport:
    """A random-intercept fit's report: the logistic table of fixed effects, the random SD in the statistics."""
    from dpdesk.project.regression.model_reports import multilevel_parts

    parts = multilevel_parts(result, labels, item)
    parts["title"] = (f"Multilevel logistic regression of "
                      f"{_title_words(item or result.item, result.design.summary or result.design.name)}, "
                      f"random intercept per {labels.column(result.cluster)}")
    spec = RegressionSpec(**{**asdict(spec), "model": "multilevel", "cluster": result.cluster, "plot": None,
                             "dataset": spec.dataset or result.dataset})
    named = {p.column: labels.column(p.column) for p in result.predictors if labels.column(p.column) != p.column}
    if labels.column(result.cluster) != result.cluster:
        named[result.cluster] = labels.column(result.cluster)
    report = RegressionReport(spec, parts["title"], header, cells, rows, parts["tests"], parts["statistics"], forest,
                              parts["curve"], sentences(result, labels, item), report_text(result, labels, item),
                              parts["note"], result.to_dict(), item or "", named, parts["design"])
    return RegressionReport.from_dict(report.to_dict())


def _wald_tests(result: RegressionResult, labels) -> list[dict]:
    """The design-based tests: Wald F on (k, design df) for the model and each term, t for the nuisance.

    Each row: ``test``, ``df`` (numerator), ``df2`` (the design df), ``F`` (``chi2 / df``),
    ``chi2`` (the Wald statistic, for the record) and ``p`` (from F, as ``regTermTest``).
    """
    from scipy.special import stdtr

    f = result.fit
    rows = [{"test": f"{term_label(result, t.name, labels)} (all its levels)", "df": t.df, "df2": f.df, "F": t.chi2 / t.df,
             "chi2": t.chi2, "p": t.p} for t in f.terms]
    if f.model_test is not None:
        mt = f.model_test
        rows.insert(0, {"test": "model against the intercept only", "df": mt.df, "df2": f.df, "F": mt.chi2 / mt.df,
                        "chi2": mt.chi2, "p": mt.p})
    nu = f.nuisance
    if nu is not None and nu.null is not None and np.isfinite(nu.z):
        rows.append({"test": f"{nu.name} = {nu.null:g}", "df": 1, "df2": f.df, "F": nu.z ** 2, "chi2": nu.z ** 2,
                     "p": float(2 * stdtr(f.df, -abs(nu.z)))})
    return rows


def _title_words(item: str, design: str) -> str:
    """``“In the last year, have you cheated?” (Forced response; Boruch 1971)``: a question in quotes, and the
    design's source after a semicolon rather than in parentheses inside parentheses."""
    name = quoted(item)
    head, sep, source = design.rpartition(" (")
    if sep and source.endswith(")") and "(" not in source:
        design = f"{head}; {source[:-1]}"
    return f"{name} ({design})"


def apa_p(p) -> str:
    """A p-value cell as APA writes it: ``.034``, ``< .001`` (no leading zero)."""
    return p_cell(p)


def _term_label(result: RegressionResult, name: str, labels=None) -> str:
    """``Q2[Law]`` -> ``Faculty: Law (vs Arts)`` in the columns' ``labels`` (``text.term_label``)."""
    return term_label(result, name, labels)


def _default_plot(result: RegressionResult) -> str:
    numeric = [p.column for p in result.predictors if p.kind == "numeric"]
    return (numeric or [p.column for p in result.predictors])[0]


def prevalence_curve(result: RegressionResult, predictor: str, points: int = CURVE_POINTS) -> dict:
    """Predicted prevalence across ``predictor`` with its CI, the other predictors at their means.

    The rows of ``regression.prediction_curve`` (as RRreg's ``plot.RRlog(center.preds =
    TRUE)``: a grid over a numeric predictor's observed range, or each level of a
    categorical one; delta-method CI on the logit scale), keyed for the plot and the table.
    """
    from dpdesk.project.regression.fit import prediction_curve

    kind = next((p.kind for p in result.predictors if p.column == predictor), "numeric")
    rows = [{predictor: r["value"], "estimate": r["estimate"], "CI low": r["low"], "CI high": r["high"]}
            for r in prediction_curve(result, predictor, points=points)]
    return {"predictor": predictor, "kind": kind, "rows": rows,
            "others": "other predictors at their sample means (as RRreg's plot.RRlog)"}


# ----------------------------------------------------------------------------- saved with the project


def save_report(project, report: RegressionReport) -> int:
    """Save the report as an analysis of its item (``Project.analyses`` lists it); a linear model (RR items as
    predictors, no item explained) as an analysis of no single item."""
    return project.save_analysis(report.spec.item or None, report.spec.to_dict(), report.to_dict())


def saved_reports(project) -> list[RegressionReport]:
    """The project's saved regressions, oldest first (those that no longer read are skipped)."""
    out = []
    for a in project.analyses():
        if isinstance(a.options, dict) and a.options.get("analysis") == ANALYSIS and isinstance(a.results, dict):
            try:
                out.append(RegressionReport.from_dict(a.results))
            except (KeyError, TypeError, ValueError):  # written by another version: leave it out, never guess
                continue
    return out


# ----------------------------------------------------------------------------- choosing predictors


def predictor_choices(table, exclude=()) -> list[dict]:
    """Each column that can be a predictor: ``{"column", "kind", "levels", "label", "labelled"}`` (levels of
    categories; the label as a chooser shows it, "Q3 — What is your gender?").

    ``kind`` as ``design_matrix`` detects it (numeric columns as they are, others as
    categories; ``labelled``: numeric codes that all have value labels, categorical by
    default but offered as numbers too); ``levels`` the distinct values of a categorical column (at most 50) as the
    reference choices, in the order the model uses. Columns in ``exclude`` (the item's own
    answers) and columns with a single value are left out.
    """
    from dpdesk.project.study.labels import labels_of
    from dpdesk.project.regression.fit import _column, _display, _labels, _level_order, value_labelled

    frame, report = table.frame, table.report
    out = []
    for col in frame.columns:
        if col in exclude:
            continue
        series, keys, blank, numeric = _column(frame, report, col)
        distinct = {k for k, b in zip(keys, blank) if not b}
        if len(distinct) < 2:
            continue
        levels: list[str] = []
        labelled = numeric and value_labelled(report, col, keys, blank)
        if len(distinct) <= 50:
            labels = _labels(report, col)
            shown = {}
            for k, b, raw in zip(keys, blank, series.tolist()):
                if not b and k not in shown:
                    shown[k] = labels.get(k, _display(raw))
            if labelled:  # in the order of the codes, the lowest (the default reference) first
                levels = list(dict.fromkeys(shown[k] for k in sorted(shown, key=float)))
            else:
                levels = sorted(set(shown.values()), key=_level_order)
        elif not numeric:
            continue  # free text or identifiers: too many levels to be a predictor
        out.append({"column": str(col), "kind": "numeric" if numeric and not labelled else "categorical",
                    "levels": levels, "label": labels_of(table).choice(col), "labelled": bool(labelled)})
    return out
