"""Likelihoods, maximum-likelihood estimates and Fisher information over response counts.

Observed counts ``n[g, r]`` of response ``r`` in group ``g`` are multinomial with
probabilities ``lambda_g = P_g @ c(theta)`` (the design matrix times the latent-state
probabilities), so ``loglik(theta) = sum_g sum_r n[g, r] * log(lambda_g[r])``
(Chaudhuri 2011, *Randomized Response and Indirect Questioning Techniques*, ch. 2;
van den Hout & van der Heijden 2002, *Int. Stat. Rev.* 70, 269).

Three families cover every design:

* ``OneParameter``: ``lambda_g = A_g + B_g * pi`` (Warner, forced, unrelated, crosswise,
  triangular, Mangat, Kuk, 2-state custom, and each category of unary designs). The
  log-likelihood is concave in ``pi``; its maximum on [0, 1] is the moment estimate
  ``(lambda_hat - A) / B`` clipped to [0, 1] for yes/no designs (Chaudhuri 2011, 2.3).
* ``TwoGroup``: two groups of yes/no answers with ``lambda_g = C_g + D_g pi + E_g eta +
  F_g pi eta``: SLD (eta = t), CDM (eta = beta), unrelated-unknown (eta = pi_uq).
  Saturated: the moment estimate (RRreg's closed forms) is the ML estimate whenever it
  lies in the parameter space; otherwise the ML estimate is found on the boundary by
  maximizing the profile likelihood, which is concave in ``pi`` (the model is affine in
  ``(pi, pi*eta)`` or ``(pi, eta)``).
* ``Categorical``: ``lambda = P @ c`` with ``c`` on the simplex (forced_multi, krr,
  custom with more than two states): ``c = P^-1 lambda_hat`` when it lies on the simplex,
  otherwise constrained ML (EM steps, then SLSQP on the simplex).

Standard errors come from the expected Fisher information with n (not n - 1; RRreg's
closed forms use n - 1, so RRreg's SE = ours * sqrt(n / (n - 1))).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.optimize import brentq, minimize, minimize_scalar

_TINY = 1e-300


def _xlogy(k: np.ndarray, lam: np.ndarray) -> float:
    """sum k * log(lam) with 0 * log(0) = 0 and k > 0, lam = 0 giving -inf."""
    k = np.asarray(k, float)
    lam = np.asarray(lam, float)
    pos = k > 0
    if np.any(lam[pos] <= 0):
        return -math.inf
    return float(np.sum(k[pos] * np.log(lam[pos])))


# ----------------------------------------------------------------------------- one parameter


@dataclass(frozen=True)
class OneParameter:
    """``lambda_g = A_g + B_g * pi`` for each group g (rows: responses)."""

    A: tuple[np.ndarray, ...]
    B: tuple[np.ndarray, ...]

    @classmethod
    def from_matrices(cls, matrices) -> "OneParameter":
        return cls(tuple(m[:, 0].astype(float) for m in matrices), tuple((m[:, 1] - m[:, 0]).astype(float) for m in matrices))

    def probabilities(self, pi: float) -> list[np.ndarray]:
        return [np.clip(a + b * pi, 0.0, 1.0) for a, b in zip(self.A, self.B)]

    def loglik(self, counts, pi: float) -> float:
        return sum(_xlogy(n, lam) for n, lam in zip(counts, self.probabilities(pi)))

    def score(self, counts, pi: float) -> float:
        total = 0.0
        for n, a, b in zip(counts, self.A, self.B):
            lam = a + b * pi
            pos = (n > 0) & (b != 0)
            if np.any(lam[pos] <= 0):
                return math.inf if np.any(b[pos][lam[pos] <= 0] > 0) else -math.inf
            total += float(np.sum(n[pos] * b[pos] / lam[pos]))
        return total

    def information(self, n_per_group, pi: float) -> float:
        """Expected Fisher information ``sum_g n_g sum_r B_gr^2 / lambda_gr``."""
        info = 0.0
        for n, lam, b in zip(n_per_group, self.probabilities(pi), self.B):
            live = b != 0
            if np.any(lam[live] <= 0):
                return math.inf
            info += n * float(np.sum(b[live] ** 2 / lam[live]))
        return info

    def is_saturated_binary(self) -> bool:
        return len(self.A) == 1 and len(self.A[0]) == 2

    def moment(self, counts) -> float:
        """Unconstrained least-squares moment estimate: the response shares projected on ``B``.

        ``pi_m = sum_g N_g B_g . (n_g / N_g - A_g) / sum_g N_g |B_g|^2``. For a one-group
        yes/no design this is the usual ``(lambda_hat - A) / B`` (RRreg's RRuni closed
        forms). For Kuk's design with several draws it is NOT RRreg's estimator: RRreg
        (``RRuni``, model "Kuk") uses the mean number of red cards,
        ``pi_K = (mean(red) / draws - p2) / (p1 - p2)``. Both are unbiased and consistent;
        neither is reported as the estimate, which is the ML estimate (``mle``).
        """
        # Project on the direction B: E[B . n / N] = A.B + |B|^2 pi, pooled over groups.
        num = den = 0.0
        for n, a, b in zip(counts, self.A, self.B):
            N = n.sum()
            if N == 0:
                continue
            num += float(b @ (n / N - a)) * N
            den += float(b @ b) * N
        return num / den

    def mle(self, counts) -> tuple[float, bool]:
        """(ML estimate in [0, 1], whether it is the interior moment estimate)."""
        m = self.moment(counts)
        if self.is_saturated_binary():
            return min(1.0, max(0.0, m)), 0.0 < m < 1.0
        lo_score, hi_score = self.score(counts, 0.0), self.score(counts, 1.0)
        if lo_score <= 0:
            return 0.0, False
        if hi_score >= 0:
            return 1.0, False
        root = brentq(lambda p: self.score(counts, p), 0.0, 1.0, xtol=1e-14, rtol=1e-14)
        return root, False


def kuk_mean_red_estimate(counts, p1: float, p2: float, draws: int) -> float:
    """RRreg's moment estimate for Kuk's design with ``draws`` cards (``RRreg::RRuni``, "Kuk").

    ``pi_K = (lambda - p2) / (p1 - p2)`` with ``lambda = sum_r r n_r / (N draws)``, the mean
    share of red cards (Kuk 1990; Heck & Moshagen 2018, ``R/RRuni_models.R``).
    ``counts[r]`` is the number of respondents reporting ``r`` red cards, ``r = 0..draws``.
    Unconstrained (may leave [0, 1]); offered for comparison with RRreg.
    """
    n = np.asarray(counts, float)
    lam = float(np.arange(len(n)) @ n) / (n.sum() * draws)
    return (lam - p2) / (p1 - p2)


# ----------------------------------------------------------------------------- two groups


@dataclass(frozen=True)
class TwoGroup:
    """Yes/no answers in two groups: ``lambda_g = C_g + D_g pi + E_g eta + F_g pi eta``.

    ``eta_upper_is_one_minus_pi``: the nuisance is bounded by ``1 - pi`` (CDM's beta).
    """

    C: np.ndarray
    D: np.ndarray
    E: np.ndarray
    F: np.ndarray
    eta_upper_is_one_minus_pi: bool = False

    @cached_property
    def _floats(self) -> tuple[list[float], ...]:
        return self.C.tolist(), self.D.tolist(), self.E.tolist(), self.F.tolist()

    def eta_bounds(self, pi: float) -> tuple[float, float]:
        return 0.0, (1.0 - pi if self.eta_upper_is_one_minus_pi else 1.0)

    def yes_probability(self, pi: float, eta: float) -> np.ndarray:
        return np.clip(self.C + self.D * pi + self.E * eta + self.F * pi * eta, 0.0, 1.0)

    def loglik(self, y, n, pi: float, eta: float) -> float:
        lam = self.yes_probability(pi, eta)
        return _xlogy(y, lam) + _xlogy(n - y, 1 - lam)

    def _eta_score(self, y, n, pi, eta) -> float:
        total = 0.0
        for c, d, e, f, k, m in zip(*self._floats, y.tolist(), n.tolist()):
            l = c + d * pi + e * eta + f * pi * eta
            s = e + f * pi
            if s == 0:
                continue
            if k > 0:
                total += math.inf * s if l <= 0 else s * k / l
            if m - k > 0:
                total -= math.inf * s if l >= 1 else s * (m - k) / (1 - l)
        return total

    def profile_eta(self, y, n, pi: float) -> float:
        """The nuisance value maximizing the likelihood at fixed ``pi`` (concave in eta)."""
        lo, hi = self.eta_bounds(pi)
        if hi - lo <= 0 or np.all(self.E + self.F * pi == 0):
            return lo
        eps = 1e-13 * max(hi - lo, 1e-300)
        s_lo = self._eta_score(y, n, pi, lo + eps)
        if s_lo <= 0:
            return lo
        s_hi = self._eta_score(y, n, pi, hi - eps)
        if s_hi >= 0:
            return hi
        return brentq(lambda e: self._eta_score(y, n, pi, e), lo + eps, hi - eps, xtol=1e-14, rtol=1e-13)

    def profile_loglik(self, y, n, pi: float) -> float:
        return self.loglik(y, n, pi, self.profile_eta(y, n, pi))

    def moment(self, y, n) -> tuple[float, float]:
        """Solve ``lambda_hat_g = C_g + D_g pi + E_g eta + F_g pi eta`` (RRreg's closed forms)."""
        lam = y / n
        if np.any(self.F != 0):  # SLD: affine in (pi, h = pi * eta) with E = 0
            M = np.column_stack([self.D, self.F])
            pi, h = np.linalg.solve(M, lam - self.C)
            # t = h / pi is unidentified where pi is (numerically) 0: NaN, never h / 1e-16
            return float(pi), (float(h / pi) if abs(pi) > 1e-9 else math.nan)
        M = np.column_stack([self.D, self.E])
        pi, eta = np.linalg.solve(M, lam - self.C)
        return float(pi), float(eta)

    def mle(self, y, n) -> tuple[float, float, bool]:
        """(pi, eta, interior) maximizing the likelihood on the parameter space."""
        pi, eta = self.moment(y, n)
        if 0 < pi < 1 and math.isfinite(eta):
            lo, hi = self.eta_bounds(pi)
            if lo < eta < hi:
                return pi, eta, True
        # The profile log-likelihood is concave in pi: if it does not fall towards an end,
        # that end is the maximum (the usual case when the moment estimate lies outside).
        h = 1e-7
        if self.profile_loglik(y, n, 1.0) >= self.profile_loglik(y, n, 1.0 - h):
            best = 1.0
        elif self.profile_loglik(y, n, 0.0) >= self.profile_loglik(y, n, h):
            best = 0.0
        else:
            res = minimize_scalar(lambda p: -self.profile_loglik(y, n, p), bounds=(0.0, 1.0), method="bounded",
                                  options={"xatol": 1e-12})
            best = max([float(res.x), 0.0, 1.0], key=lambda p: self.profile_loglik(y, n, p))
        return best, self.profile_eta(y, n, best), False

    def information(self, n, pi: float, eta: float) -> np.ndarray:
        """Expected Fisher information for (pi, eta): ``sum_g n_g grad grad' / (lambda (1 - lambda))``."""
        lam = self.C + self.D * pi + self.E * eta + self.F * pi * eta
        grad = np.column_stack([self.D + self.F * eta, self.E + self.F * pi])
        info = np.zeros((2, 2))
        for m, l, g in zip(n, lam, grad):
            v = l * (1 - l)
            if v <= 0:
                if np.any(g != 0):
                    return np.full((2, 2), math.inf)
                continue
            info += m * np.outer(g, g) / v
        return info

    # Affine coordinates, for the two-dimensional calibration of intervals: the model is
    # affine in (pi, eta), or in (pi, pi * eta) for the SLD (E = 0, F = 1).

    def affine_point(self, pi: float, eta: float) -> np.ndarray:
        return np.array([pi, pi * eta if np.any(self.F != 0) else eta])

    def affine_region(self) -> np.ndarray:
        """The parameter space in affine coordinates (counter-clockwise polygon)."""
        if np.any(self.F != 0):
            return np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])  # 0 <= pi * t <= pi <= 1
        if self.eta_upper_is_one_minus_pi:
            return np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])  # pi + beta <= 1
        return np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])

    def affine_segment(self, pi: float) -> tuple[np.ndarray, np.ndarray]:
        """The points of the region with the first coordinate equal to ``pi``."""
        top = pi if np.any(self.F != 0) else self.eta_bounds(pi)[1]
        return np.array([pi, 0.0]), np.array([pi, top])

    def affine_information(self, n, pi: float, eta: float) -> np.ndarray:
        """Fisher information in affine coordinates (lambda kept 0.5/n from 0 and 1)."""
        M = np.column_stack([self.D, self.F if np.any(self.F != 0) else self.E])
        lam = self.C + self.D * pi + self.E * eta + self.F * pi * eta
        n = np.asarray(n, float)
        lam = np.clip(lam, 0.5 / n, 1 - 0.5 / n)
        return (M.T * (n / (lam * (1 - lam)))) @ M


def covariance(info: np.ndarray) -> np.ndarray:
    """Inverse information; parameters whose information is zero get infinite variance."""
    info = np.asarray(info, float)
    if not np.all(np.isfinite(info)):
        return np.zeros_like(info)
    try:
        cov = np.linalg.inv(info)
        if np.all(np.isfinite(cov)) and np.all(np.diag(cov) >= 0):
            return cov
    except np.linalg.LinAlgError:
        pass
    cov = np.linalg.pinv(info)
    diag = np.diag(info)
    for i in range(len(diag)):
        if diag[i] <= 0:
            cov[i, :] = cov[:, i] = math.nan
            cov[i, i] = math.inf
    return cov


def schur_se(info: np.ndarray) -> float:
    """SE of the first parameter with the second profiled out; the plain SE if the second is unidentified."""
    i11, i12, i22 = info[0, 0], info[0, 1], info[1, 1]
    if not np.all(np.isfinite(info)):
        return 0.0
    eff = i11 - (i12 * i12 / i22 if i22 > 1e-12 * max(i11, 1e-300) else 0.0)
    return 1 / math.sqrt(eff) if eff > 0 else math.inf


# ----------------------------------------------------------------------------- categorical


def categorical_mle(matrix: np.ndarray, counts: np.ndarray, fixed: tuple[int, float] | None = None) -> np.ndarray:
    """ML estimate of the state distribution ``c`` on the simplex for ``lambda = matrix @ c``.

    ``fixed=(j, value)`` holds ``c_j = value`` (for the profile likelihood). EM steps
    (Bourke & Moran 1988; van den Hout & van der Heijden 2002) give a start; SLSQP on the
    simplex finishes, so that components on the boundary are exactly 0.
    """
    P = np.asarray(matrix, float)
    n = np.asarray(counts, float)
    k = P.shape[1]
    free = np.ones(k, bool)
    total = 1.0
    base = np.zeros(k)
    if fixed is not None:
        j, value = fixed
        free[j] = False
        base[j] = value
        total = 1.0 - value
    idx = np.flatnonzero(free)
    if total <= 0:
        return base
    c = base.copy()
    c[idx] = total / len(idx)
    N = n.sum()
    for _ in range(300):
        lam = P @ c
        with np.errstate(divide="ignore", invalid="ignore"):
            w = np.where(n > 0, n / np.maximum(lam, _TINY), 0.0)
        upd = c * (P.T @ w) / N
        upd[~free] = base[~free]
        s = upd[idx].sum()
        if s <= 0:
            break
        upd[idx] *= total / s
        if np.max(np.abs(upd - c)) < 1e-12:
            c = upd
            break
        c = upd

    def negll(x):
        full = base.copy()
        full[idx] = x
        lam = np.maximum(P @ full, _TINY)
        return -float(n @ np.log(lam)) / N

    def grad(x):
        full = base.copy()
        full[idx] = x
        lam = np.maximum(P @ full, _TINY)
        return -(P[:, idx].T @ (n / lam)) / N

    res = minimize(negll, c[idx], jac=grad, method="SLSQP", bounds=[(0.0, total)] * len(idx),
                   constraints=[{"type": "eq", "fun": lambda x: x.sum() - total, "jac": lambda x: np.ones_like(x)}],
                   options={"ftol": 1e-15, "maxiter": 500})
    x = np.clip(res.x, 0.0, total) if res.success or negll(res.x) <= negll(c[idx]) else c[idx]
    x = x * (total / x.sum()) if x.sum() > 0 else x
    out = base.copy()
    out[idx] = x
    return out


def categorical_information(matrix: np.ndarray, n: float, c: np.ndarray) -> np.ndarray:
    """Fisher information for the free coordinates ``c_1..c_{k-1}`` (``c_0 = 1 - sum``)."""
    P = np.asarray(matrix, float)
    J = P[:, 1:] - P[:, [0]]
    lam = P @ c
    live = lam > 0
    return n * (J[live].T / lam[live]) @ J[live]


def categorical_covariance(matrix: np.ndarray, n: float, c: np.ndarray) -> np.ndarray:
    """Covariance of all k frequencies from the free-coordinate information (delta method for c_0)."""
    k = len(c)
    free_cov = covariance(categorical_information(matrix, n, c))
    T = np.vstack([-np.ones((1, k - 1)), np.eye(k - 1)])  # c = e_0 + T @ free
    return T @ free_cov @ T.T
