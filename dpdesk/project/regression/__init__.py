"""Logistic regression with a randomized-response outcome, from a project's data.

``fit`` builds the design matrix from the active dataset's columns (dummies with a
reference level, interactions, centring; rows with missing predictors left out and
counted) and calls :func:`dpdesk.mechanisms.rr.regression.logistic`; ``report`` turns a fit into the
rows, tables and sentences the app, the report and the workbook show, and saves it with the
project; ``export`` writes its workbook sheets and the refit check of the reproducibility
script; ``text`` is the plain text of ``dpdesk regress``. ``report`` covers the three models
(``RegressionSpec.model``: logistic, multilevel with a random intercept per cluster, linear with RR
items as predictors; ``model_reports`` holds their differences); ``correlation_report`` the
corrected correlations (``CorrelationSpec``, ``correlation_report``, saved and written like a regression).
"""

from dpdesk.lazy import exports

_PUBLIC = {name: "dpdesk.project.regression.fit" for name in (
    "INTERCEPT", "DIRECT_CODES", "Predictor", "RegressionResult", "answer_codes", "design_matrix", "regress",
    "prediction_curve")}
_PUBLIC.update({name: "dpdesk.project.regression.report" for name in (
    "RegressionSpec", "RegressionReport", "fit_report", "save_report", "saved_reports")})
# the function correlation_report is imported from its module (the package attribute of that name is the module)
_PUBLIC.update({name: "dpdesk.project.regression.correlation_report" for name in (
    "CorrelationSpec", "CorrelationReport", "save_correlation", "saved_correlations", "write_correlation")})

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
