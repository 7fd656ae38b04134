"""The likelihood of logistic regression with a randomized-response outcome, and its maximizer.

Respondent i, with covariates ``x_i`` and randomization group ``g_i``, is a carrier with
probability ``pi_i = logistic(x_i' beta + offset_i)``. Their recorded response ``r_i`` has
probability

    L_i = P_g[r_i, 0] (1 - pi_i) + P_g[r_i, 1] pi_i = A_i(eta) + B_i(eta) pi_i,

with ``P_g`` the design's matrix for their group (van den Hout, van der Heijden &
Gilchrist 2007, CSDA 51:6060, eq. 2). Group 0 is asked directly (``P_0`` the identity).
For two-group designs ``A_i`` and ``B_i`` are affine in one nuisance parameter ``eta``
in [0, 1], estimated jointly as RRreg's ``RRlog`` does:

* SLD: ``eta = t``, the share of carriers who answer honestly; states (non-carrier,
  honest carrier, liar) have probabilities ``(1 - pi, pi t, pi (1 - t))``.
* unrelated question, unknown prevalence: ``eta = pi_uq``, the innocuous prevalence,
  independent of the sensitive state.
* CDM: ``eta = gamma``, the share of cheaters (who say "no" whatever their state);
  ``pi`` is the carrier probability of respondents who follow the instructions, so the
  states (honest non-carrier, honest carrier, cheater) have probabilities
  ``((1 - gamma)(1 - pi), (1 - gamma) pi, gamma)`` and RRreg's CDM prevalence (honest
  carriers among everyone) is ``(1 - gamma) pi``. (RRlog 0.7.5 names a ``gamma`` but
  its likelihood ignores it, i.e. it fits gamma = 0 with a zero Hessian row.)

With survey weights (``rr.logistic(..., weights=...)``, ``survey_logistic``) each
respondent's term is multiplied by their weight, scaled to mean 1: the weighted
pseudo-log-likelihood (Binder 1983; Skinner 1989), maximized the same way.

``loglik = sum_i log L_i``; with ``w_i = pi_i (1 - pi_i)`` and ``c_i = dL_i/d eta``:

    d/d beta  = sum_i x_i B_i w_i / L_i
    d/d eta   = sum_i c_i / L_i
    d2/d beta2 = sum_i x_i x_i' [B_i w_i (1 - 2 pi_i) / L_i - (B_i w_i / L_i)^2]
    d2/d beta d eta = sum_i x_i [B1_i w_i / L_i - B_i w_i c_i / L_i^2],  d2/d eta2 = -sum c_i^2 / L_i^2

Fitting: EM for a start (Magder & Hughes 1997, Am. J. Epidemiol. 146:195; the latent
state is a misclassified binary outcome, the M-step one IRLS step of a logistic
regression on the posterior carrier probabilities), then damped Newton on the exact
log-likelihood with the nuisance kept in [0, 1] (an active-set step on the bound) until
the gradient norm is below ``1e-8`` (or the floating-point floor ``1e-13 n`` for very
large samples).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.design import Design

#: Name of the nuisance parameter per two-group model, as RRlog names it.
NUISANCE = {"sld": "t", "unrelated_unknown": "pi_uq", "cdm": "gamma"}
#: The value the nuisance is tested against (RRlog's ``fix.par2``): all honest, no cheaters.
NUISANCE_NULL = {"sld": 1.0, "cdm": 0.0}


@dataclass
class Data:
    """Covariates and the per-respondent coefficients ``L_i = A0 + A1 eta + (B0 + B1 eta) pi``."""

    X: np.ndarray
    offset: np.ndarray
    A0: np.ndarray
    A1: np.ndarray
    B0: np.ndarray
    B1: np.ndarray
    has_eta: bool
    weights: np.ndarray | None = None  # survey weights: the weighted pseudo-log-likelihood

    @property
    def w(self):
        """The weights, or 1.0 (unweighted)."""
        return 1.0 if self.weights is None else self.weights

    @property
    def n(self) -> int:
        return len(self.offset)

    def drop(self, cols) -> "Data":
        keep = np.setdiff1d(np.arange(self.X.shape[1]), np.atleast_1d(cols))
        return Data(self.X[:, keep], self.offset, self.A0, self.A1, self.B0, self.B1, self.has_eta, self.weights)

    def shifted(self, extra_offset: np.ndarray) -> "Data":
        return Data(self.X, self.offset + extra_offset, self.A0, self.A1, self.B0, self.B1, self.has_eta,
                    self.weights)


def coefficients(design: Design, responses: np.ndarray, group: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(A0, A1, B0, B1)`` per respondent from the design's matrices (see the module docstring)."""
    n = len(responses)
    A0, A1, B0, B1 = (np.zeros(n) for _ in range(4))
    direct = group == 0
    r = responses
    A0[direct] = 1.0 - r[direct]          # P(r | non-carrier) at face value
    B0[direct] = 2.0 * r[direct] - 1.0    # P(r | carrier) - P(r | non-carrier)
    for g, M in enumerate(design.matrices, start=1):
        sel = group == g
        if not np.any(sel):
            continue
        m = M[r[sel]]  # rows: each respondent's response, columns: the design's states
        if design.model == "sld":        # states (non-carrier, honest, liar)
            A0[sel], B0[sel], B1[sel] = m[:, 0], m[:, 2] - m[:, 0], m[:, 1] - m[:, 2]
        elif design.model == "unrelated_unknown":  # states (no/no, no/yes, yes/no, yes/yes)
            A0[sel], A1[sel] = m[:, 0], m[:, 1] - m[:, 0]
            B0[sel], B1[sel] = m[:, 2] - m[:, 0], (m[:, 3] - m[:, 2]) - (m[:, 1] - m[:, 0])
        elif design.model == "cdm":      # states (honest non-carrier, carrier, cheater)
            A0[sel], A1[sel] = m[:, 0], m[:, 2] - m[:, 0]
            B0[sel], B1[sel] = m[:, 1] - m[:, 0], -(m[:, 1] - m[:, 0])
        else:                            # (non-carrier, carrier)
            A0[sel], B0[sel] = m[:, 0], m[:, 1] - m[:, 0]
    return A0, A1, B0, B1


@dataclass
class Derivatives:
    loglik: float
    grad: np.ndarray
    hess: np.ndarray
    pi: np.ndarray
    L: np.ndarray


def _parts(data: Data, beta: np.ndarray, eta: float):
    lp = data.X @ beta + data.offset
    pi, one_minus = expit(lp), expit(-lp)
    A = data.A0 + data.A1 * eta
    B = data.B0 + data.B1 * eta
    L = A + B * pi
    return lp, pi, one_minus, B, L


def loglik(data: Data, beta: np.ndarray, eta: float) -> float:
    _, _, _, _, L = _parts(data, beta, eta)
    if np.any(L <= 0):
        return -math.inf
    return float(np.sum(data.w * np.log(L)))


def derivatives(data: Data, beta: np.ndarray, eta: float) -> Derivatives:
    """Log-likelihood, gradient and Hessian in ``(beta, eta)`` (``eta`` last when present)."""
    _, pi, one_minus, B, L = _parts(data, beta, eta)
    if np.any(L <= 0):
        p = len(beta) + data.has_eta
        return Derivatives(-math.inf, np.zeros(p), np.zeros((p, p)), pi, L)
    w = pi * one_minus
    s = B * w / L
    X = data.X
    ww = data.w
    gb = X.T @ (ww * s)
    hbb = (X * (ww * (B * w * (1 - 2 * pi) / L - s * s))[:, None]).T @ X
    ll = float(np.sum(ww * np.log(L)))
    if not data.has_eta:
        return Derivatives(ll, gb, hbb, pi, L)
    c = data.A1 + data.B1 * pi
    ge = float(np.sum(ww * c / L))
    hbe = X.T @ (ww * (data.B1 * w / L - s * c / L))
    hee = -float(np.sum(ww * (c / L) ** 2))
    p = len(beta)
    H = np.empty((p + 1, p + 1))
    H[:p, :p], H[:p, p], H[p, :p], H[p, p] = hbb, hbe, hbe, hee
    return Derivatives(ll, np.append(gb, ge), H, pi, L)


def em_start(data: Data, eta: float, beta: np.ndarray | None = None, iterations: int = 8) -> np.ndarray:
    """Magder & Hughes (1997) EM: posterior carrier probabilities, then one IRLS step."""
    X = data.X
    beta = np.zeros(X.shape[1]) if beta is None else beta.copy()
    A = data.A0 + data.A1 * eta
    B = data.B0 + data.B1 * eta
    for _ in range(iterations):
        lp = X @ beta + data.offset
        pi = expit(lp)
        L = A + B * pi
        z = np.where(L > 0, pi * (A + B) / np.maximum(L, 1e-300), pi)  # P(carrier | response)
        w = np.maximum(pi * expit(-lp), 1e-10) * data.w
        H = (X * w[:, None]).T @ X
        try:
            step = np.linalg.solve(H + 1e-8 * np.eye(len(beta)), X.T @ (data.w * (z - pi)))
        except np.linalg.LinAlgError:
            break
        step = np.clip(step, -2.0, 2.0)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-3:  # a start for Newton, not the estimate
            break
    return beta


@dataclass
class Fit:
    beta: np.ndarray
    eta: float
    loglik: float
    grad: np.ndarray
    hess: np.ndarray
    iterations: int
    converged: bool
    eta_free: bool  # estimated (not fixed) and inside (0, 1)
    pi: np.ndarray


def tolerance(n: int) -> float:
    """Gradient-norm tolerance: 1e-8, or the floating-point floor of a sum of n terms."""
    return max(1e-8, 1e-13 * n)


def maximize(data: Data, beta0: np.ndarray, eta0: float = 0.0, *, fix_eta: bool = False,
             max_iter: int = 200) -> Fit:
    """Damped Newton ascent from ``(beta0, eta0)``; ``eta`` kept in [0, 1] (held if ``fix_eta``)."""
    beta = np.asarray(beta0, float).copy()
    eta = float(eta0) if data.has_eta else 0.0
    estimate_eta = data.has_eta and not fix_eta
    p = len(beta)
    tol = tolerance(data.n)
    d = derivatives(data, beta, eta)
    if not math.isfinite(d.loglik):
        return Fit(beta, eta, d.loglik, d.grad, d.hess, 0, False, False, d.pi)
    mu = 0.0
    for it in range(1, max_iter + 1):
        free = list(range(p))
        if estimate_eta:
            ge = d.grad[p]
            if not ((eta <= 0 and ge <= 0) or (eta >= 1 and ge >= 0)):
                free.append(p)
        g = d.grad[free]
        if np.linalg.norm(g) < tol:
            # a maximum, not a plateau: the information must be positive definite there (on a
            # plateau where every pi is 0 or 1 the gradient vanishes too)
            ok = _positive_definite(-d.hess[np.ix_(free, free)])
            return Fit(beta, eta, d.loglik, d.grad, d.hess, it - 1, ok, ok and p in free and 0 < eta < 1, d.pi)
        negH = -d.hess[np.ix_(free, free)]
        step = _newton_step(negH, g, mu)
        alpha, accepted = 1.0, False
        slope = float(g @ step)
        trial = None
        while alpha > 1e-10:
            nb = beta + alpha * step[:p]
            ne = min(1.0, max(0.0, eta + alpha * step[p])) if p in free else eta
            # the full step is nearly always taken: its derivatives are needed next anyway
            trial = derivatives(data, nb, ne) if alpha == 1.0 else None
            ll = trial.loglik if trial is not None else loglik(data, nb, ne)
            # near the optimum the predicted gain is below the rounding of the log-likelihood:
            # accept a Newton step that does not lose more than that rounding
            flat = slope < 1e-9 * max(1.0, abs(d.loglik)) and ll >= d.loglik - 1e-12 * max(1.0, abs(d.loglik))
            if ll >= d.loglik + 1e-4 * alpha * slope or flat:
                accepted = True
                break
            alpha *= 0.5
        if not accepted:
            if mu == 0.0:
                mu = 1e-6 * max(1.0, float(np.max(np.abs(np.diag(negH)))))
                continue
            return Fit(beta, eta, d.loglik, d.grad, d.hess, it, False, False, d.pi)
        mu = mu / 10 if alpha == 1.0 else mu
        if mu < 1e-14:
            mu = 0.0
        beta, eta = nb, ne
        d = trial if trial is not None else derivatives(data, beta, eta)
    return Fit(beta, eta, d.loglik, d.grad, d.hess, max_iter, False, False, d.pi)


def _positive_definite(M: np.ndarray) -> bool:
    if M.size == 0:
        return True
    scale = np.sqrt(np.clip(np.diag(M), 1e-300, None))
    try:
        c = np.linalg.cholesky(M / np.outer(scale, scale))
    except np.linalg.LinAlgError:
        return False
    return bool(np.min(np.diag(c)) ** 2 > 1e-12 and np.min(np.diag(M)) > 1e-12 * np.max(np.diag(M)))


def _newton_step(negH: np.ndarray, g: np.ndarray, mu: float) -> np.ndarray:
    """Solve ``(-H + mu I) s = g``, raising the damping until the matrix is positive definite."""
    k = len(g)
    scale = max(1e-300, float(np.max(np.abs(np.diag(negH))))) if k else 1.0
    m = mu
    for _ in range(60):
        try:
            c = np.linalg.cholesky(negH + m * np.eye(k))
            return np.linalg.solve(c.T, np.linalg.solve(c, g))
        except np.linalg.LinAlgError:
            m = max(10 * m, 1e-8 * scale)
    return g / scale  # gradient step


def best_fit(data: Data, eta_start: float, *, fix_eta: bool = False, beta_starts=()) -> Fit:
    """Fits from deterministic starts (the given ones, else EM from zero); the highest converged one.

    For two-group designs, whose likelihood is not concave, EM also starts from the
    nuisance at 0.5; results are reproducible (no random starts).
    """
    starts = [np.asarray(b, float) for b in beta_starts]
    eta_values = [eta_start]
    if data.has_eta and not fix_eta and abs(eta_start - 0.5) > 0.1:
        eta_values.append(0.5)
    fits = []
    for b in starts:
        fits.append(maximize(data, b, eta_start, fix_eta=fix_eta))
    if not any(f.converged for f in fits):
        for e in eta_values:
            fits.append(maximize(data, em_start(data, e if data.has_eta else 0.0), e, fix_eta=fix_eta))
    converged = [f for f in fits if f.converged]
    pool = converged or fits
    return max(pool, key=lambda f: f.loglik if math.isfinite(f.loglik) else -math.inf)


# ----------------------------------------------------------------------------- honest failure


def check_columns(X: np.ndarray, names: list[str]) -> None:
    """Raise if a column is not finite, or the columns are collinear (the fit cannot exist)."""
    if not np.all(np.isfinite(X)):
        j = int(np.flatnonzero(~np.all(np.isfinite(X), axis=0))[0])
        i = int(np.flatnonzero(~np.isfinite(X[:, j]))[0])
        raise EstimationError(
            f"Predictor {names[j]!r} has a missing or infinite value (row {i + 1}). Leave out rows with missing "
            f"covariates before fitting."
        )
    scale = np.sqrt(np.mean(X * X, axis=0))
    zero = np.flatnonzero(scale == 0)
    if len(zero):
        raise EstimationError(f"Predictor {names[zero[0]]!r} is 0 for every respondent; drop it from the model.")
    Z = X / scale
    from scipy.linalg import qr

    _, R, piv = qr(Z.T @ Z, pivoting=True)  # the p x p Gram matrix: cheap for any n
    diag = np.abs(np.diag(R))
    rank = int(np.sum(diag > 1e-10 * diag[0]))
    if rank < X.shape[1]:
        bad = [names[j] for j in piv[rank:]]
        raise EstimationError(
            f"The predictors are collinear: {', '.join(repr(b) for b in bad)} "
            f"{'is a combination' if len(bad) == 1 else 'are combinations'} of the others (for example every "
            f"category of a factor as well as the intercept, or a constant column). Drop "
            f"{'it' if len(bad) == 1 else 'them'}, or choose a reference category."
        )


def runaway(beta: np.ndarray, se: np.ndarray, X: np.ndarray, lp: np.ndarray) -> list[int]:
    """Coefficients whose estimate or SE has left any sensible range (separation).

    On the scale of each predictor's observed range (1 for the intercept and dummies): an
    SE above 30 means the likelihood is flat along the coefficient; an estimate above 30
    (an odds ratio of 1e13 across the data) or fitted log-odds beyond +-30 for some
    respondent (a probability within 1e-13 of 0 or 1) with an SE above 2 mean it keeps
    rising towards a prevalence of 0 or 1 in some category: the maximum does not exist.
    A steep but precisely estimated effect is not flagged.
    """
    rng = X.max(axis=0) - X.min(axis=0)
    rng = np.where(rng > 0, rng, 1.0)
    scaled_se = np.where(np.isfinite(se), se * rng, np.inf)
    loose = scaled_se > 2
    big = (scaled_se > 30) | ((np.abs(beta) * rng > 30) & loose)
    const = np.all(X == X[0], axis=0)
    # the most extreme predictor first; the intercept only when no predictor is to blame
    out = sorted(np.flatnonzero(big), key=lambda j: (bool(const[j]), -float(np.abs(beta[j]) * rng[j])))
    out = [int(j) for j in out]
    if not out and np.max(np.abs(lp)) > 30 and loose.any():
        i = int(np.argmax(np.abs(lp)))
        out = [int(np.argmax(np.abs(beta * X[i]) * loose))]
    return out
