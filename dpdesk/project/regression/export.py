"""A regression in the results bundle: its own sheets, its metadata, and what the script refits.

``regression_bundle(project, report)`` is a bundle with the sheets "Regression" (one row
per coefficient, full precision: b, SE, z, p, profile and Wald intervals, odds ratio with
its interval, the likelihood-ratio test of dropping it) and "Regression tests" (the
likelihood-ratio tests and the fit statistics), the metadata (data file, fingerprint of the
columns used, the model as specified, rows left out), and ``regressions``: the model and
its coefficients, which the reproducibility script refits from the project file and checks
(``repro.check_regressions``). :func:`add_regression` adds the same to another bundle
(the Export view's workbook of every result).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dpdesk import __version__
from dpdesk.project.analysis import review
from dpdesk.project.study.active import dataset_named
from dpdesk.project.export.model import ResultsBundle
from dpdesk.project.regression.report import RegressionReport

SHEET = "Regression"
TESTS_SHEET = "Regression tests"


def _open_ended(row: dict) -> dict:
    """A saved row keeps an infinite limit as None: b's limit is -inf where the OR's is 0, +inf where it is open."""
    row = dict(row)
    if row.get("CI low (b)") is None and row.get("CI low (OR)") == 0:
        row["CI low (b)"] = float("-inf")
    if row.get("CI high (b)") is None and row.get("b") is not None:
        row["CI high (b)"] = float("inf")
    if row.get("CI high (OR)") is None and row.get("CI high (b)") == float("inf"):
        row["CI high (OR)"] = float("inf")
    return row


#: A saved report's column names as a reader sees them in the workbook.
HEADERS = {"LR chi2": "LR χ²", "SE": "SE (b)"}  # "SE (b)": a log-odds SE, never a share in %


def _headed(row: dict) -> dict:
    return {HEADERS.get(k, k): v for k, v in row.items()}


def regression_tables(report: RegressionReport) -> dict[str, list[dict]]:
    """The sheets "Regression" (a row per coefficient, full precision) and "Regression tests" (the tests, then the
    fit statistics: a multilevel model's random-intercept SD, a linear model's residual SD and prevalences)."""
    tests = [{"test or statistic": t["test"] + (f" (Wald F on {t['df']} and {t['df2']} design df)" if "F" in t else ""),
              "df": t["df"], "value": t.get("F", t["chi2"]), "p": t["p"]} for t in report.tests]
    tests += [{"test or statistic": s["statistic"].strip(), "df": None, "value": s["value"], "p": None}
              for s in report.statistics]
    return {SHEET: [_headed(_open_ended(r)) for r in report.coefficients], TESTS_SHEET: tests}


def regression_metadata(report: RegressionReport) -> dict[str, Any]:
    spec, fit = report.spec, report.fit
    if spec.model == "linear":
        return _linear_metadata(report)
    preds = []
    for p in fit["predictors"]:
        if p["kind"] == "categorical":
            why = "categorical: its codes have value labels" if p.get("labelled") else "categorical"
            preds.append(f"{p['column']} ({why}, reference {p['reference']})")
        else:
            # rounded as in the coefficient's label ("age (centred at 28.20)"); the exact mean is refitted
            preds.append(p["column"] + (f" (centred at its mean, {p['centre']:.2f})" if p["centre"] is not None
                                        else ""))
    left = [f"{fit['excluded_answers']:,} without a usable answer"] if fit["excluded_answers"] else []
    left += [f"{k:,} without {c}" for c, k in fit["excluded_covariates"].items()]
    model = fit["fit"]
    out = {
        "outcome": f"{spec.item}: {fit['question']}" if fit.get("question") else spec.item,
        "model": "logistic regression with a randomized-response outcome (van den Hout, van der Heijden & "
                 "Gilchrist 2007, CSDA 51:6060-6069; as RRreg's RRlog)",
        "predictors": preds,
        "interactions": list(spec.interactions) or "none",
        "rows used": f"{fit['n_used']:,} of {fit['n_rows']:,}",
        "rows left out": "; ".join(left) or "none",
        "intervals": f"{model['ci_method']} ({round(100 * model['confidence'])}%)",
        "standard errors": model["se_method"],
        "converged": f"yes, after {model['iterations']} iterations",
    }
    if spec.model == "multilevel":
        from dpdesk.project.regression.model_reports import quadrature

        nagq = int(model.get("nagq") or 1)
        out.update({
            "model": "multilevel logistic regression with a randomized-response outcome and a random intercept per "
                     "cluster (as RRreg's RRmixed, Heck & Moshagen 2018, JSS 85(2); fitted as lme4's glmer, Bates et "
                     "al. 2015, JSS 67(1))",
            "clusters": f"{model.get('n_clusters', 0):,} values of {fit.get('cluster') or spec.cluster}",
            "marginal likelihood": f"{quadrature(nagq)} (nAGQ = {nagq})",
            "converged": "yes",
        })
    return out


def _linear_metadata(report: RegressionReport) -> dict[str, Any]:
    """A linear model with RR predictors (RRlin): outcome, RR items, covariates, rows, the fitting."""
    spec, fit = report.spec, report.fit
    preds = [p["column"] + (f" (categorical, reference {p['reference']})" if p["kind"] == "categorical" else
                            f" (centred at its mean, {p['centre']:.2f})" if p.get("centre") is not None else "")
             for p in fit.get("predictors", [])]
    left = "; ".join(f"{k:,} without {c}" for c, k in (fit.get("excluded") or {}).items()) or "none"
    return {
        "outcome": fit["outcome"],
        "model": "linear regression with randomized-response items as predictors (van den Hout & Kooiman 2006, "
                 "CSDA 50:3311-3323; as RRreg's RRlin, Heck & Moshagen 2018, JSS 85(2))",
        "RR predictors (true states 0/1)": list(fit.get("rr_items", spec.rr_items)),
        "covariates": preds or "none",
        "interactions": list(spec.interactions) or "none",
        "rows used": f"{fit['n_used']:,} of {fit['n_rows']:,}",
        "rows left out": left,
        "intervals": f"Wald ({round(100 * fit['confidence'])}%)",
        "standard errors": "inverse observed information",
    }


def regression_repro(report: RegressionReport) -> dict[str, Any]:
    """The model as ``regress`` takes it, with the coefficients the script must find again."""
    spec = report.spec
    model = report.fit.get("fit") if spec.model != "linear" else report.fit
    extra = {} if spec.model == "logistic" else {
        "model": spec.model, "cluster": spec.cluster, "nagq": spec.nagq, "outcome": spec.outcome,
        "rr_items": list(spec.rr_items)}  # a logistic model's script stays as before
    return {**extra, "item": spec.item, "predictors": list(spec.predictors), "reference": dict(spec.reference),
            "interactions": list(spec.interactions), "center": list(spec.center),
            "categorical": list(spec.categorical), "numeric": list(spec.numeric), "confidence": spec.confidence,
            "dataset": spec.dataset or report.fit.get("dataset"), "loglik": model["loglik"],
            "coefficients": [[r.get("term code", r["term"]), r["b"], r["SE"], r["CI low (b)"], r["CI high (b)"]]
                             for r in report.coefficients]}


def add_regression(bundle: ResultsBundle, report: RegressionReport) -> ResultsBundle:
    """Add the regression's sheets, metadata and refit check to ``bundle`` (in place; returned)."""
    bundle.tables.update(regression_tables(report))
    bundle.metadata["regression"] = regression_metadata(report)
    bundle.regressions = list(bundle.regressions or []) + [regression_repro(report)]
    return bundle


def regression_bundle(project, report: RegressionReport) -> ResultsBundle:
    """A bundle of the regression alone (``dpdesk regress --export``, the Regression view's Export)."""
    import datetime as dt

    spec = report.spec
    ds = dataset_named(project, spec.dataset)
    items = [project.item(name, ds.name) for name in (spec.rr_items if spec.model == "linear" else [spec.item])]
    columns = sorted({c for item in items for c in (item.column, item.group_column) if c} | set(spec.predictors)
                     | {c for c in (spec.cluster if spec.model == "multilevel" else None, spec.outcome) if c})
    metadata: dict[str, Any] = {
        "app": f"dpdesk {__version__}",
        "exported": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "project": Path(str(project.path)).name,  # the file name: no folder of the user's in an export
        "dataset": ds.name,
        "input file": (ds.source or {}).get("name"),
        "input SHA-256": (ds.source or {}).get("sha256"),
        "import options": review.import_metadata(ds),
        **review.fingerprint_metadata(project.dataset_frame(ds.name), columns),
        "item mappings": {item.name: review.mapping_entry(item, item.design) for item in items},
    }
    bundle = ResultsBundle(tables={}, metadata=metadata, repro=[], project_file=str(project.path))
    return add_regression(bundle, report)
