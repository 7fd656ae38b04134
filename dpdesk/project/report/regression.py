"""The project's saved regressions in the report and the methods paragraph.

Each saved logistic regression (:mod:`dpdesk.project.regression.report`; the latest fit of
each model) becomes a section of the report: its sentences, the APA coefficient table (b,
SE, z, p, OR with its interval) with the fit's note, and the likelihood-ratio tests; and a
paragraph of the methods text naming the model, the fitting and the intervals with their
sources (van den Hout, van der Heijden & Gilchrist, 2007; Magder & Hughes, 1997; Heck &
Moshagen, 2018).
"""

from __future__ import annotations

import html

from dpdesk.project.regression.report import saved_reports
from dpdesk.project.regression.text import quoted
from dpdesk.project.report.model import Cell, Column, Figure, Row, Section, Table
from dpdesk.project.number_style import NumberStyle


def latest_regressions(project) -> list:
    """The latest saved fit of each model (the same outcome, predictors and options), oldest first."""
    latest = {}
    for report in saved_reports(project):
        key = repr(sorted(report.spec.to_dict().items()))
        latest.pop(key, None)
        latest[key] = report
    return [_with_labels(project, r) for r in latest.values()]


def _with_labels(project, report):
    """A report saved before reports kept their labels: the item's and the predictors' labels from the project."""
    if report.item_label or report.spec.model != "logistic":  # the new models were saved with their labels
        return report
    from dataclasses import replace

    from dpdesk.project.study.labels import Labels, item_label

    try:
        dataset = report.spec.dataset or (report.fit or {}).get("dataset")
        labels = Labels.from_stored(project.column_labels(dataset)) if dataset else Labels()
    except Exception:  # noqa: BLE001 - its dataset was removed since: the codes, as saved
        labels = Labels()
    item = next((it for it in project.items() if it.name == report.spec.item), None)
    named = {c: labels.column(c) for c in report.spec.predictors if labels.column(c) != c}
    return replace(report, item_label=item_label(item, project.item_labels()) if item else "",
                   column_labels={**named, **report.column_labels})


def _coefficient_row(label: str, c: dict) -> Row:
    """b, SE, z, p, OR and the OR's interval in the APA number rules (a limit beyond 1,000 as "> 1,000")."""
    est = NumberStyle.estimate
    hi = c.get("CI high (OR)")
    hi = float("inf") if hi is None else hi  # saved as None: open-ended
    lo = c.get("CI low (OR)")
    return Row([Cell(label), Cell(est(c["b"]), c["b"]), Cell(est(c["SE"]), c["SE"]), Cell(est(c.get("t", c.get("z"))), c.get("t", c.get("z"))),
                Cell(NumberStyle.p(c["p"]), c["p"]), Cell(est(c["OR"]), c["OR"]),
                Cell(f"[{NumberStyle.limit(lo)}, {NumberStyle.limit(hi)}]", (lo, hi))])


def _test_label(text: str) -> str:
    """Saved reports of earlier versions said "age (dropped)" and "faculty (all its columns)"."""
    return text.removesuffix(" (dropped)").replace("(all its columns)", "(all its levels)")


def regression_figures(report, i: int) -> list[Figure]:
    """The odds-ratio forest plot and the predicted-prevalence curve, each with its caption."""
    item, conf = quoted(report.outcome), f"{100 * report.spec.confidence:g}%"
    out = []
    if report.forest:
        out.append(Figure(f"odds-ratios:{i}", f"Odds ratios of a true 'yes' to {item}, with {conf} confidence "
                          "intervals (log scale; 1: no effect)", "odds_ratios", report.forest,
                          {"confidence": report.spec.confidence}))
    curve = report.curve or {}
    if curve.get("rows"):
        label = report.column(curve["predictor"])
        out.append(Figure(f"curve:{i}", f"Predicted prevalence of {item} across {label}, with its {conf} "
                          "confidence band (the other predictors at their means)", "prevalence_curve", curve["rows"],
                          {"predictor": curve["predictor"], "kind": curve.get("kind", "numeric"),
                           "confidence": report.spec.confidence, "label": label}))
    return out


def regression_tables(report, i: int = 1) -> tuple[Table, Table]:
    """The coefficient table (APA, with its note and, for an open-ended limit, the separation note) and the
    likelihood-ratio tests of one saved regression: the report's tables, the Regression view's and what its
    "Copy as LaTeX" copies. A multilevel model's second table is its random intercept, a linear model's (RR items as
    predictors) are its own coefficient table and its residual SD with the items' prevalence."""
    from dpdesk.project.report import rr_models

    if report.spec.model == "linear":
        coefficients, parts = rr_models.linear_tables(report, i)
        return coefficients, parts
    columns = [Column(report.header[0], numeric=False)] + [
        Column(h, italic=h in ("b", "SE", "z", "t", "p", "OR")) for h in report.header[1:]]
    rows = [_coefficient_row(cells[0], c) for cells, c in zip(report.cells, report.coefficients)]
    notes = [html.escape(report.note, quote=False).replace("Note.", "<i>Note.</i>", 1)]
    separation = report.separation_note()
    if separation:
        notes.append(html.escape(separation, quote=False))  # notes are HTML: "< 0.001" must not open a tag
    table = Table(f"regression:{i}", report.title, columns, rows, notes=notes)
    if getattr(report, "design", ""):  # a weighted fit: design-based Wald F tests, no likelihood-ratio tests
        tests = Table(f"regression-tests:{i}", f"Design-based Wald tests of the regression of {quoted(report.outcome)}",
                      [Column("Term or model", numeric=False), Column("df", italic=True), Column("F", italic=True),
                       Column("p", italic=True)],
                      [Row([Cell(_test_label(t["test"])), Cell(f"{t['df']}, {t['df2']}", t["df"]),
                            Cell(NumberStyle.estimate(t["F"]), t["F"]), Cell(NumberStyle.p(t["p"]), t["p"])])
                       for t in report.tests],
                      notes=[f"{html.escape(report.design, quote=False)}. Wald F tests on the design degrees of "
                             "freedom (likelihood-ratio tests are not valid with survey weights): each term "
                             "against the model without it, the model against the intercept only."])
        return table, tests
    if report.spec.model == "multilevel":
        return table, rr_models.random_effects_table(report, i)
    tests = Table(f"regression-tests:{i}", f"Likelihood-ratio tests of the regression of {quoted(report.outcome)}",
                  [Column("Term or model", numeric=False), Column("df", italic=True), Column("χ²", italic=True),
                   Column("p", italic=True)],
                  [Row([Cell(_test_label(t["test"])), Cell(NumberStyle.count(t["df"]), t["df"]),
                        Cell(NumberStyle.estimate(t["chi2"]), t["chi2"]), Cell(NumberStyle.p(t["p"]), t["p"])])
                   for t in report.tests],
                  notes=["Each term is tested against the model without it; the model against the intercept "
                         "only."])
    return table, tests


def model_tables(report, i: int = 1) -> list[Table]:
    """The tables of a saved regression of any model: logistic (coefficients, likelihood-ratio tests), multilevel
    (coefficients, the random intercept), linear (coefficients, residual SD and prevalence)."""
    return list(regression_tables(report, i))


def regression_sections(project) -> list[Section]:
    """A section per saved regression (the latest fit of each model), then one per saved set of correlations."""
    from dpdesk.project.report.rr_models import correlation_sections

    out = []
    titles = {"logistic": "Regression", "multilevel": "Multilevel regression", "linear": "Linear regression"}
    for i, report in enumerate(latest_regressions(project), 1):
        out.append(Section(f"regression:{i}", f"{titles.get(report.spec.model, 'Regression')}: {report.outcome}",
                           [html.escape(s, quote=False) for s in report.sentences], model_tables(report, i),
                           regression_figures(report, i)))
    return out + correlation_sections(project)


def regression_paragraphs(project, c) -> list[str]:
    """One methods paragraph per saved regression and set of correlations; ``c(*keys)`` cites (and records)
    references."""
    from dpdesk.project.report.rr_models import correlation_paragraphs, model_paragraph

    out = []
    for report in latest_regressions(project):
        other = model_paragraph(report, c)
        if other is not None:  # a multilevel or linear model
            out.append(other)
            continue
        spec, fit = report.spec, report.fit
        n = next((s["value"] for s in report.statistics if s["statistic"] == "n (rows used)"), None)
        left = next((s["value"] for s in report.statistics if s["statistic"] == "rows left out"), 0)
        column = report.column
        preds = ", ".join(column(p) for p in spec.predictors) + (
            f", and the interaction(s) {', '.join(' × '.join(column(x) for x in t.split(':')) for t in spec.interactions)}"
            if spec.interactions else "")
        centred = f" ({', '.join(column(p) for p in spec.center)} centred at the mean)" if spec.center else ""
        conf = f"{100 * spec.confidence:g}%"
        method = str(fit.get("ci_method", "profile-likelihood")) if isinstance(fit, dict) else "profile-likelihood"
        model = fit.get("fit", {}) if isinstance(fit, dict) else {}  # the LogisticFit's record
        if isinstance(model, dict) and model.get("design_df") is not None:
            described = str(model.get("sample_design") or "weighted")
            fit = {**fit, "design_df": model["design_df"], "sample_design": described[:1].lower() + described[1:]}
            out.append(
                f"The probability of a true 'yes' to {quoted(report.outcome)} was modelled by logistic regression with a "
                f"randomized-response outcome ({c('vandenhout2007')}) and the predictors {preds}{centred}, fitted "
                f"by weighted pseudo-maximum likelihood on {n:,} respondents of a complex sample "
                f"({fit.get('sample_design')}); standard errors are the sandwich estimator with the between-PSU "
                f"variance of the weighted scores ({c('binder1983', 'lumley2004')}), and coefficients have {conf} "
                f"Wald intervals and t and F tests on {fit['design_df']} design degrees of freedom (likelihood-ratio "
                f"tests and profile-likelihood intervals are not valid with survey weights).")
            continue
        out.append(
            f"The probability of a true 'yes' to {quoted(report.outcome)} was modelled by logistic regression with a "
            f"randomized-response outcome ({c('vandenhout2007')}), the recorded answers following the design's "
            f"response matrix, with the predictors {preds}{centred}. The model was fitted by maximum likelihood "
            f"(an EM start, {c('magder1997')}, then Newton's method to convergence) on {n:,} respondents"
            f"{f' ({left:,} left out for missing predictors)' if left else ''}; coefficients are reported with "
            f"{conf} {method} intervals, and each term was tested by a likelihood-ratio test, as in RRreg's RRlog "
            f"({c('heck2018')}).")
    return out + correlation_paragraphs(project, c)
