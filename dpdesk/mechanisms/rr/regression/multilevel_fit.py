"""``rr.logistic(..., random_intercept=...)``: checks, the fit of :mod:`.multilevel`, and its result."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.regression import multilevel as ml
from dpdesk.mechanisms.rr.regression.inputs import prepare
from dpdesk.mechanisms.rr.regression.results import Coefficient, LogisticFit


@dataclass(frozen=True, eq=False)
class MultilevelFit(LogisticFit):
    """A :class:`LogisticFit` with a random intercept per cluster.

    ``random_sd``: ``(estimate, se, (low, high))`` of the SD of the random intercepts (logit scale);
    ``loglik``: the marginal log-likelihood (Laplace or adaptive Gauss-Hermite); ``n_clusters``; ``nagq``.
    ``vcov`` is the fixed effects' covariance (from the Hessian over the random SD and the fixed effects).

    Two-group designs are refused with an :class:`EstimationError` that says why and what to do instead:
    the stochastic lie detector, the cheating detection model and the unrelated question with unknown
    prevalence carry a parameter that would have to be estimated jointly with the random intercepts
    (RRmixed does not either), and ECWM's two links are outside RRmixed's model. Fit them single-level
    (``rr.logistic`` without ``random_intercept``), or enter the cluster as a categorical predictor.
    """

    random_sd: tuple[float, float, tuple[float, float]] = (math.nan, math.nan, (math.nan, math.nan))
    n_clusters: int = 0
    nagq: int = 1

    def to_dict(self):
        out = super().to_dict()
        est, se, (lo, hi) = self.random_sd
        plain = lambda v: v if isinstance(v, float) and math.isfinite(v) else None  # noqa: E731
        out.update(random_sd={"estimate": plain(est), "se": plain(se), "ci": [plain(lo), plain(hi)]},
                   n_clusters=self.n_clusters, nagq=self.nagq)
        return out


def check_multilevel(design, offset, nagq) -> None:
    """What a multilevel fit refuses before anything is fitted."""
    if design.groups != 1:
        extra = {"sld": "the share of carriers who answer honestly (t)", "cdm": "the share of cheaters",
                 "unrelated_unknown": "the innocuous question's prevalence"}.get(design.model)
        why = (f"its extra parameter, {extra}, would have to be estimated together with the random intercepts, "
               f"which RRmixed does not do either" if extra else
               "its two versions' links are not part of RRmixed's model, so there is no reference to check it against")
        raise EstimationError(
            f"A multilevel model (random intercepts) is fitted for one-group yes/no designs only, as RRmixed; the "
            f"{design.name!r} design has two randomization groups and {why}. Fit it without random intercepts "
            f"(the single-level logistic model handles two-group designs), or include the cluster as a categorical "
            f"predictor.")
    if design.model != "prevalence" or len(design.responses) != 2:
        raise EstimationError(
            f"A multilevel model needs a one-group yes/no design (Warner, forced response, crosswise, unrelated "
            f"question with known prevalence, triangular, Kuk with one card, Mangat), as RRmixed; the "
            f"{design.name!r} design is not supported with random intercepts.")
    if offset is not None:
        raise EstimationError("An offset is not supported with random intercepts.")
    if isinstance(nagq, bool) or not isinstance(nagq, (int, np.integer)) or not 1 <= nagq <= 25:
        raise EstimationError(f"nagq = {nagq!r} must be a whole number of quadrature points from 1 (Laplace) to 25.")


def multilevel_logistic(design, responses, X, random_intercept, *, group, names, confidence, nagq, beta0,
                        progress=None):
    """The multilevel fit from the single-level fit's ``beta0`` (see :mod:`.multilevel`)."""
    data, names, r, g = prepare(design, responses, X, group, names, None)
    if np.any(g == 0):
        raise EstimationError("Respondents asked directly (group 0) are not supported with random intercepts.")
    labels = np.asarray(random_intercept, dtype=object).ravel()
    if len(labels) != data.n:
        raise EstimationError(f"random_intercept has {len(labels)} cluster labels but there are {data.n} respondents.")
    missing = [i for i, v in enumerate(labels) if v is None or (isinstance(v, float) and math.isnan(v))]
    if missing:
        raise EstimationError(f"Row {missing[0] + 1} has no cluster label; leave such rows out.")
    _, cluster = np.unique(labels.astype(str), return_inverse=True)
    J = int(cluster.max()) + 1
    if J < 2:
        raise EstimationError("A random intercept needs respondents in at least 2 clusters.")
    if J >= data.n:  # glmer refuses this too (check.nobs.vs.nlev): the intercepts are not identified
        raise EstimationError(f"Every respondent is in a cluster of their own ({J:,} clusters for {data.n:,} "
                              f"respondents), so a random intercept cannot be told apart from the answers' own "
                              f"variation: choose the column that groups respondents (school, firm, country).")
    m = design.matrix
    model = ml.Model(r.astype(float), data.X, cluster, float(m[1, 0]), float(m[1, 1]), int(nagq))
    theta, V, loglik, boundary = ml.fit(model, beta0, progress=progress)
    p = data.X.shape[1]
    coefs = []
    for j, name in enumerate(names):
        se = math.sqrt(V[j + 1, j + 1]) if V[j + 1, j + 1] >= 0 else math.nan
        z, pv, ci = ml.wald(float(theta[j + 1]), se, confidence)
        coefs.append(Coefficient(name, float(theta[j + 1]), se, z, pv, ci, ci))
    sd_se = math.nan if boundary else math.sqrt(max(V[0, 0], 0.0))
    random_sd = (float(theta[0]), sd_se, ml.sd_interval(float(theta[0]), sd_se, confidence))
    # population-averaged prevalence: the mean over respondents of E_u[logistic(x'b + sigma u)]
    z, w = np.polynomial.hermite_e.hermegauss(30)
    from scipy.special import expit

    avg = float(np.mean(expit((data.X @ theta[1:])[:, None] + theta[0] * z) @ (w / w.sum())))
    return MultilevelFit(
        design=design, coefficients=tuple(coefs), terms=(), model_test=None, nuisance=None, loglik=float(loglik),
        n=data.n, n_direct=0, n_params=p + 1, iterations=0, converged=True, confidence=confidence,
        ci_method="Wald (estimate +- z SE)", vcov=V[1:, 1:], average_prevalence=(avg, math.nan, math.nan),
        se_method="inverse Hessian of the marginal deviance over the random SD and the fixed effects (as glmer)",
        random_sd=random_sd, n_clusters=J, nagq=int(nagq))
