"""Design-based inference for ``rr.logistic`` with survey weights, strata and clusters.

The coefficients maximize the weighted pseudo-log-likelihood ``sum_i w_i log L_i``
(``logistic_model``; weights scaled to mean 1, which changes nothing but the size of the
numbers). Their covariance is the sandwich

    cov = H^-1 V H^-1,

``H`` minus the Hessian of the weighted pseudo-log-likelihood and ``V`` the design
variance of the totals of the weighted scores ``w_i s_i`` (PSU totals, between PSUs
within strata, ``survey_variance``): Binder (1983, *Int. Stat. Rev.* 51, 279); Lumley
(2004, *JSS* 9(8)), as ``svyglm`` does for an ordinary logistic model and ``svymle`` for
a custom likelihood; Arcos, Rueda et al. (2021, *Mathematics* 9(6), 609) for randomized
response.

Intervals and tests are Wald, on the design degrees of freedom (PSUs - strata): ``b +-
t_df SE``, ``p = 2 P(T_df > |b / SE|)``; a term with k columns is tested by
``F = X^2 / k`` on (k, df) with ``X^2 = b' V_b^-1 b`` (``survey::regTermTest``'s default
Wald test). Profile-likelihood intervals and likelihood-ratio tests are not valid under
weights and clustering (the pseudo-likelihood is not a likelihood: its ratio is not
chi-square), so they are not reported: the fit falls back to Wald and says so.
``svyglm``'s ``summary`` uses ``degf - p + 1`` degrees of freedom; dpdesk uses the design
df as the survey literature's default for Wald intervals (Korn & Graubard 1999, 5.2).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit, fdtrc, stdtr, stdtrit

from dpdesk.mechanisms.rr.regression import model as lm
from dpdesk.mechanisms.rr.linearization import SampleDesign

CI_NAME = ("Wald on the design degrees of freedom (profile-likelihood intervals and likelihood-ratio tests "
           "are not valid with survey weights)")
#: In words, for readers of the report and the workbook (the formula is in the module docstring).
SE_METHOD = ("sandwich estimator: the between-PSU variance of the weighted scores, taken through the inverse of "
             "the information matrix on both sides (Binder 1983)")


def scores(data: lm.Data, beta: np.ndarray, eta: float) -> np.ndarray:
    """Each respondent's score (gradient of log L_i) in ``(beta, eta)``, unweighted: n x (p [+ 1])."""
    _, pi, one_minus, B, L = lm._parts(data, beta, eta)
    S = data.X * (B * pi * one_minus / L)[:, None]
    if data.has_eta:
        S = np.column_stack([S, (data.A1 + data.B1 * pi) / L])
    return S


def sandwich(data: lm.Data, fit: lm.Fit, sample: SampleDesign, free: list[int], keep=None) -> np.ndarray:
    """``H^-1 V H^-1`` for the free parameters (module docstring), in the full (p [+ 1]) layout, NaN elsewhere.

    ``keep``: the design's rows that were fitted (the others add zero scores to their PSUs).
    """
    S = scores(data, fit.beta, fit.eta)[:, free]
    Hinv = np.linalg.inv(-fit.hess[np.ix_(free, free)])
    U = data.w[:, None] * S
    if keep is not None:
        full = np.zeros((sample.n, U.shape[1]))
        full[keep] = U
        U = full
    V = sample.variance(U)
    size = fit.hess.shape[0]
    cov = np.full((size, size), math.nan)
    cov[np.ix_(free, free)] = Hinv @ V @ Hinv.T
    return cov


def t_quantile(df: int, confidence: float) -> float:
    return float(stdtrit(max(df, 1), 0.5 + confidence / 2))


def t_p(t: float, df: int) -> float:
    return float(2 * stdtr(max(df, 1), -abs(t))) if math.isfinite(t) else 0.0


def wald_f(beta: np.ndarray, cov: np.ndarray, idx: list[int], df: int) -> tuple[float, float]:
    """(X^2, p) for the Wald test that ``beta[idx]`` are all 0, ``X^2 / k`` on F(k, df)."""
    b = beta[idx]
    try:
        x2 = float(b @ np.linalg.solve(cov[np.ix_(idx, idx)], b))
    except np.linalg.LinAlgError:
        return math.nan, math.nan
    k = len(idx)
    return x2, float(fdtrc(k, max(df, 1), x2 / k))


def average(X, beta, vcov, t: float, offset, weights) -> tuple[float, float, float]:
    """Weighted average prevalence ``sum w_i pi_i / sum w_i`` with a delta-method interval on the logit scale."""
    lp = X @ beta + offset
    pi = expit(lp)
    w = weights / weights.sum()
    m = float(w @ pi)
    if not 0 < m < 1:
        return m, m, m
    grad = (X * (w * pi * expit(-lp))[:, None]).sum(axis=0) / (m * (1 - m))
    se = math.sqrt(max(float(grad @ vcov @ grad), 0.0))
    centre = math.log(m / (1 - m))
    return m, float(expit(centre - t * se)), float(expit(centre + t * se))
