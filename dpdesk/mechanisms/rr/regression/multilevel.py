"""Multilevel logistic regression with a randomized-response outcome (RRreg's RRmixed).

Respondent i in cluster j (a school, a firm, a country) is a carrier with probability
``pi_ij = logistic(x_ij' beta + sigma u_j)``, ``u_j ~ N(0, 1)`` independent, and gives the recorded
"yes" with probability ``mu_ij = lambda_0 + (lambda_1 - lambda_0) pi_ij`` (the design's link, as
RRmixed's ``RRloglink``: a binomial GLMM with that link; van den Hout, van der Heijden & Gilchrist 2007;
Fox, Klein Entink & Avetisyan 2014). One-group yes/no designs only, as RRmixed.

The marginal likelihood integrates each cluster's random intercept out. As lme4's ``glmer``
(Bates, Maechler, Bolker & Walker 2015, JSS 67(1), sec. 3.5 and 5):

* the conditional modes ``u*_j`` maximise ``sum_i log p(y_ij | u_j) - u_j^2 / 2`` (penalized IRLS; here
  Fisher scoring, then Newton, to a score below 1e-12);
* Laplace (``nagq=1``, glmer's default): ``-2 l = sum_ij d_ij(u*) + sum_j u*_j^2 + sum_j log(1 + sigma^2
  sum_i w_ij)``, with the Bernoulli deviance ``d = -2 log p(y | u)`` and the *Fisher* weights
  ``w = (d mu / d eta)^2 / (mu (1 - mu))`` at the modes (glmer's log-determinant of the PIRLS
  factor, not the observed information);
* adaptive Gauss-Hermite (``nagq=k``): ``L_j = s_j sum_k W_k exp(h_j(u*_j + s_j z_k) + z_k^2 / 2)`` with
  ``s_j = (1 + sigma^2 sum_i w_ij)^(-1/2)``, ``h_j`` the penalized log-likelihood and (z_k, W_k) the
  Gauss-Hermite rule for the standard normal (Liu & Pierce 1994; ``nagq=1`` is the Laplace value).

``(sigma, beta)`` maximise it (bounded quasi-Newton, then Newton steps on a central-difference Hessian).
SEs: the inverse of that Hessian of ``-l`` over ``(sigma, beta)``, as glmer's ``vcov`` (``use.hessian``).
The random SD's interval is Wald on ``log sigma``; at ``sigma = 0`` (no cluster variation) the SEs of
beta come from the Hessian with sigma held at 0.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, ndtr, ndtri

from dpdesk.errors import EstimationError

_TINY = 1e-300


class Model:
    """Data of one fit: ``y`` 0/1, ``X``, cluster indices, the design's ``lambda_0`` and ``d``."""

    def __init__(self, y, X, cluster, lam0: float, lam1: float, nagq: int = 1):
        self.y, self.X, self.c = y, X, cluster
        self.J = int(cluster.max()) + 1
        self.lam0, self.d = lam0, lam1 - lam0
        self.u = np.zeros(self.J)
        self.nagq = nagq
        if nagq > 1:
            z, w = np.polynomial.hermite_e.hermegauss(nagq)
            self.gh = (z, w / w.sum())

    def _sum(self, v):
        return np.bincount(self.c, weights=v, minlength=self.J)

    def _terms(self, eta):
        pi = expit(eta)
        mu = self.lam0 + self.d * pi
        mu = np.clip(mu, 1e-15, 1 - 1e-15)
        dmu = self.d * pi * (1 - pi)
        ll = np.where(self.y == 1, np.log(mu), np.log1p(-mu))
        a = (self.y - mu) / (mu * (1 - mu))
        score = a * dmu
        fisher = dmu ** 2 / (mu * (1 - mu))
        da = (-(mu * (1 - mu)) - (self.y - mu) * (1 - 2 * mu)) / (mu * (1 - mu)) ** 2
        second = da * dmu ** 2 + a * self.d * pi * (1 - pi) * (1 - 2 * pi)
        return ll, score, fisher, second

    def modes(self, beta, sigma):
        """The conditional modes u*_j (vectorised Fisher scoring, then Newton), warm-started."""
        lin = self.X @ beta
        u = self.u.copy()
        for it in range(200):
            _ll, s, w, h2 = self._terms(lin + sigma * u[self.c])
            g = sigma * self._sum(s) - u
            if np.max(np.abs(g)) < 1e-12:
                break
            curv = sigma ** 2 * self._sum(h2) - 1 if it > 3 else -(sigma ** 2 * self._sum(w) + 1)
            curv = np.where(curv < 0, curv, -(sigma ** 2 * self._sum(w) + 1))
            step = -g / curv
            u = u + np.clip(step, -2, 2)
        self.u = u
        return u

    def deviance(self, theta) -> float:
        """-2 x the approximate marginal log-likelihood at theta = (sigma, beta)."""
        sigma, beta = abs(float(theta[0])), np.asarray(theta[1:], float)
        u = self.modes(beta, sigma)
        lin = self.X @ beta
        ll, _s, w, _h = self._terms(lin + sigma * u[self.c])
        info = 1 + sigma ** 2 * self._sum(w)
        if self.nagq == 1 or sigma == 0:
            return float(-2 * ll.sum() + u @ u + np.log(info).sum())
        z, W = self.gh
        s = 1 / np.sqrt(info)
        h0 = self._sum(ll) - u ** 2 / 2
        acc = np.zeros(self.J)
        for zk, wk in zip(z, W):
            uk = u + s * zk
            llk = self._terms(lin + sigma * uk[self.c])[0]
            acc += wk * np.exp(self._sum(llk) - uk ** 2 / 2 - h0 + zk ** 2 / 2)
        return float(-2 * (h0 + np.log(s) + np.log(acc)).sum())


def hessian(f, theta, steps) -> np.ndarray:
    """Central-difference Hessian of ``f`` at ``theta``."""
    k = len(theta)
    H = np.empty((k, k))
    f0 = f(theta)
    for i in range(k):
        for j in range(i, k):
            if i == j:
                e = np.zeros(k)
                e[i] = steps[i]
                H[i, i] = (f(theta + e) - 2 * f0 + f(theta - e)) / steps[i] ** 2
            else:
                ei, ej = np.zeros(k), np.zeros(k)
                ei[i], ej[j] = steps[i], steps[j]
                H[i, j] = H[j, i] = (f(theta + ei + ej) - f(theta + ei - ej) - f(theta - ei + ej)
                                     + f(theta - ei - ej)) / (4 * steps[i] * steps[j])
    return H


def fit(model: Model, beta0, sigma0: float = 0.5, progress=None):
    """Maximise the marginal likelihood: ``(sigma, beta, vcov over (sigma, beta), loglik, on_boundary)``.

    ``progress(fraction, text)``, if given, is called after each quasi-Newton iteration and each polishing step
    (an exception it raises, such as a worker's cancellation, stops the fit)."""
    theta0 = np.concatenate([[sigma0], beta0])
    bounds = [(0, None)] + [(None, None)] * len(beta0)
    done = [0]

    def iterated(_theta) -> None:
        done[0] += 1
        if progress is not None:  # the iterations needed are not known: creep towards 0.8
            progress(0.2 + 0.6 * done[0] / (done[0] + 20), f"Maximising the marginal likelihood (step {done[0]})")

    res = minimize(model.deviance, theta0, method="L-BFGS-B", bounds=bounds, callback=iterated,
                   options={"ftol": 1e-15, "gtol": 1e-9, "maxiter": 2000})
    theta = res.x.copy()
    on_boundary = theta[0] < 1e-4
    if on_boundary:
        theta[0] = 0.0
    free = slice(1, None) if on_boundary else slice(None)
    for k in range(8):  # Newton polish on the central-difference Hessian
        if progress is not None:
            progress(0.8 + 0.1 * k / 8, "Polishing the optimum")
        steps = 1e-4 * np.maximum(1.0, np.abs(theta))
        sub = theta[free]

        def f(t, sub_theta=theta):
            full = sub_theta.copy()
            full[free] = t
            return model.deviance(full)

        g = np.array([(f(sub + e) - f(sub - e)) / (2 * h) for e, h in
                      ((np.eye(len(sub))[i] * steps[free][i], steps[free][i]) for i in range(len(sub)))])
        H = hessian(f, sub, steps[free])
        try:
            step = np.linalg.solve(H, -g)
        except np.linalg.LinAlgError:
            break
        new = theta.copy()
        new[free] = sub + step
        if not on_boundary and new[0] < 0:
            break
        if model.deviance(new) <= model.deviance(theta) + 1e-10:
            theta = new
        if np.max(np.abs(step)) < 1e-9:
            break
    steps = 1e-4 * np.maximum(1.0, np.abs(theta))
    sub = theta[free]

    def f(t):
        full = theta.copy()
        full[free] = t
        return model.deviance(full)

    H = hessian(f, sub, steps[free])
    try:
        V = 2 * np.linalg.inv(H)
    except np.linalg.LinAlgError:
        raise EstimationError("The multilevel model's information matrix is singular: some coefficient is not "
                              "identified (collinear predictors, or too few clusters).") from None
    if on_boundary:
        full = np.full((len(theta), len(theta)), np.nan)
        full[1:, 1:] = V
        V = full
    return theta, V, -model.deviance(theta) / 2, on_boundary


def wald(estimate: float, se: float, confidence: float):
    """z, p and the Wald interval."""
    z = estimate / se if se > 0 else math.nan
    q = float(ndtri(0.5 + confidence / 2))
    return z, float(2 * ndtr(-abs(z))), (estimate - q * se, estimate + q * se)


def sd_interval(sigma: float, se: float, confidence: float) -> tuple[float, float]:
    """Wald interval of the random SD on the log scale (kept positive); (0, nan) at the boundary."""
    if not sigma > 0 or not math.isfinite(se):
        return (0.0, math.nan)
    q = float(ndtri(0.5 + confidence / 2)) * se / sigma
    return (sigma * math.exp(-q), sigma * math.exp(q))
