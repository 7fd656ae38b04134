"""Profile-likelihood intervals, likelihood-ratio tests and predictions for ``rr.logistic``.

* Profile-likelihood interval for one coefficient (Venables & Ripley 2002, *Modern
  Applied Statistics with S*, 7.2; Cox & Hinkley 1974, 9.3): the values ``b`` with
  ``2 (l_hat - l_p(b)) <= chi2_1(confidence)``, ``l_p(b)`` the log-likelihood maximized
  over every other parameter with ``beta_j = b``. Found as the roots of the signed root
  ``r(b) = sign(b - b_hat) sqrt(2 (l_hat - l_p(b)))`` at ``+-z`` (bracketed, then the
  Illinois regula falsi; each constrained fit starts on the first-order profile path). A side on which the profile never falls
  that far, or only beyond a log-odds change of 40 over the predictor's range, is
  reported as infinite. The nuisance's interval is cut to [0, 1].
* Likelihood-ratio test of a term (RRlog's ``deltaG2``): ``2 (l_hat - l_reduced)`` on as
  many df as the term has columns, the reduced model refitted from deterministic starts
  (the full fit without the term, then EM) so it cannot stop in a worse local optimum.
* Predicted prevalence with a CI by the delta method on the logit scale, back-transformed
  (as ``RRreg::predict.RRlog(type = "attribute")``): ``logit pi = x' beta``,
  ``var = x' V x``; for the sample average ``m = mean_i pi_i``,
  ``d logit(m) / d beta = mean_i w_i x_i / (m (1 - m))``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit, logit

from dpdesk.mechanisms.rr.regression import model as lm


def fixed_coefficient(data: lm.Data, fit: lm.Fit, j: int, b: float, start=None) -> lm.Fit:
    """The fit with ``beta_j`` held at ``b`` (column j moved into the offset).

    Starts from the first-order path of the profile, ``theta_-j(b) = theta_hat_-j -
    H_-j,-j^-1 H_-j,j (b - b_hat)``, which keeps correlated coefficients (an intercept
    and an uncentred covariate) moving together; then from ``start`` and the full fit.
    """
    reduced = data.drop(j).shifted(b * data.X[:, j])
    p = len(fit.beta)
    keep = [k for k in range(p) if k != j] + ([p] if fit.eta_free else [])
    H = fit.hess
    try:
        path = -np.linalg.solve(H[np.ix_(keep, keep)], H[keep, j])
    except np.linalg.LinAlgError:
        path = np.zeros(len(keep))
    theta = np.append(np.delete(fit.beta, j), fit.eta)[: len(keep)] + path * (b - fit.beta[j])
    eta = min(1.0, max(0.0, theta[p - 1])) if fit.eta_free else fit.eta
    starts = [(theta[: p - 1], eta)] + ([(start, fit.eta)] if start is not None else []) + [
        (np.delete(fit.beta, j), fit.eta)]
    out = None
    for beta0, eta0 in starts:
        out = lm.maximize(reduced, beta0, eta0)
        if out.converged:
            return out
    return lm.best_fit(reduced, fit.eta, beta_starts=[s[0] for s in starts])


def fixed_nuisance(data: lm.Data, fit: lm.Fit, value: float, start=None) -> lm.Fit:
    """The fit with the nuisance held at ``value`` (first-order path start, as above)."""
    p = len(fit.beta)
    beta0 = fit.beta
    if fit.eta_free:
        try:
            beta0 = fit.beta - np.linalg.solve(fit.hess[:p, :p], fit.hess[:p, p]) * (value - fit.eta)
        except np.linalg.LinAlgError:
            pass
    starts = [beta0] + ([start] if start is not None else []) + [fit.beta]
    for b in starts:
        out = lm.maximize(data, b, value, fix_eta=True)
        if out.converged:
            return out
    return lm.best_fit(data, value, fix_eta=True, beta_starts=starts)


def _illinois(g, a: float, ga: float, b: float, gb: float, xtol: float, max_iter: int = 100) -> float:
    """Root of g between a (g < 0) and b (g >= 0) by the Illinois variant of regula falsi.

    The end points are never evaluated again, so a refit that lands elsewhere on a second
    visit cannot break the bracket.
    """
    side = 0
    for _ in range(max_iter):
        c = b - gb * (b - a) / (gb - ga) if gb != ga else (a + b) / 2
        if not (min(a, b) < c < max(a, b)):
            c = (a + b) / 2
        gc = g(c)
        if gc >= 0:
            b, gb = c, gc
            if side == 1:
                ga /= 2
            side = 1
        else:
            a, ga = c, gc
            if side == -1:
                gb /= 2
            side = -1
        if abs(b - a) < xtol or abs(gc) < 1e-10:
            return c
    return (a + b) / 2


def profile_interval(data: lm.Data, fit: lm.Fit, j: int, se: float, z: float) -> tuple[float, float]:
    """Profile-likelihood interval for coefficient j (j = p for the nuisance)."""
    p = len(fit.beta)
    b_hat = float(fit.beta[j]) if j < p else fit.eta
    step = se if math.isfinite(se) and se > 0 else (1.0 if j < p else 0.05)
    # beyond a change in log-odds of 40 across the predictor's range (odds ratio 2e17) the
    # profile is called unbounded: the likelihood there is that of a prevalence of 0 or 1
    limit = 40.0 / (float(np.ptp(data.X[:, j])) or 1.0) if j < p else math.inf
    bounds = []
    for side in (-1, 1):
        warm: list = [None]

        def excess(b: float) -> float:
            out = fixed_coefficient(data, fit, j, b, start=warm[0]) if j < p else fixed_nuisance(data, fit, b, warm[0])
            if out.converged:
                warm[0] = out.beta
            if not math.isfinite(out.loglik):
                return 1e6
            return math.sqrt(max(0.0, 2 * (fit.loglik - out.loglik))) - z

        inner, g_inner = b_hat, -z
        b = b_hat + side * z * step
        found = None
        for _ in range(40):
            if j == p:
                b = min(1.0, max(0.0, b))
            g = excess(b)
            if g >= 0:
                found = (b, g)
                break
            if (j == p and b in (0.0, 1.0)) or side * b >= limit:
                break
            # the signed root is nearly linear in b: aim past the target, at least doubling the distance
            grow = max(2.0, min(10.0, 1.3 * z / max(g + z, 1e-12)))
            inner, g_inner = b, g
            b = b_hat + side * abs(b - b_hat) * grow
            if side * b > limit:
                b = side * limit
        if found is None:
            bounds.append(b if j == p else side * math.inf)
            continue
        bounds.append(_illinois(excess, inner, g_inner, found[0], found[1], xtol=1e-9 * max(step, 1e-12)))
    return float(bounds[0]), float(bounds[1])


def drop_test(data: lm.Data, fit: lm.Fit, cols) -> float:
    """``2 (l_hat - l_reduced)`` for the model without columns ``cols`` (>= 0)."""
    reduced = data.drop(cols)
    start = np.delete(fit.beta, cols)
    eta = fit.eta if data.has_eta else 0.0
    if reduced.X.shape[1] == 0:
        ll = lm.maximize(reduced, start, eta).loglik if data.has_eta else lm.loglik(reduced, start, eta)
        return max(0.0, 2 * (fit.loglik - ll))
    first = lm.maximize(reduced, start, eta)
    other = lm.maximize(reduced, lm.em_start(reduced, eta), eta)
    ll = max((f.loglik for f in (first, other) if f.converged), default=max(first.loglik, other.loglik))
    return max(0.0, 2 * (fit.loglik - ll))


def nuisance_test(data: lm.Data, fit: lm.Fit, null: float) -> float:
    """``2 (l_hat - l_0)`` with the nuisance held at its null value (t = 1, gamma = 0)."""
    first = lm.maximize(data, fit.beta, null, fix_eta=True)
    other = lm.maximize(data, lm.em_start(data, null), null, fix_eta=True)
    ll = max((f.loglik for f in (first, other) if f.converged), default=max(first.loglik, other.loglik))
    return max(0.0, 2 * (fit.loglik - ll))


def predict(X: np.ndarray, beta: np.ndarray, vcov: np.ndarray, z: float, offset=None):
    """Prevalence for each row of X with a Wald CI on the logit scale: (estimate, low, high)."""
    X = np.atleast_2d(np.asarray(X, float))
    lp = X @ beta + (0.0 if offset is None else np.asarray(offset, float))
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", X, vcov, X), 0.0))
    return expit(lp), expit(lp - z * se), expit(lp + z * se)


def average(X: np.ndarray, beta: np.ndarray, vcov: np.ndarray, z: float, offset) -> tuple[float, float, float]:
    """Sample-averaged prevalence ``mean_i pi_i`` with a delta-method CI on the logit scale."""
    lp = X @ beta + offset
    pi = expit(lp)
    m = float(np.mean(pi))
    if not 0 < m < 1:
        return m, m, m
    grad = (X * (pi * expit(-lp))[:, None]).mean(axis=0) / (m * (1 - m))
    se = math.sqrt(max(float(grad @ vcov @ grad), 0.0))
    centre = float(logit(m))
    return m, float(expit(centre - z * se)), float(expit(centre + z * se))
