"""Words and APA-style tables for a regression result (shared by the CLI, report and app).

"Each additional year of age multiplies the odds of a true 'yes' to exam_cheating by 0.84
(95% CI 0.69 to 0.99)." Numbers follow the APA manual (7th ed., 6.36): p without a
leading zero and "< .001" below it, odds ratios and coefficients to two decimals.
"""

from __future__ import annotations

import math

from dpdesk.project.regression.fit import RegressionResult
from dpdesk.project.number_style import NumberStyle, separation_note

_UNITS = {"age": "year of age", "year": "year of study", "years": "year"}


def p_text(p: float) -> str:
    """``p < .001``, ``p = .043``, ``p = 1``."""
    if p is None or not math.isfinite(p):
        return "p = n/a"
    if p < 0.001:
        return "p < .001"
    text = f"{p:.3f}"
    return "p = " + (text[1:] if text.startswith("0") else text)


def p_cell(p: float) -> str:
    """A p-value for a table cell: ``< .001``, ``.043`` (APA, as the report's tables)."""
    return p_text(p)[2:].replace("= ", "") if p is not None and math.isfinite(p) else "n/a"


def num(x: float, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:,.{digits}f}"


def limit(x: float, digits: int = 2) -> str:
    """A confidence limit of an odds ratio: ``> 1,000`` beyond 1,000 and ``< 0.001`` below its inverse (they
    signal separation), never ``1.47e+04``: ``project.number_style.NumberStyle.limit``, as the report's tables."""
    return NumberStyle.limit(x, digits)


def pct(x: float, style=None) -> str:
    """A share in a sentence in the number style (default percent, one decimal): ``52.0%``, or ``.520``."""
    from dpdesk.project.number_style import DEFAULT

    return "n/a" if x is None or not math.isfinite(x) else (style or DEFAULT).share_in_text(x)


def _interval(lo: float, hi: float, digits: int = 2) -> str:
    return f"{limit(lo, digits)} to {limit(hi, digits)}"


def quoted(item: str) -> str:
    """An item's label in running text: a question in quotation marks ("Have you ...?"), a short label as it is."""
    item = str(item)
    return f"\u201c{item}\u201d" if item.rstrip().endswith("?") else item


def _outcome(res: RegressionResult, item: str | None = None) -> str:
    """``a true 'yes' to Copying``: the item as output names it (``item``: its short label or question)."""
    return f"a true 'yes' to {quoted(item or res.item)}"


def labelled_note(res: RegressionResult, name=str) -> str | None:
    """Which predictors entered as categories because their numeric codes have value labels, and how not to."""
    shown = [p for p in res.predictors if p.kind == "categorical" and p.labelled]
    if not shown:
        return None
    which = "; ".join(f"{name(p.column)} has a value label for every code, so it enters as categories, each "
                      f"compared with {p.reference} (its lowest code)" for p in shown)
    codes = " ".join(p.column for p in shown)
    return (f"{which}. To use the codes as numbers instead, choose Treat as: numeric (command line: the numeric "
            f"option with {codes}).")


def design_based(res: RegressionResult) -> bool:
    """A fit with a survey design: Wald t and F tests on the design df, no likelihood-ratio tests."""
    return res.fit.df is not None


def multilevel(res: RegressionResult) -> bool:
    """A fit with a random intercept per cluster (RRmixed): Wald tests only, a random SD, a marginal likelihood."""
    return hasattr(res.fit, "random_sd")


def random_intercept_line(res: RegressionResult) -> str:
    """``Random intercept (school): SD 0.62 (SE 0.10; 95% CI 0.45 to 0.86), 40 clusters.``"""
    f = res.fit
    est, se, (lo, hi) = f.random_sd
    se_text = "on the boundary: no variation between clusters" if not math.isfinite(se) else f"SE {num(se)}"
    return (f"Random intercept ({res.cluster}): SD {num(est)} on the log-odds scale ({se_text}; "
            f"{round(100 * f.confidence)}% CI {_interval(lo, hi)}), {f.n_clusters:,} clusters.")


def _f_test(t, df: int) -> str:
    return f"Wald F({t.df}, {df}) = {num(t.chi2 / t.df)}, {p_text(t.p)}"


def term_label(res: RegressionResult, code: str, labels=None) -> str:
    """``Q2[Law]`` -> ``Faculty: Law (vs Arts)`` in the columns' ``labels``; ``age:Q4[Male]`` -> ``Age × Gender: Male``."""
    name = labels.column if labels is not None else str
    for p in res.predictors:
        if p.kind == "categorical" and code in p.columns:
            return f"{name(p.column)}: {code[len(p.column) + 1:-1]} (vs {p.reference})"
        if p.kind == "numeric" and code == p.column:
            return name(p.column) + (f" (centred at {p.centre:.2f})" if p.centre is not None else "")
    return code if code == "(Intercept)" else _interaction(code, name)


def coefficient_lines(res: RegressionResult, labels=None) -> list[list[str]]:
    """Rows of the coefficient table as text: term, b, SE, z, p, OR, CI of the OR, LR chi2, p.

    With a survey design: t (on the design df) instead of z, and no likelihood-ratio columns.
    """
    conf = round(100 * res.fit.confidence)
    survey = design_based(res)
    wald_only = survey or multilevel(res)
    rows = [["Term", "b", "SE", "t" if survey else "z", "p", "OR", f"{conf}% CI (OR)"]
            + ([] if wald_only else ["LR χ²", "p (LR)"])]
    for c in res.fit.coefficients:
        lo, hi = c.odds_ratio_ci
        rows.append([term_label(res, c.name, labels), num(c.estimate), num(c.se), num(c.z), p_cell(c.p), num(c.odds_ratio),
                     f"[{limit(lo)}, {limit(hi)}]"] + ([] if wald_only else [num(c.lr_chi2), p_cell(c.lr_p)]))
    return rows


def sentences(res: RegressionResult, labels=None, item: str | None = None, style=None) -> list[str]:
    """Plain sentences: one per coefficient (except the intercept), the model test, the nuisance.

    Columns are named by their ``labels`` (a :class:`dpdesk.project.study.labels.Labels`) when given,
    the outcome by ``item`` (its short label or question; default its name).
    """
    name = labels.column if labels is not None else str
    outcome = _outcome(res, item)
    fit = res.fit
    conf = f"{round(100 * fit.confidence)}% CI"
    by_col = {col: p for p in res.predictors for col in p.columns}
    out = []
    for c in fit.coefficients:
        if c.name == "(Intercept)":
            continue
        lo, hi = c.odds_ratio_ci
        ci = f"({conf} {_interval(lo, hi)})"
        p = by_col.get(c.name)
        if p is not None and p.kind == "numeric":
            unit = _UNITS.get(p.column.lower(), f"unit of {name(p.column)}")
            out.append(f"Each additional {unit} multiplies the odds of {outcome} by {num(c.odds_ratio)} {ci}.")
        elif p is not None:
            level = c.name[len(p.column) + 1:-1]
            out.append(f"The odds of {outcome} are {num(c.odds_ratio)} times as high with {name(p.column)} "
                       f"{level} as with {p.reference} {ci}.")
        else:
            out.append(f"The interaction {c.name} multiplies the odds of {outcome} by {num(c.odds_ratio)} {ci}.")
    mt = fit.model_test
    if mt is not None:
        verb = "explain" if mt.p < 0.05 else "do not significantly explain"
        test = (_f_test(mt, fit.df) if design_based(res) else
                f"likelihood-ratio χ²({mt.df}) = {num(mt.chi2)}, {p_text(mt.p)}")
        out.append(f"Together the predictors {verb} the answers better than the prevalence alone ({test}).")
    nu = fit.nuisance
    if nu is not None:
        ci = f"({conf} {pct(nu.ci[0], style)} to {pct(nu.ci[1], style)})"
        what = {"t": "of carriers answered honestly (the SLD's t)",
                "gamma": "of respondents cheated, answering 'no' whatever the truth (the CDM's gamma)",
                "pi_uq": "would answer 'yes' to the innocuous question (pi_uq)"}[nu.name]
        out.append(f"An estimated {pct(nu.estimate, style)} {ci} {what}.")
    out.append(_exclusions(res, name, item))
    note = labelled_note(res, name)
    if note:
        out.append(note)
    return out


def _interaction(code: str, name=str) -> str:
    """``age:Q4[Male]`` as ``Age × What is your gender?: Male`` in the columns' labels."""
    parts = []
    for part in code.split(":"):
        column, bracket, level = part.partition("[")
        parts.append(f"{name(column)}: {level[:-1]}" if bracket else name(column))
    return " × ".join(parts)


def _exclusions(res: RegressionResult, name=str, item: str | None = None) -> str:
    parts = []
    if res.excluded_answers:
        parts.append(f"{res.excluded_answers:,} had no usable answer to {quoted(item or res.item)}")
    for col, k in res.excluded_covariates.items():
        parts.append(f"{k:,} no value of {name(col)}")
    left = f"; {', '.join(parts)}" if parts else ""
    return f"{res.n_used:,} of {res.n_rows:,} rows were used{left}."


def fit_line(res: RegressionResult) -> str:
    f = res.fit
    if multilevel(res):
        how = "Laplace approximation" if f.nagq == 1 else f"adaptive Gauss-Hermite quadrature, {f.nagq} points"
        return f"n = {f.n:,} in {f.n_clusters:,} clusters, marginal log-likelihood ({how}) = {f.loglik:.3f}."
    if design_based(res):
        return (f"n = {f.n:,}{f' ({f.n_direct:,} asked directly)' if f.n_direct else ''}; "
                f"{f.sample_design.describe()}; design df {f.df}; weighted pseudo-log-likelihood "
                f"(weights scaled to mean 1) = {f.loglik:.3f}; converged after {f.iterations} iterations.")
    return (f"n = {f.n:,}{f' ({f.n_direct:,} asked directly)' if f.n_direct else ''}, log-likelihood = "
            f"{f.loglik:.3f}, deviance = {f.deviance:.2f}, AIC = {f.aic:.2f}, BIC = {f.bic:.2f}; "
            f"converged after {f.iterations} iterations.")


def report_text(res: RegressionResult, labels=None, item: str | None = None, style=None) -> str:
    """The whole result as text: header, coefficient table, term tests, fit statistics, sentences.

    Columns in their ``labels`` (a :class:`dpdesk.project.study.labels.Labels`) and the item as
    ``item`` (its short label or question), as :func:`..report.labelled_report` passes them;
    the codes are named once, in the last line. Shares in the number ``style`` (default: the app's).
    """
    name = labels.column if labels is not None else str
    f = res.fit
    lines = [f"{'Multilevel logistic' if multilevel(res) else 'Logistic'} regression of {quoted(item or res.item)} ({res.design.summary or res.design.name})"]
    if res.question and res.question.strip() != (item or "").strip():
        lines.append(f"Question: {res.question}")
    preds = []
    for p in res.predictors:
        if p.kind == "categorical":
            why = "categorical: its codes have value labels" if p.labelled else "categorical"
            preds.append(f"{name(p.column)} ({why}, reference {p.reference})")
        else:
            preds.append(f"{name(p.column)}" + (f" (centred at {p.centre:.2f})" if p.centre is not None else ""))
    lines.append("Predictors: " + (", ".join(preds + [_interaction(i, name) for i in res.interactions])
                                   or "none (the intercept alone)"))
    lines.append("")
    rows = coefficient_lines(res, labels)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for k, row in enumerate(rows):
        lines.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))))
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    survey = design_based(res)
    if multilevel(res):
        lines.append(f"b: log-odds, within a cluster; OR = exp(b); SE: {f.se_method}; intervals, z and p: Wald "
                     f"(as RRreg's RRmixed).")
    elif survey:
        lines.append(f"b: log-odds; OR = exp(b); SE: {f.se_method}; intervals, t and p: {f.ci_method}.")
    else:
        lines.append(f"b: log-odds; OR = exp(b); {f.ci_method} intervals; z and p: Wald; LR: likelihood-ratio "
                     f"test of dropping the term (as RRreg's RRlog).")
    separation = separation_note(c.odds_ratio_ci for c in f.coefficients)
    if separation:
        lines.append(separation)
    if f.terms:
        lines.append("")
        lines.append("Terms with several columns (" + ("design-based Wald F tests):" if survey else
                                                        "likelihood-ratio tests):"))
        for t in f.terms:
            lines.append(f"  {_interaction(t.name, name)}: " + (_f_test(t, f.df) if survey else f"χ²({t.df}) = {num(t.chi2)}, "
                                                                            f"{p_text(t.p)}"))
    nu = f.nuisance
    if nu is not None:
        lines.append("")
        se = "on the boundary" if nu.on_boundary else f"SE {num(nu.se, 3)}"
        test = "" if nu.null is None else f"; test of {nu.name} = {nu.null:g}: LR χ²(1) = {num(nu.lr_chi2)}, " \
                                          f"{p_text(nu.lr_p)}"
        if survey and nu.null is not None:
            test = f"; test of {nu.name} = {nu.null:g}: Wald t = {num(nu.z)} on {f.df} df"
        lines.append(f"{nu.name} = {num(nu.estimate, 3)} ({se}; {round(100 * f.confidence)}% CI "
                     f"{_interval(nu.ci[0], nu.ci[1], 3)}){test}")
    lines.append("")
    if f.model_test is not None:
        mt = f.model_test
        lines.append("Model against the intercept only: " + (_f_test(mt, f.df) if survey else
                                                              f"LR χ²({mt.df}) = {num(mt.chi2)}, {p_text(mt.p)}"))
    if multilevel(res):
        lines.append(random_intercept_line(res))
    lines.append(fit_line(res))
    m, lo, hi = f.average_prevalence
    if multilevel(res):
        lines.append(f"Average predicted prevalence (over the clusters' random intercepts): {pct(m, style)}.")
    else:
        lines.append(f"Average predicted prevalence: {pct(m, style)} ({round(100 * f.confidence)}% CI {pct(lo, style)} "
                     f"to {pct(hi, style)}).")
    lines.append("")
    lines.extend(sentences(res, labels, item, style))
    codes = [f"{name(p.column)} = {p.column}" for p in res.predictors if name(p.column) != p.column]
    if item and item != res.item or codes:
        lines.append("")
        lines.append("Codes in the data: " + "; ".join(([f"item {res.item}"] if item and item != res.item else [])
                                                      + codes) + ".")
    return "\n".join(lines)
