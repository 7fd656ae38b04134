"""Saved multilevel and linear regressions and corrected correlations in the report and the methods text.

A multilevel logistic regression (RRmixed) keeps the logistic coefficient table and gets a
random-effects table (the SD of the random intercepts with its SE and interval, the
clusters, the marginal log-likelihood) instead of likelihood-ratio tests; a linear model
with RR predictors (RRlin) gets its table of b, SE, z, p and the interval, and a table of
the residual SD and each item's estimated prevalence; a correlation analysis (RRcor) its
APA matrix (lower triangle, stars) and one row per pair with the bootstrap SE and p. Each
gets a methods paragraph that cites its sources (Heck & Moshagen, 2018; van den Hout &
Kooiman, 2006; Fox & Tracy, 1984; Bates et al., 2015) and says what the model assumes.
"""

from __future__ import annotations

import html

from dpdesk.project.number_style import NumberStyle
from dpdesk.project.regression.correlation_report import latest_correlations, r_cell, short_list
from dpdesk.project.regression.model_reports import quadrature, random_effect
from dpdesk.project.regression.text import quoted
from dpdesk.project.report.model import Cell, Column, Row, Section, Table


def _and(words) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = list(words)
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + (words[-1] if words else "")


def _note(text: str) -> str:
    return html.escape(text, quote=False).replace("Note.", "<i>Note.</i>", 1)


def _value(x, fmt) -> Cell:
    return Cell("n/a", None) if x is None else Cell(fmt(x), x)


def _interval(lo, hi) -> Cell:
    if lo is None or hi is None:
        return Cell("n/a", (lo, hi))
    return Cell(f"[{NumberStyle.estimate(lo)}, {NumberStyle.estimate(hi)}]", (lo, hi))


# ----------------------------------------------------------------------------- multilevel


def random_effects_table(report, i: int) -> Table:
    """The random intercept of a multilevel fit: cluster column, clusters, SD, SE, interval; the likelihood."""
    eff = random_effect(report) or {}
    conf = f"{100 * report.spec.confidence:g}%"
    cluster = report.column(eff.get("cluster") or "")
    loglik = next((s["value"] for s in report.statistics if s["statistic"].startswith("marginal log-likelihood")), None)
    rows = [Row([Cell(f"Intercept | {cluster}"), _value(eff.get("clusters"), NumberStyle.count),
                 _value(eff.get("sd"), NumberStyle.estimate), _value(eff.get("se"), NumberStyle.estimate),
                 _interval(eff.get("low"), eff.get("high"))])]
    notes = [f"The SD of the clusters' random intercepts on the log-odds scale, with its {conf} interval (Wald on "
             f"the log of the SD). Marginal log-likelihood"
             f"{f' {NumberStyle.estimate(loglik)}' if loglik is not None else ''}, by "
             f"{quadrature(int(eff.get('nagq') or 1))} (as lme4's glmer)."]
    if eff.get("se") is None and eff.get("sd") is not None:
        notes.append("The SD is on the boundary (no variation between clusters): it has no SE.")
    return Table(f"regression-random:{i}", f"Random intercept of the regression of {quoted(report.outcome)}",
                 [Column("Random effect", numeric=False), Column("Clusters"), Column("SD", italic=True),
                  Column("SE", italic=True), Column(f"{conf} CI")], rows, notes=notes)


# ----------------------------------------------------------------------------- linear


def linear_tables(report, i: int) -> list[Table]:
    """The coefficient table (b, SE, z, p, CI) and the residual SD with each RR item's prevalence."""
    est = NumberStyle.estimate
    columns = [Column(report.header[0], numeric=False)] + [
        Column(h, italic=h in ("b", "SE", "z", "p")) for h in report.header[1:]]
    rows = []
    for cells, c in zip(report.cells, report.coefficients):
        rows.append(Row([Cell(cells[0]), _value(c["b"], est), _value(c["SE"], est), _value(c.get("z"), est),
                         _value(c["p"], NumberStyle.p), _interval(c.get("CI low (b)"), c.get("CI high (b)"))]))
    coefficients = Table(f"regression:{i}", report.title, columns, rows, notes=[_note(report.note)])
    stats = {s["statistic"]: s["value"] for s in report.statistics}
    extra = [Row([Cell("Residual SD (σ)"), _value(stats.get("residual SD (sigma, ML)"), est),
                  _value(stats.get("  residual SD, SE"), est)])]
    for s in report.statistics:
        if s["statistic"].startswith("prevalence of "):
            name = s["statistic"][len("prevalence of "):]
            extra.append(Row([Cell(f"Prevalence: {quoted(name)}"), _value(s["value"], est),
                              _value(stats.get(f"  prevalence of {name}, SE"), est)]))
    other = Table(f"regression-linear-parts:{i}", f"Residual SD and prevalence in the regression of "
                  f"{quoted(report.outcome)}", [Column("Parameter", numeric=False), Column("Estimate"),
                                               Column("SE", italic=True)], extra,
                  notes=["Maximum-likelihood estimates, fitted with the coefficients: the residual SD of the "
                         "outcome, and each randomized-response item's prevalence (a proportion)."])
    return [coefficients, other]


# ----------------------------------------------------------------------------- correlations


def correlation_tables(report, i: int) -> list[Table]:
    """The APA matrix (lower triangle, stars) and one row per pair with r, bootstrap SE and p."""
    columns = [Column("Variable", numeric=False)] + [Column(h) for h in report.header[1:]]
    rows = []
    for a, cells in enumerate(report.cells):
        rows.append(Row([Cell(cells[0])] + [Cell(text, report.r[a][b] if b < a else None)
                                            for b, text in enumerate(cells[1:])]))
    matrix = Table(f"correlations:{i}", report.title, columns, rows, notes=[_note(report.note)])
    number = {name: k + 1 for k, name in enumerate(report.names)}
    pair_rows = [Row([Cell(f"{number[p['name 1']]}–{number[p['name 2']]}"), _value(p["r"], r_cell),
                      _value(p["SE (bootstrap)"], NumberStyle.estimate),
                      _value(p["p (bootstrap)"], NumberStyle.p)]) for p in report.pairs]
    pairs = Table(f"correlation-pairs:{i}", "Corrected correlations with their bootstrap SEs and p-values",
                  [Column("Pair", numeric=False), Column("r", italic=True), Column("SE", italic=True),
                   Column("p", italic=True)], pair_rows,
                  notes=["Variables numbered as in the correlation matrix above. " +
                         (f"SE and p from {report.spec.bootstrap:,} bootstrap resamples of the respondents."
                          if report.spec.bootstrap else "No bootstrap: no SEs or p-values.")])
    return [matrix, pairs]


def correlation_sections(project) -> list[Section]:
    """One section per saved set of corrected correlations (the latest of each)."""
    out = []
    for i, report in enumerate(latest_correlations(project), 1):
        rr = [str(k + 1) for k, kind in enumerate(report.kinds) if kind == "rr item"]
        lead = (f"Correlations of {len(report.labels)} variables on {report.n:,} respondents"
                + (f"; those with the randomized-response item{'s' * (len(rr) > 1)} ({_and(rr)}) are corrected for "
                   f"the randomization." if rr else "."))
        out.append(Section(f"correlations:{i}", "Correlations" + short_list(report.labels),
                           [html.escape(lead, quote=False)], correlation_tables(report, i)))
    return out


# ----------------------------------------------------------------------------- methods


def multilevel_paragraph(report, c) -> str:
    """Model, fitting, citations and assumptions of a saved multilevel logistic regression."""
    eff = random_effect(report) or {}
    spec = report.spec
    n = next((s["value"] for s in report.statistics if s["statistic"] == "n (rows used)"), None)
    preds = ", ".join(report.column(p) for p in spec.predictors)
    preds = f"the predictors {preds}" if preds else "the intercept alone (no predictors)"
    conf = f"{100 * spec.confidence:g}%"
    return (
        f"The probability of a true 'yes' to {quoted(report.outcome)} was modelled by a multilevel logistic "
        f"regression with a randomized-response outcome ({c('vandenhout2007')}) and a random intercept per "
        f"{report.column(eff.get('cluster') or spec.cluster or '')} ({eff.get('clusters') or 0:,} clusters), with "
        f"{preds}, as RRreg's RRmixed ({c('heck2018')}). The marginal likelihood was maximised "
        f"with {quadrature(int(eff.get('nagq') or 1))} of the integral over the random intercepts, as lme4's glmer "
        f"({c('bates2015')}), on {n:,} respondents; fixed effects are reported as odds ratios with {conf} Wald "
        f"intervals, and the SD of the random intercepts with a {conf} interval. The model assumes normally "
        f"distributed random intercepts, independent of the predictors, and respondents independent within and "
        f"between clusters given them; it is fitted for one-group designs only (a two-group design such as the "
        f"stochastic lie detector or the cheating detection model is refused with random intercepts, as in RRmixed).")


def linear_paragraph(report, c) -> str:
    """Model, fitting, citations and assumptions of a saved linear regression with RR predictors."""
    spec, fit = report.spec, report.fit or {}
    items = [quoted(s["statistic"][len("prevalence of "):]) for s in report.statistics
             if s["statistic"].startswith("prevalence of ")]
    covs = ", ".join(report.column(p) for p in spec.predictors)
    conf = f"{100 * spec.confidence:g}%"
    return (
        f"The outcome {report.outcome} was regressed on the true states of the randomized-response item(s) "
        f"{', '.join(items)}{f' and the covariates {covs}' if covs else ''} by maximum likelihood, the items' true "
        f"states being latent and their joint distribution estimated with the coefficients "
        f"({c('vandenhout2006')}), as RRreg's RRlin ({c('heck2018')}), on {fit.get('n_used', 0):,} respondents; "
        f"coefficients are reported with standard errors from the observed information and {conf} Wald intervals. "
        f"The model assumes normally distributed errors with a constant variance, and a joint distribution of the "
        f"items' true states that does not depend on the covariates.")


def correlation_paragraph(report, c) -> str:
    """Method, citations and assumptions of a saved correlation analysis."""
    rr = [quoted(lab) for lab, kind in zip(report.labels, report.kinds) if kind == "rr item"]
    boot = (f"Standard errors and p-values come from {report.spec.bootstrap:,} bootstrap resamples of the "
            f"respondents ({c('efron1993')})" if report.spec.bootstrap else "No bootstrap was run")
    return (
        f"Correlations involving the randomized-response item(s) {', '.join(rr) or '(none)'} were corrected for "
        f"the randomization ({c('foxtracy1984')}), as RRreg's RRcor ({c('heck2018')}), on {report.n:,} "
        f"respondents. {boot}. The correction assumes that the randomization is independent of the other "
        f"variables and of the true answers, so that it only adds noise, and that respondents follow the "
        f"instructions.")


def model_paragraph(report, c) -> str | None:
    """The methods paragraph of a multilevel or linear saved regression; None for a logistic one."""
    if report.spec.model == "multilevel":
        return multilevel_paragraph(report, c)
    if report.spec.model == "linear":
        return linear_paragraph(report, c)
    return None


def correlation_paragraphs(project, c) -> list[str]:
    return [correlation_paragraph(r, c) for r in latest_correlations(project)]
