"""Multilevel logistic regression with a randomized-response outcome (RRreg's RRmixed).

Respondent i in cluster j (a school, a firm, a country) is a carrier with probability
``pi_ij = logistic(x_ij' beta + sigma u_j)``, ``u_j ~ N(0, 1)`` independent, and gives the recorded
"yes" with probability ``mu_ij = lambda_0 + (lambda_1 - lambda_0) pi_ij`` (the design's link, as
RRmixed's ``RRloglink``: a binomial GLMM with that link; van den Hout, van der Heijden & Gilchrist 2007;
Fox, Klein Entink & Avetisyan 2014). One-group yes/no designs only, as RRmixed: two-group designs
(SLD, CDM, unrelated question with unknown prevalence, ECWM) are refused in words (:mod:`.multilevel_fit`).

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

``(sigma, beta)`` maximise it (bounded quasi-Newton, then Newton steps; for Laplace on the exact gradient
of the deviance, with the modes' response by the implicit function theorem, and a Hessian from central
differences of that gradient; for adaptive quadrature on central differences of the deviance).
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
        self._cache = None
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
        return self.modes_and_terms(beta, sigma)[0]

    def modes_and_terms(self, beta, sigma):
        """The modes and :meth:`_terms` at them (cached for the last (beta, sigma): a deviance and its
        gradient at one point solve for the modes once)."""
        key = (float(sigma), tuple(np.asarray(beta, float)))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        lin = self.X @ beta
        u = self.u.copy()
        for it in range(200):
            terms = self._terms(lin + sigma * u[self.c])
            _ll, s, w, h2 = terms
            g = sigma * self._sum(s) - u
            if np.max(np.abs(g)) < 1e-12:
                break
            curv = sigma ** 2 * self._sum(h2) - 1 if it > 3 else -(sigma ** 2 * self._sum(w) + 1)
            curv = np.where(curv < 0, curv, -(sigma ** 2 * self._sum(w) + 1))
            step = -g / curv
            u = u + np.clip(step, -2, 2)
        else:
            terms = self._terms(lin + sigma * u[self.c])
        self.u = u
        self._cache = (key, (u, terms))
        return u, terms

    def deviance(self, theta) -> float:
        """-2 x the approximate marginal log-likelihood at theta = (sigma, beta)."""
        sigma, beta = abs(float(theta[0])), np.asarray(theta[1:], float)
        u, (ll, _s, w, _h) = self.modes_and_terms(beta, sigma)
        lin = self.X @ beta
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

    def gradient(self, theta) -> np.ndarray:
        """The exact gradient of the Laplace deviance (``nagq=1``) over theta = (sigma, beta).

        With ``F = -2 sum l + u'u`` stationary in u at the modes, ``dF/dtheta`` is its partial derivative
        (envelope theorem); the log-determinant term ``G = sum_j log(1 + sigma^2 W_j)`` also moves with the
        modes: ``du_j/dtheta = -(dg_j/dtheta) / (dg_j/du_j)`` for ``g_j = sigma sum_i s_ij - u_j``
        (implicit function theorem), and ``dW_j = sum_i w'_ij d eta_ij``.
        """
        sigma, beta = abs(float(theta[0])), np.asarray(theta[1:], float)
        u, (_ll, s, w, h2) = self.modes_and_terms(beta, sigma)
        uc = u[self.c]
        eta = self.X @ beta + sigma * uc
        pi = expit(eta)
        mu = np.clip(self.lam0 + self.d * pi, 1e-15, 1 - 1e-15)
        v = mu * (1 - mu)
        dmu = self.d * pi * (1 - pi)
        ddmu = dmu * (1 - 2 * pi)
        dw = 2 * dmu * ddmu / v - dmu ** 3 * (1 - 2 * mu) / v ** 2
        W = self._sum(w)
        info = 1 + sigma ** 2 * W
        dg_du = sigma ** 2 * self._sum(h2) - 1
        # d eta_i / d theta (k columns: sigma, beta) with u held, then the modes' response
        deta = np.column_stack([uc, self.X])
        dg = np.column_stack([self._sum(s) + sigma * self._sum(h2 * uc),
                              sigma * np.stack([self._sum(h2 * x) for x in self.X.T], axis=1)])
        du = -dg / dg_du[:, None]
        deta_total = deta + sigma * du[self.c]
        dW = np.stack([self._sum(dw * col) for col in deta_total.T], axis=1)
        grad_F = -2 * (s @ deta)
        grad_G = ((sigma ** 2 * dW) / info[:, None]).sum(axis=0)
        grad_G[0] += (2 * sigma * W / info).sum()
        return grad_F + grad_G

    def deviance_and_gradient(self, theta):
        return self.deviance(theta), self.gradient(theta)


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


def _gradient_hessian(model: Model, theta, free) -> np.ndarray:
    """Central differences of the exact gradient over the free coordinates (2k gradient evaluations)."""
    idx = np.flatnonzero(free)
    H = np.empty((len(idx), len(idx)))
    for col, i in enumerate(idx):
        h = 1e-5 * max(1.0, abs(theta[i]))
        up, down = theta.copy(), theta.copy()
        up[i] += h
        down[i] -= h
        H[:, col] = (model.gradient(up)[idx] - model.gradient(down)[idx]) / (2 * h)
    return (H + H.T) / 2


def fit(model: Model, beta0, sigma0: float = 0.5, progress=None):
    """Maximise the marginal likelihood: ``(sigma, beta, vcov over (sigma, beta), loglik, on_boundary)``.

    Laplace (``nagq=1``): L-BFGS-B on the exact gradient (:meth:`Model.gradient`), Newton steps on the
    Hessian from central differences of that gradient. Adaptive quadrature: the same on central differences
    of the deviance. ``progress(fraction, text)``, if given, is called after each quasi-Newton iteration and
    each polishing step (an exception it raises, such as a worker's cancellation, stops the fit).
    """
    exact = model.nagq == 1
    theta0 = np.concatenate([[sigma0], beta0])
    bounds = [(0, None)] + [(None, None)] * len(beta0)
    done = [0]

    def iterated(_theta) -> None:
        done[0] += 1
        if progress is not None:  # the iterations needed are not known: creep towards 0.8
            progress(0.2 + 0.6 * done[0] / (done[0] + 20), f"Maximising the marginal likelihood (step {done[0]})")

    res = minimize(model.deviance_and_gradient if exact else model.deviance, theta0, jac=exact,
                   method="L-BFGS-B", bounds=bounds, callback=iterated,
                   options={"ftol": 1e-15, "gtol": 1e-9, "maxiter": 2000})
    theta = res.x.copy()
    on_boundary = theta[0] < 1e-4
    if on_boundary:
        theta[0] = 0.0
    free = np.ones(len(theta), bool)
    free[0] = not on_boundary

    def deviance_on(t, base):
        full = base.copy()
        full[free] = t
        return model.deviance(full)

    def grad_and_hessian(th):
        if exact:
            return model.gradient(th)[free], _gradient_hessian(model, th, free)
        steps = 1e-4 * np.maximum(1.0, np.abs(th))[free]
        sub = th[free]
        g = np.array([(deviance_on(sub + e, th) - deviance_on(sub - e, th)) / (2 * h)
                      for e, h in ((np.eye(len(sub))[i] * steps[i], steps[i]) for i in range(len(sub)))])
        return g, hessian(lambda t: deviance_on(t, th), sub, steps)

    H, H_at = None, None
    for k in range(8):  # Newton polish
        if progress is not None:
            progress(0.8 + 0.1 * k / 8, "Polishing the optimum")
        g, H = grad_and_hessian(theta)
        H_at = theta.copy()
        try:
            step = np.linalg.solve(H, -g)
        except np.linalg.LinAlgError:
            break
        new = theta.copy()
        new[free] = theta[free] + step
        if not on_boundary and new[0] < 0:
            break
        if model.deviance(new) <= model.deviance(theta) + 1e-10:
            theta = new
        if np.max(np.abs(step)) < 1e-9:
            break
    if H_at is not None and np.max(np.abs(H_at - theta)) < 1e-8:
        pass  # the last Newton step was negligible: its Hessian is the one at the optimum
    elif exact:
        H = _gradient_hessian(model, theta, free)
    else:
        steps = 1e-4 * np.maximum(1.0, np.abs(theta))[free]
        H = hessian(lambda t: deviance_on(t, theta), theta[free], steps)
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
