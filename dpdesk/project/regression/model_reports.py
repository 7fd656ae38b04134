"""The parts of a report that differ by model: the logistic coefficient rows, a multilevel fit's, a linear one's.

:func:`coefficient_parts` gives the APA cells, full-precision rows and forest-plot rows of a
logistic fit (also the fixed effects of a multilevel one); :func:`multilevel_parts` and
:func:`linear_parts` the tests, statistics, sentences, text and note of a random-intercept
logistic model (RRmixed) and of a linear model with RR predictors (RRlin), as a dict of
:class:`.report.RegressionReport` fields, which ``report`` assembles (this module never
imports it back).
"""

from __future__ import annotations

import math

from dpdesk.project.regression.fit import INTERCEPT, RegressionResult
from dpdesk.project.regression.text import limit, num, p_cell, quoted, term_label


def coefficient_parts(result: RegressionResult, labels, stat: str, likelihood_ratio: bool):
    """``(cells, rows, forest)`` of a logistic fit: b, SE, z (or t), p, OR and its interval per coefficient."""
    f = result.fit
    cells, rows, forest = [], [], []
    for c in f.coefficients:
        lo, hi = c.odds_ratio_ci
        label = term_label(result, c.name, labels)
        cells.append([label, num(c.estimate), num(c.se), num(c.z), p_cell(c.p), num(c.odds_ratio),
                      f"[{limit(lo)}, {limit(hi)}]"])
        row = {"term": label, "term code": c.name, "b": c.estimate, "SE": c.se, stat: c.z, "p": c.p,
               "CI low (b)": c.ci[0], "CI high (b)": c.ci[1], "OR": c.odds_ratio, "CI low (OR)": lo,
               "CI high (OR)": hi, "Wald CI low (b)": c.wald_ci[0], "Wald CI high (b)": c.wald_ci[1]}
        if likelihood_ratio:
            row.update({"LR chi2": c.lr_chi2, "p (LR)": c.lr_p})
        rows.append(row)
        if c.name != INTERCEPT:
            forest.append({"term": label, "OR": c.odds_ratio, "CI low": lo, "CI high": hi})
    return cells, rows, forest


# ----------------------------------------------------------------------------- multilevel (RRmixed)


def quadrature(nagq: int) -> str:
    """How the marginal likelihood was integrated, in words."""
    return "the Laplace approximation" if nagq == 1 else f"adaptive Gauss-Hermite quadrature with {nagq} points"


def multilevel_parts(result: RegressionResult, labels, item: str | None) -> dict:
    """Tests, statistics, note and curve of a random-intercept fit (``result.cluster`` names the clusters).

    The fixed effects keep the logistic table (b, SE, Wald z and p, OR with its Wald interval;
    there are no likelihood-ratio tests of single terms, as RRmixed); the random intercept's SD
    (log-odds scale) with its SE and interval, the number of clusters and the marginal
    log-likelihood go to the statistics. There is no prevalence curve: a prediction needs a
    cluster's random intercept.
    """
    f = result.fit
    conf = round(100 * f.confidence)
    sd, sd_se, (sd_lo, sd_hi) = f.random_sd
    cluster = labels.column(result.cluster) if labels is not None else result.cluster
    statistics = [
        {"statistic": "n (rows used)", "value": f.n},
        {"statistic": "clusters", "value": f.n_clusters},
        {"statistic": "rows left out", "value": result.n_excluded},
        {"statistic": f"marginal log-likelihood ({quadrature(f.nagq)})", "value": f.loglik},
        {"statistic": "deviance", "value": f.deviance},
        {"statistic": "AIC", "value": f.aic},
        {"statistic": "BIC", "value": f.bic},
        {"statistic": "parameters", "value": f.n_params},
        {"statistic": f"random intercept SD ({cluster})", "value": sd},
        {"statistic": "  random intercept SD, SE", "value": sd_se},
        {"statistic": f"  random intercept SD, {conf}% CI low", "value": sd_lo},
        {"statistic": f"  random intercept SD, {conf}% CI high", "value": sd_hi},
        {"statistic": "average predicted prevalence (over the random intercepts)", "value": f.average_prevalence[0]},
    ]
    if math.isfinite(sd_se) and math.isfinite(sd_hi):
        random = f"SD {num(sd)} on the log-odds scale, {conf}% CI [{num(sd_lo)}, {num(sd_hi)}]"
    else:
        random = (f"SD {num(sd)}, on the boundary (no variation between clusters): it has no SE or interval, and "
                  f"the fixed effects are those of the logistic model")
    note = (f"Note. N = {f.n:,} in {f.n_clusters:,} clusters ({cluster}). Fixed effects: b, log-odds within a "
            f"cluster; OR = exp(b) with its {conf}% Wald interval; z and p: Wald tests; SEs from the {f.se_method}. "
            f"Random intercept: {random}. Marginal log-likelihood by {quadrature(f.nagq)}.")
    return {"tests": [], "statistics": statistics, "note": note, "title": f"Multilevel logistic regression, {cluster}",
            "curve": {}, "design": ""}


def random_effect(report) -> dict | None:
    """A saved multilevel report's random intercept: ``{"cluster", "clusters", "sd", "se", "low", "high"}``."""
    fit = (report.fit or {}).get("fit") or {}
    if not isinstance(fit, dict) or "random_sd" not in fit:
        return None
    rsd = fit["random_sd"] or {}
    ci = rsd.get("ci") or [None, None]
    return {"cluster": report.spec.cluster or (report.fit or {}).get("cluster"), "clusters": fit.get("n_clusters"),
            "sd": rsd.get("estimate"), "se": rsd.get("se"), "low": ci[0], "high": ci[1], "nagq": fit.get("nagq", 1)}


# ----------------------------------------------------------------------------- linear (RRlin)


def linear_parts(result, labels, item_labels: dict[str, str], outcome_label: str | None = None) -> dict:
    """Every report field of an RRlin fit (a :class:`.rr_models.LinearResult`) but ``spec`` and ``fit``.

    Columns: b (change in the outcome per unit, an RR item: having the attribute against not), SE
    (inverse observed information), z, p and the Wald interval of b. Statistics: rows, sigma (ML)
    with its SE, log-likelihood, each RR item's estimated prevalence.
    """
    from dpdesk.project.regression.rr_text import linear_text

    f = result.fit
    conf = round(100 * f.confidence)
    name = labels.column if labels is not None else str
    y = outcome_label or name(result.outcome)
    items = set(result.items)

    def label(code: str) -> str:
        if code in items:
            return f"{item_labels.get(code) or code} (true \u2018yes\u2019)"
        return term_label(result, code, labels)

    header = ["Predictor", "b", "SE", "z", "p", f"{conf}% CI"]
    cells, rows = [], []
    for c in f.coefficients:
        cells.append([label(c.name), num(c.estimate), num(c.se), num(c.z), p_cell(c.p),
                      f"[{num(c.ci[0])}, {num(c.ci[1])}]"])
        rows.append({"term": label(c.name), "term code": c.name, "b": c.estimate, "SE": c.se, "z": c.z, "p": c.p,
                     "CI low (b)": c.ci[0], "CI high (b)": c.ci[1], "RR item": c.name in items})
    statistics = [{"statistic": "n (rows used)", "value": f.n},
                  {"statistic": "rows left out", "value": result.n_rows - result.n_used},
                  {"statistic": "residual SD (sigma, ML)", "value": f.sigma},
                  {"statistic": "  residual SD, SE", "value": f.sigma_se},
                  {"statistic": "log-likelihood", "value": f.loglik},
                  {"statistic": "parameters", "value": len(f.coefficients) + 1 + (2 ** len(items) - 1)}]
    for code, (est, se) in f.prevalence.items():
        statistics += [{"statistic": f"prevalence of {item_labels.get(code) or code}", "value": est},
                       {"statistic": f"  prevalence of {item_labels.get(code) or code}, SE", "value": se}]
    sentences = []
    for c in f.coefficients:
        if c.name == INTERCEPT:
            continue
        ci = f"({conf}% CI {num(c.ci[0])} to {num(c.ci[1])})"
        if c.name in items:
            sentences.append(f"Respondents whose true answer to {quoted(item_labels.get(c.name) or c.name)} is 'yes' "
                             f"score {num(abs(c.estimate))} {'higher' if c.estimate >= 0 else 'lower'} on {y}, "
                             f"the other predictors held constant (b = {num(c.estimate)}, {ci[1:-1]}).")
        else:
            sentences.append(f"Each unit of {label(c.name)} goes with a change of {num(c.estimate)} in {y} {ci}.")
    sentences.append(f"The residual SD is {num(f.sigma)} (SE {num(f.sigma_se)}).")
    parts = [f"{k:,} had no usable answer to {quoted(item_labels.get(n) or n)}" if n in items else
             f"{k:,} no value of {name(n)}" for n, k in result.excluded.items()]
    sentences.append(f"{result.n_used:,} of {result.n_rows:,} rows were used" + (f"; {', '.join(parts)}." if parts
                                                                                   else "."))
    note = (f"Note. N = {f.n:,}. Linear regression of {y} on the true states (0/1) of the randomized-response "
            f"item(s) and the observed covariates, fitted by maximum likelihood with the items' joint distribution "
            f"(as RRreg's RRlin). b: change in {y} per unit; SEs from the inverse observed information; z, p and the "
            f"{conf}% intervals: Wald. Residual SD sigma = {num(f.sigma)} (maximum likelihood).")
    if f.notes:  # a nuisance fixed at its univariate estimate, patterns held at 0: said where the SEs are read
        note += " " + " ".join(f.notes)
    shown = [quoted(item_labels.get(i) or i) for i in result.items]
    title = (f"Linear regression of {y} on the randomized-response item{'s' * (len(shown) > 1)} {', '.join(shown)}"
             if len(", ".join(shown)) <= 80 else f"Linear regression of {y} on {len(shown)} randomized-response items")
    return {"title": title, "header": header, "cells": cells, "coefficients": rows, "tests": [],
            "statistics": statistics, "forest": [], "curve": {}, "sentences": sentences,
            "text": linear_text(result), "note": note, "item_label": y, "design": "",
            "column_labels": {p.column: name(p.column) for p in result.predictors if name(p.column) != p.column}}
