"""Linear regression of a continuous outcome on randomized-response predictors (RRreg's RRlin).

The model (van den Hout & Kooiman 2006, CSDA 50:3311; Heck & Moshagen 2018, JSS 85(2), sec. 3.4):
respondent i has latent states ``s_i`` in {0, 1}^M of the M RR items, drawn from a multinomial over the
K = 2^M patterns with probabilities ``pi`` (not depending on X), and

    y_i | s_i ~ N(x_i' beta_x + s_i' beta_s, sigma^2),

so with ``P_ik = P(recorded responses of i | pattern k)`` (:mod:`.rr_predictors`) the log-likelihood is

    l(beta, sigma, pi) = sum_i log sum_k pi_k P_ik phi((y_i - x_ik' beta) / sigma) / sigma.

Fitting: EM (posterior pattern weights; weighted least squares for beta; sigma^2 the weighted mean
square; pi the mean weights) from the ordinary least-squares start, then Newton steps on the exact
log-likelihood (analytic score; Hessian by central differences of the score) until the score is below
1e-9 per respondent: RRlin's L-BFGS-B stops 1e-5 to 1e-4 short of this optimum. ``sigma`` is the ML
estimate (divisor n), as RRlin's. SEs: the inverse observed information over (beta, sigma, pi_1..pi_K-1);
z tests and Wald intervals, as RRlin's summary (Wald chi-square with 1 df). The prevalence of item m is
``sum_k pi_k s_km`` with its delta-method SE. A pattern whose probability is 0 at the optimum is held on
that boundary (its SE is not defined; a note says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp, ndtri
from scipy.special import ndtr

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.regression.results import Coefficient
from dpdesk.mechanisms.rr.regression.rr_predictors import pattern_probabilities, patterns, predictor

_LOG_2PI = math.log(2 * math.pi)


@dataclass(frozen=True)
class LinearFit:
    """The result of :func:`linear`: coefficients named by X's names then the RR items' names."""

    coefficients: tuple[Coefficient, ...]
    sigma: float
    sigma_se: float
    prevalence: dict[str, tuple[float, float]]
    pattern_probabilities: dict[str, float]
    loglik: float
    n: int
    confidence: float
    vcov: np.ndarray
    iterations: int
    notes: tuple[str, ...] = field(default=())

    def coefficient(self, name: str) -> Coefficient:
        return next(c for c in self.coefficients if c.name == name)


def _check(y, X, names):
    try:
        y = np.asarray(y, dtype=float).ravel()
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise EstimationError("y and X must be numbers (respondents x predictors for X).") from None
    if X.ndim == 1:
        X = X[:, None]
    n = len(y)
    if X.ndim != 2 or X.shape[0] != n:
        raise EstimationError(f"X must have one row per value of y ({n}); its shape is {X.shape}.")
    if n == 0:
        raise EstimationError("There are no respondents to fit.")
    bad = ~np.isfinite(y)
    if np.any(bad) or not np.all(np.isfinite(X)):
        i = int(np.flatnonzero(bad | ~np.all(np.isfinite(X), axis=1))[0])
        raise EstimationError(f"Row {i + 1} has a missing or infinite value in y or X; leave such rows out.")
    if np.ptp(y) == 0:
        raise EstimationError(f"The outcome has the same value ({y[0]:g}) for every respondent: there is nothing "
                              f"to regress; check the outcome column.")
    if names is None:
        names = ["(Intercept)" if np.all(X[:, j] == 1) else f"x{j + 1}" for j in range(X.shape[1])]
    elif isinstance(names, str) or len(names) != X.shape[1]:
        raise EstimationError(f"names must give one name per column of X ({X.shape[1]}); got {names!r}.")
    return y, X, [str(s) for s in names]


class _Model:
    """The log-likelihood over theta = (beta, sigma, pi_free) with the free patterns ``free``."""

    def __init__(self, y, X, S, P):
        self.y, self.X, self.S, self.P = y, X, S, P
        self.n, self.p = X.shape
        self.K, self.M = S.shape
        self.logP = np.log(np.maximum(P, 1e-300))

    def means(self, beta):  # n x K: x_ik' beta
        bx, bs = beta[: self.p], beta[self.p:]
        return (self.X @ bx)[:, None] + (self.S @ bs)[None, :]

    def parts(self, beta, sigma, pi):
        resid = self.y[:, None] - self.means(beta)
        logf = (np.log(np.maximum(pi, 1e-300))[None, :] + self.logP
                - 0.5 * (resid / sigma) ** 2 - math.log(sigma) - 0.5 * _LOG_2PI)
        logL = logsumexp(logf, axis=1)
        return resid, np.exp(logf - logL[:, None]), float(logL.sum())

    def em(self, beta, sigma, pi, steps=5000, tol=1e-11):
        last = -math.inf
        it = 0
        for it in range(1, steps + 1):
            resid, w, ll = self.parts(beta, sigma, pi)
            pi = w.mean(axis=0)
            beta = self._wls(w)
            r = self.y[:, None] - self.means(beta)
            sigma = math.sqrt(float(np.sum(w * r ** 2)) / self.n)
            if ll - last < tol * max(1.0, abs(ll)):
                break
            last = ll
        return beta, sigma, pi, it

    def _wls(self, w):
        X, S = self.X, self.S
        ws = w @ S  # n x M: E[s_i] under the weights
        xtx = np.block([[X.T @ X, X.T @ ws], [ws.T @ X, S.T @ (w.sum(axis=0)[:, None] * S)]])
        xty = np.concatenate([X.T @ self.y, ws.T @ self.y])
        return np.linalg.solve(xtx, xty)

    def unpack(self, theta, free):
        beta = theta[: self.p + self.M]
        sigma = theta[self.p + self.M]
        pi = np.zeros(self.K)
        pi[free[:-1]] = theta[self.p + self.M + 1:]
        pi[free[-1]] = 1 - pi[free[:-1]].sum()
        return beta, sigma, pi

    def score(self, theta, free):
        beta, sigma, pi = self.unpack(theta, free)
        resid, w, ll = self.parts(beta, sigma, pi)
        wr = w * resid
        g_beta = np.concatenate([self.X.T @ wr.sum(axis=1), self.S.T @ wr.sum(axis=0)]) / sigma ** 2
        g_sigma = float(np.sum(w * (resid ** 2 / sigma ** 3 - 1 / sigma)))
        last = free[-1]
        g_pi = (w[:, free[:-1]] / pi[free[:-1]]).sum(axis=0) - (w[:, last] / pi[last]).sum()
        return np.concatenate([g_beta, [g_sigma], g_pi]), ll

    def hessian(self, theta, free):
        d = len(theta)
        H = np.empty((d, d))
        for j in range(d):
            h = 1e-5 * max(1.0, abs(theta[j]))
            up, down = theta.copy(), theta.copy()
            up[j] += h
            down[j] -= h
            H[:, j] = (self.score(up, free)[0] - self.score(down, free)[0]) / (2 * h)
        return (H + H.T) / 2


def _newton(model: _Model, theta, free, steps=100):
    score, ll = model.score(theta, free)
    blocked = 0  # consecutive steps towards a pattern probability of 0: the ML is on the boundary
    for it in range(steps):
        if np.max(np.abs(score)) < 1e-9 * model.n:
            return theta, ll, it, True
        H = model.hessian(theta, free)
        try:
            step = np.linalg.solve(H, -score)
        except np.linalg.LinAlgError:
            return theta, ll, it, False
        _b, _s, pi_now = model.unpack(theta, free)
        _b, _s, pi_full = model.unpack(theta + step, free)
        blocked = blocked + 1 if np.any(pi_full[free] <= 0) or np.min(pi_now[free]) < 1e-5 else 0
        if blocked >= 5:
            return theta, ll, it, False
        t = 1.0
        while t > 1e-8:
            new = theta + t * step
            beta, sigma, pi = model.unpack(new, free)
            if sigma > 0 and np.all(pi[free] > 0):
                s_new, ll_new = model.score(new, free)
                if ll_new >= ll - 1e-12 * abs(ll):
                    theta, score, ll = new, s_new, ll_new
                    break
            t /= 2
        else:
            return theta, ll, it, np.max(np.abs(score)) < 1e-6 * model.n
    return theta, ll, steps, np.max(np.abs(score)) < 1e-9 * model.n


def _held_pattern_gains(model: _Model, beta, sigma, pi, held):
    """KKT check for patterns held at 0: ``sum_i f_ik / L_i - n`` (> 0: the likelihood rises if k gets mass)."""
    resid = model.y[:, None] - model.means(beta)
    logf = model.logP - 0.5 * (resid / sigma) ** 2 - math.log(sigma) - 0.5 * _LOG_2PI
    logL = logsumexp(logf + np.log(np.maximum(pi, 1e-300))[None, :], axis=1)
    return np.exp(logsumexp(logf[:, held] - logL[:, None], axis=0)) - model.n


def _fit_on_simplex(model: _Model, beta, sigma, pi):
    """Newton on the free pattern probabilities, with the patterns whose ML is 0 held at 0 (an active set).

    The joint distribution of the RR items' true states often has an ML on the boundary of the simplex (a
    combination nobody has, such as two rare items together: the bundled example's forced-response and
    stochastic-lie-detector items). EM creeps towards such a zero and Newton cannot step onto it, so a
    pattern whose probability falls below 1e-4 while Newton stalls is fixed at 0 and the fit restarts; a
    held pattern is released again when the likelihood's derivative towards it is positive (KKT).
    """
    free = np.flatnonzero(pi > 1e-7)
    pi = np.where(pi > 1e-7, pi, 0.0)
    pi /= pi.sum()
    total = 0
    for _ in range(2 * model.K):
        if len(free) < 2:
            raise EstimationError("All respondents are estimated to share one combination of the RR items' true "
                                  "states: the items' effects cannot be estimated. Use fewer RR items, or items "
                                  "whose prevalences are not close to 0 or 1.")
        theta = np.concatenate([beta, [sigma], pi[free[:-1]]])
        theta, ll, steps, ok = _newton(model, theta, free)
        total += steps
        beta, sigma, pi = model.unpack(theta, free)
        if not ok:
            small = free[np.argmin(pi[free])]
            if pi[small] > 1e-4:
                raise EstimationError(
                    "The fit did not converge: the likelihood has no clear maximum (too few respondents for the "
                    "number of RR items and covariates, or RR items that carry almost no information). Use fewer "
                    "predictors or RR items, or more respondents.")
            pi[small] = 0.0
            pi /= pi.sum()
            free = free[free != small]
            continue
        held = np.setdiff1d(np.arange(model.K), free)
        if len(held):
            gain = _held_pattern_gains(model, beta, sigma, pi, held)
            if np.max(gain) > 1e-6 * model.n:
                k = held[np.argmax(gain)]
                pi[k] = 1e-3
                pi /= pi.sum()
                free = np.sort(np.append(free, k))
                continue
        return beta, sigma, pi, free, ll, total
    raise EstimationError("The fit did not converge: the combinations of the RR items' true states could not be "
                          "settled. Use fewer RR items, or more respondents.")


def linear(y, X, rr_predictors: dict, *, names=None, confidence: float = 0.95) -> LinearFit:
    """Fit ``y = X beta_x + s beta_s + e`` with ``s`` the latent states of the RR items (RRreg::RRlin).

    ``y``: the continuous outcome. ``X``: the directly observed covariates, with a column of ones for the
    intercept (as in :func:`rr.logistic`); ``names`` its column names. ``rr_predictors``: name ->
    ``(design, responses)`` or ``(design, responses, group)`` (group 1 or 2 for two-group designs, 0 for
    respondents asked directly). See the module docstring for the model, the fit and the SEs.
    """
    from dpdesk.mechanisms.rr.estimate import check_confidence

    conf = check_confidence(confidence)
    y, X, names = _check(y, X, names)
    if not isinstance(rr_predictors, dict) or not rr_predictors:
        raise EstimationError("rr_predictors must name at least one RR item: {name: (design, responses)}.")
    n = len(y)
    preds = [predictor(k, v, n) for k, v in rr_predictors.items()]
    all_names = names + [p.name for p in preds]
    if len(set(all_names)) != len(all_names):
        raise EstimationError(f"Every coefficient needs its own name; got {all_names}.")
    if len(preds) > 6:
        raise EstimationError("At most 6 RR predictors (64 latent patterns) can be fitted together.")
    S = patterns(len(preds))
    model = _Model(y, X, S, pattern_probabilities(preds))
    if X.shape[1] and np.linalg.matrix_rank(X) < X.shape[1]:
        raise EstimationError("The columns of X are collinear: drop one of them.")
    k = len(all_names) + model.K  # the coefficients, sigma and the K - 1 free pattern probabilities
    if n <= k:
        raise EstimationError(f"Only {n} respondents for {k} parameters ({len(all_names)} coefficients, the residual "
                              f"SD and {model.K - 1} pattern {'probability' if model.K == 2 else 'probabilities'}): fit fewer "
                              f"predictors or more respondents.")
    # start: OLS on X and the items' responses read at face value, uniform patterns
    face = np.column_stack([p.rows[:, 1] / p.rows.sum(axis=1) for p in preds])
    start = np.linalg.lstsq(np.column_stack([X, face]), y, rcond=None)[0]
    sigma0 = float(np.std(y - np.column_stack([X, face]) @ start)) or 1.0
    try:
        beta, sigma, pi, em_steps = model.em(start, sigma0, np.full(model.K, 1 / model.K))
    except (ValueError, np.linalg.LinAlgError):  # sigma reached 0 (log of 0) or a singular weighted fit
        sigma = 0.0
    if not sigma > 1e-8 * (float(np.std(y)) or 1.0):  # the finite-difference Hessian would step below sigma = 0
        raise EstimationError("The outcome is fitted exactly (no residual variation), so there is no residual SD to "
                              "estimate: check the outcome column, or fit more respondents.")
    notes = []
    beta, sigma, pi, free, ll, steps = _fit_on_simplex(model, beta, sigma, pi)
    if len(free) < model.K:
        notes.append(f"{model.K - len(free)} of the {model.K} combinations of the RR items' true states have an "
                     f"estimated probability of 0 and are held there; their SEs are not defined.")
    theta = np.concatenate([beta, [sigma], pi[free[:-1]]])
    H = model.hessian(theta, free)
    try:
        V = np.linalg.inv(-H)
    except np.linalg.LinAlgError:
        raise EstimationError("The information matrix is singular: some coefficient is not identified "
                              "(collinear predictors, or an RR item nobody has).") from None
    q = len(beta)
    se = np.sqrt(np.clip(np.diag(V)[:q], 0, None))
    z = float(ndtri(0.5 + conf / 2))
    coefs = []
    for j, nm in enumerate(all_names):
        zz = beta[j] / se[j] if se[j] > 0 else math.nan
        ci = (float(beta[j] - z * se[j]), float(beta[j] + z * se[j]))
        coefs.append(Coefficient(nm, float(beta[j]), float(se[j]), float(zz), float(2 * ndtr(-abs(zz))), ci, ci))
    Vpi = V[q + 1:, q + 1:]
    prevalence = {}
    for m, p in enumerate(preds):
        est = float(pi @ S[:, m])
        grad = S[free[:-1], m] - S[free[-1], m]
        prevalence[p.name] = (est, float(math.sqrt(max(grad @ Vpi @ grad, 0.0))))
        if p.nuisance is not None:
            notes.append(f"{p.name}: the {p.design.name} design's {p.nuisance[0]} is fixed at its univariate "
                         f"estimate {p.nuisance[1]:.4g} (as RRlin does); the SEs do not include its uncertainty.")
    labels = ["".join(str(int(v)) for v in row) for row in S]
    return LinearFit(tuple(coefs), float(sigma), float(math.sqrt(max(V[q, q], 0.0))), prevalence,
                     dict(zip(labels, map(float, pi))), float(ll), n, conf, V, em_steps + steps, tuple(notes))
