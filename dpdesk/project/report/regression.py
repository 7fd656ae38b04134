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
import math

from dpdesk.project.regression.report import saved_reports
from dpdesk.project.report.model import Cell, Column, Row, Section, Table


def latest_regressions(project) -> list:
    """The latest saved fit of each model (the same outcome, predictors and options), oldest first."""
    latest = {}
    for report in saved_reports(project):
        key = repr(sorted(report.spec.to_dict().items()))
        latest.pop(key, None)
        latest[key] = report
    return list(latest.values())


def _p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< .001" if p < 0.001 else f"{p:.3f}".lstrip("0")


def regression_sections(project) -> list[Section]:
    out = []
    for i, report in enumerate(latest_regressions(project), 1):
        columns = [Column(report.header[0], numeric=False)] + [
            Column(h, italic=h in ("b", "SE", "z", "p", "OR")) for h in report.header[1:]]
        rows = [Row([Cell(html.escape(str(c), quote=False)) for c in cells]) for cells in report.cells]
        table = Table(f"regression:{i}", report.title, columns, rows, notes=[html.escape(report.note, quote=False)])
        tests = Table(f"regression-tests:{i}", "Likelihood-ratio tests",
                      [Column("Test", numeric=False), Column("df", italic=True), Column("χ²", italic=True),
                       Column("p", italic=True)],
                      [Row([Cell(html.escape(t["test"], quote=False)), Cell(str(t["df"]), t["df"]),
                            Cell("–" if t["chi2"] is None else f"{t['chi2']:.2f}", t["chi2"]), Cell(_p(t["p"]), t["p"])])
                       for t in report.tests])
        out.append(Section(f"regression:{i}", f"Regression: {report.spec.item}",
                           [html.escape(s, quote=False) for s in report.sentences], [table, tests]))
    return out


def regression_paragraphs(project, c) -> list[str]:
    """One methods paragraph per saved regression; ``c(*keys)`` cites (and records) references."""
    out = []
    for report in latest_regressions(project):
        spec, fit = report.spec, report.fit
        n = next((s["value"] for s in report.statistics if s["statistic"] == "n (rows used)"), None)
        left = next((s["value"] for s in report.statistics if s["statistic"] == "rows left out"), 0)
        preds = ", ".join(spec.predictors) + (f", and the interaction(s) {', '.join(spec.interactions)}"
                                              if spec.interactions else "")
        centred = f" ({', '.join(spec.center)} centred at the mean)" if spec.center else ""
        conf = f"{100 * spec.confidence:g}%"
        method = str(fit.get("ci_method", "profile-likelihood")) if isinstance(fit, dict) else "profile-likelihood"
        if isinstance(fit, dict) and fit.get("design_df") is not None:
            out.append(
                f"The probability of a true 'yes' to {spec.item} was modelled by logistic regression with a "
                f"randomized-response outcome ({c('vandenhout2007')}) and the predictors {preds}{centred}, fitted "
                f"by weighted pseudo-maximum likelihood on {n:,} respondents of a complex sample "
                f"({fit.get('sample_design')}); standard errors are the sandwich estimator with the between-PSU "
                f"variance of the weighted scores ({c('binder1983', 'lumley2004')}), and coefficients have {conf} "
                f"Wald intervals and t and F tests on {fit['design_df']} design degrees of freedom (likelihood-ratio "
                f"tests and profile-likelihood intervals are not valid with survey weights).")
            continue
        out.append(
            f"The probability of a true 'yes' to {spec.item} was modelled by logistic regression with a "
            f"randomized-response outcome ({c('vandenhout2007')}), the recorded answers following the design's "
            f"response matrix, with the predictors {preds}{centred}. The model was fitted by maximum likelihood "
            f"(an EM start, {c('magder1997')}, then Newton's method to convergence) on {n:,} respondents"
            f"{f' ({left:,} left out for missing predictors)' if left else ''}; coefficients are reported with "
            f"{conf} {method} intervals, and each term was tested by a likelihood-ratio test, as in RRreg's RRlog "
            f"({c('heck2018')}).")
    return out
