"""Design-based randomized-response estimates for one domain (the work behind ``rr.survey_estimate``).

Every function takes the respondents' responses, the checked :class:`SampleDesign` and
the domain's weights ``wd`` (the survey weights, 0 outside the domain: domain estimation
never subsets the design, Lumley 2010, 2.3) and returns the estimate's parts with its
influence contributions ``u`` (n x k), so that covariances between domains come from
the same PSU totals.

* Linear estimators (one-group yes/no designs, each option of a unary design, designs
  with categories): the transformed response ``r_i`` (``(z_i - a) / b`` with
  ``P(yes | state) = a + b state``; the vector ``P^-1 e_{z_i}`` for categories; Chaudhuri
  2011, ch. 2) and its Hajek mean ``sum w_i r_i / sum w_i`` with influence
  ``w_i (r_i - mean) / sum w``, as ``svymean(~r, design)`` (Lumley 2004); with a known
  population size N the Horvitz-Thompson mean ``sum w_i r_i / N`` (influence
  ``w_i r_i / N``), as RRTCS (Cobo, Rueda & Arcos 2021, ``R/Qualitative.R``).
* Kuk's design with k cards and a known population size N: the Horvitz-Thompson mean of
  the mean-red-card transform ``r_i = (f_i / k - p2) / (p1 - p2)`` (``kuk_mean_red``).
* Pseudo-maximum likelihood (two-group designs, and Kuk's design with several cards
  without a population size):
  the weighted log-likelihood ``sum_i w_i log lambda_{g_i}(z_i; theta)`` is the ordinary
  log-likelihood of the weighted response totals, so the existing maximizers give the
  estimate inside the parameter space; the sandwich covariance ``H^-1 V H^-1`` with
  ``H = -d2/dtheta2`` of the weighted log-likelihood and ``V`` the design variance of the
  weighted score totals (Binder 1983, *Int. Stat. Rev.* 51, 279; Skinner 1989, in
  *Analysis of Complex Surveys*, ch. 3; as ``survey::svymle``). At an interior estimate
  of a saturated design it equals the linearization of the moment estimate.

The design effect of an estimate is its variance over the variance the same estimate
would have in a simple random sample of the same size drawn with replacement, as
``survey``'s ``deff = "replace"``: ``v_srs = s_w^2 / n`` with ``s_w^2 = n / (n - 1) sum w_i
(e_i - e_bar)^2 / sum w_i`` of the linearized variable ``e_i`` (``r_i`` for a mean). Both
the variance and ``v_srs`` are unchanged when every weight is multiplied by a constant, so
the design effect and the effective sample size ``n_eff = n / deff`` are too. ``survey``'s
``deff = TRUE`` multiplies ``v_srs`` by ``1 - n / sum w``, treating the weights' sum as
the population size: that factor moves with the weights' scale (weights x 1.01 summing to
1.01 n gave a design effect of 116), so it is not used; a finite-population correction
comes only from ``fpc``, in the design variance. ``n_eff`` is Korn & Graubard's (1998)
effective sample size ``p (1 - p) / var(p_hat)`` on the estimator's own scale: the
estimate's variance set against the with-replacement simple-random-sample variance of
the same estimator, which for a randomized response includes the randomizer's noise.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import stdtrit

from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.estimate import (
    _binary_slice,
    _categorical_profile_interval,
    _two_group_model,
    one_parameter_interval,
    two_group_interval,
)
from dpdesk.mechanisms.rr.likelihood import OneParameter, categorical_mle
from dpdesk.mechanisms.rr.linearization import SampleDesign


def srs_variance(e: np.ndarray, wd: np.ndarray) -> np.ndarray:
    """Variance of a mean of ``e`` in a simple random sample of the same size, with replacement (module docstring).

    ``s_w^2 / n``, ``s_w^2 = n / (n - 1) sum w_i (e_i - e_bar)^2 / sum w_i`` over the domain's
    respondents (``wd > 0``); scale-free in the weights. No finite-population factor.
    """
    live = wd > 0
    n = int(live.sum())
    W = float(wd.sum())
    if n < 2:
        return np.full(e.shape[1], math.nan)
    ew = wd[live] @ e[live] / W
    s2 = n / (n - 1) * (wd[live] @ (e[live] - ew) ** 2) / W
    return s2 / n


def effective(var: np.ndarray, vsrs: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(design effect, effective sample size ``n / deff``); n where the deff is undefined (a variance of 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.where((vsrs > 0) & (var > 0), var / vsrs, math.nan)
    n_eff = np.where(np.isfinite(deff), n / deff, float(n))
    return deff, n_eff


def kg_factor(n: int, df: float, confidence: float) -> float:
    """Korn & Graubard's (1998) degrees-of-freedom factor ``(t_{n-1} / t_df)^2`` on the effective n.

    ``df``: the effective (Satterthwaite) degrees of freedom of the variance estimate.
    """
    if df < 1 or n < 2:
        return 1.0
    q = 0.5 + confidence / 2
    return float((stdtrit(n - 1, q) / stdtrit(df, q)) ** 2)


def t_interval(est: float, se: float, df: float, confidence: float) -> tuple[float, float]:
    """``est +- t_df se`` cut to [0, 1]."""
    t = float(stdtrit(max(df, 1), 0.5 + confidence / 2))
    if not math.isfinite(se):
        return 0.0, 1.0
    return max(0.0, est - t * se), min(1.0, est + t * se)


# ----------------------------------------------------------------------------- linear


def linear(r: np.ndarray, wd: np.ndarray, sample: SampleDesign, population: float | None):
    """Hajek (or Horvitz-Thompson) mean of each column of r: (mean, covariance, deff, n_eff, u)."""
    W = float(wd.sum())
    hajek = wd @ r / W
    if population is None:
        mean, u = hajek, wd[:, None] * (r - hajek) / W
    else:
        mean, u = wd @ r / population, wd[:, None] * r / population
    cov = sample.variance(u)
    deff, n_eff = effective(np.diag(cov), srs_variance(r, wd), int((wd > 0).sum()))
    return mean, cov, deff, n_eff, u


def binary_transform(matrix: np.ndarray) -> tuple[float, float]:
    """(a, b) with ``P(yes | state) = a + b state`` for a 2 x 2 matrix."""
    return float(matrix[1, 0]), float(matrix[1, 1] - matrix[1, 0])


def binary_interval(matrix, raw: float, se: float, n_eff: float, df: int, n: int, conf: float, ci: str):
    """The interval of a yes/no prevalence: on the effective sample size (default) or t on the design df."""
    est = min(1.0, max(0.0, raw))
    if ci == "t":
        return t_interval(est, se, df, conf)
    a, b = binary_transform(matrix)
    lam = min(1.0, max(0.0, a + b * raw))
    size = n_eff * kg_factor(n, df, conf)
    model = OneParameter.from_matrices([matrix])
    return one_parameter_interval(model, [np.array([size * (1 - lam), size * lam])], est, conf)


def one_group_binary(d: Design, matrix, z, wd, sample, population, conf, ci):
    a, b = binary_transform(matrix)
    r = ((z - a) / b)[:, None]
    mean, cov, deff, n_eff, u = linear(r, wd, sample, population)
    raw, se = float(mean[0]), math.sqrt(max(cov[0, 0], 0.0))
    n = int((wd > 0).sum())
    df = sample.effective_df(wd)
    interval = binary_interval(matrix, raw, se, float(n_eff[0]), df, n, conf, ci)
    return dict(prevalence=min(1.0, max(0.0, raw)), unconstrained=raw, se=se, ci=interval, deff=float(deff[0]),
                n_effective=float(n_eff[0]), influence=u, df_effective=df,
                method="weighted moment estimate (Hajek mean of the transformed response)" if population is None
                else "Horvitz-Thompson mean of the transformed response with the known population size")


def categorical(d: Design, z, wd, sample, population, conf, ci):
    P = d.matrix
    Pinv = np.linalg.pinv(P)
    r = Pinv[:, z].T
    raw, cov, deff, n_eff, u = linear(r, wd, sample, population)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    W = float(wd.sum())
    shares = np.bincount(z, weights=wd, minlength=P.shape[0]) / W
    square = P.shape[0] == P.shape[1]
    if square and np.all(raw >= -1e-12):
        freq = np.clip(raw, 0, None)
        freq /= freq.sum()
    else:
        freq = categorical_mle(P, shares * W)
    if population is not None:
        shares = np.clip(P @ raw, 0, None)
        shares /= shares.sum()
    n = int((wd > 0).sum())
    cis = []
    dfs = np.full(len(freq), sample.effective_df(wd))
    for j in range(len(freq)):
        df = dfs[j]
        if ci == "t":
            cis.append(t_interval(float(freq[j]), float(se[j]), df, conf))
            continue
        size = float(n_eff[j]) * kg_factor(n, df, conf)
        sl = _binary_slice(P, j)
        if sl is not None:
            lam = float(shares[j])
            model = OneParameter.from_matrices([sl])
            cis.append(one_parameter_interval(model, [np.array([size * (1 - lam), size * lam])], float(freq[j]), conf))
        else:
            cis.append(_categorical_profile_interval(P, size * shares, freq, j, conf))
    return dict(prevalence=freq, unconstrained=raw, se=se, ci=np.array(cis), deff=deff, n_effective=n_eff,
                influence=u, frequencies=freq, df_effective=dfs,
                method="weighted moment estimate (Hajek mean of the vector transform P^-1 e_z)" if population is None
                else "Horvitz-Thompson mean of the vector transform P^-1 e_z with the known population size")


def unary(d: Design, ticks, wd, sample, population, conf, ci):
    parts = [one_group_binary(d, d.matrix, ticks[:, j], wd, sample, population, conf, ci)
             for j in range(ticks.shape[1])]
    est = np.array([p["prevalence"] for p in parts])
    return dict(prevalence=est, unconstrained=np.array([p["unconstrained"] for p in parts]),
                se=np.array([p["se"] for p in parts]), ci=np.array([p["ci"] for p in parts]),
                deff=np.array([p["deff"] for p in parts]), n_effective=np.array([p["n_effective"] for p in parts]),
                influence=np.column_stack([p["influence"][:, 0] for p in parts]), frequencies=est,
                df_effective=np.array([p["df_effective"] for p in parts]),
                method=("weighted moment estimate" if population is None else "Horvitz-Thompson mean with the known "
                        "population size") + " per option (each tick is a yes/no randomized response)")


# ----------------------------------------------------------------------------- pseudo-ML


def _sandwich(S: np.ndarray, Hmat: np.ndarray, wd: np.ndarray, sample: SampleDesign):
    """(covariance H^-1 V H^-1, influence w_i H^-1 s_i, linearized variable) from per-respondent scores S."""
    try:
        Hinv = np.linalg.inv(Hmat)
    except np.linalg.LinAlgError:
        Hinv = np.full_like(Hmat, math.nan)
    u = (wd[:, None] * S) @ Hinv.T
    cov = Hinv @ sample.variance(wd[:, None] * S) @ Hinv.T
    return cov, u, float(wd.sum()) * S @ Hinv.T


def kuk_mean_red(d: Design, z, wd, sample, population, conf, ci):
    """Kuk's design with k cards and a known population size: the Horvitz-Thompson mean of the mean red card.

    ``r_i = (f_i / k - p2) / (p1 - p2)`` for a respondent who drew ``f_i`` red cards: ``E[f_i / k |
    state] = p2 + (p1 - p2) state``, so ``r_i`` is unbiased for the true state and linear in
    ``f_i`` (Kuk 1990, *Biometrika* 77, 436; RRTCS's ``Kuk()``, Cobo, Rueda & Arcos 2021,
    ``R/Qualitative.R`` model 7; RRreg's ``RRuni`` "Kuk"). The estimate is ``sum w_i r_i / N``
    (RRTCS's point estimate) and its SE the linearization of the total over N, R ``survey``'s
    ``SE(svytotal(~r, design)) / N``. The pseudo-ML estimate has no Horvitz-Thompson form (its
    estimating equation uses ``sum w_i``, never N), so a known N calls for a linear estimator;
    the mean red card is the one RRTCS and RRreg use, rather than the projection of the
    response shares (``OneParameter.moment``), so that its estimate is theirs.

    Default interval: the calibrated likelihood-ratio interval of the share of red cards
    ``lambda = p2 + (p1 - p2) pi`` as a proportion of ``n* = lambda (1 - lambda) / ((p1 - p2)^2 se^2)``
    cards, Korn & Graubard's (1998) effective sample size on the cards' scale, times their
    degrees-of-freedom factor; ``n * k`` (the cards drawn) where that is undefined (every card
    red or every card black). ``.deff`` and ``.n_effective`` are those of ``r`` (``survey_fit``).
    """
    p1, p2, k = float(d.params["p1"]), float(d.params["p2"]), len(d.responses) - 1  # responses: 0..k red
    r = ((z / k - p2) / (p1 - p2))[:, None]
    mean, cov, deff, n_eff, u = linear(r, wd, sample, population)
    raw, se = float(mean[0]), math.sqrt(max(cov[0, 0], 0.0))
    n = int((wd > 0).sum())
    df = sample.effective_df(wd)
    est = min(1.0, max(0.0, raw))
    if ci == "t":
        interval = t_interval(est, se, df, conf)
    else:
        lam = min(1.0, max(0.0, p2 + (p1 - p2) * raw))
        cards = lam * (1 - lam) / ((p1 - p2) ** 2 * se ** 2) if se > 0 and 0 < lam < 1 else float(n * k)
        size = cards * kg_factor(n, df, conf)
        card = np.array([[1 - p2, 1 - p1], [p2, p1]])
        interval = one_parameter_interval(OneParameter.from_matrices([card]),
                                          [np.array([size * (1 - lam), size * lam])], est, conf)
    return dict(prevalence=est, unconstrained=raw, se=se, ci=interval, deff=float(deff[0]),
                n_effective=float(n_eff[0]), influence=u, df_effective=df,
                method="Horvitz-Thompson mean of the mean red card (f / k - p2) / (p1 - p2) with the known "
                       "population size")


def kuk_draws(d: Design, z, wd, sample, population, conf, ci):
    """One group, several responses (Kuk's design with several cards): weighted pseudo-ML.

    Every number is the pseudo-ML estimate's: ``.unconstrained`` is the estimate itself (it
    maximizes the likelihood within [0, 1] and has no value outside), ``.se`` its sandwich SE.
    """
    model = OneParameter.from_matrices(d.matrices)
    R = len(d.responses)
    totals = np.bincount(z, weights=wd, minlength=R)
    # the maximizer works on the totals over the weights' mean, so its tolerances do not depend on their scale
    counts = totals * (float((wd > 0).sum()) / float(wd.sum()))
    pi, _ = model.mle([counts])
    A, B = model.A[0], model.B[0]
    lam = A + B * pi
    with np.errstate(divide="ignore", invalid="ignore"):
        S = (B / lam)[z][:, None]
        Hmat = np.array([[float(totals @ np.where(totals > 0, B ** 2 / lam ** 2, 0.0))]])
    cov, u, e = _sandwich(np.where(np.isfinite(S), S, 0.0), Hmat, wd, sample)
    n = int((wd > 0).sum())
    deff, n_eff = effective(np.diag(cov), srs_variance(e, wd), n)
    se = math.sqrt(cov[0, 0]) if cov[0, 0] >= 0 else math.nan
    df = sample.effective_df(wd)
    if ci == "t":
        interval = t_interval(pi, se, df, conf)
    else:
        size = float(n_eff[0]) * kg_factor(n, df, conf)
        interval = one_parameter_interval(model, [counts / counts.sum() * size], pi, conf)
    return dict(prevalence=pi, unconstrained=pi, se=se, ci=interval, deff=float(deff[0]),
                n_effective=float(n_eff[0]), influence=u, df_effective=df,
                method="weighted pseudo-maximum likelihood (sandwich standard errors)" if 0 < pi < 1 else
                "weighted pseudo-maximum likelihood on the boundary of the parameter space")


def two_group(d: Design, z, g, wd, sample, population, conf, ci):
    """SLD, CDM and the unrelated question with unknown prevalence: weighted pseudo-ML, sandwich covariance."""
    model = _two_group_model(d)
    # the weighted totals on the scale of the sample (weights over their mean): the maximizer's
    # tolerances then do not depend on the weights' scale, and the estimate is unchanged by it
    wn = wd * (float((wd > 0).sum()) / float(wd.sum()))
    y = np.array([wn[(g == k) & (z == 1)].sum() for k in (1, 2)])
    m = np.array([wn[g == k].sum() for k in (1, 2)])
    pi, eta, interior = model.mle(y, m)
    raw = model.moment(y, m)
    gi = g - 1
    C, D, E, F = (np.asarray(v, float)[gi] for v in (model.C, model.D, model.E, model.F))
    lam = C + D * pi + E * eta + F * pi * eta
    grad = np.column_stack([D + F * eta, E + F * pi])
    with np.errstate(divide="ignore", invalid="ignore"):
        resid = np.where(z == 1, 1 / lam, -1 / (1 - lam))            # d log L / d lambda
        curv = np.where(z == 1, 1 / lam ** 2, 1 / (1 - lam) ** 2)     # -d2 log L / d lambda2
    S = grad * resid[:, None]
    Hmat = (grad * (wd * curv)[:, None]).T @ grad
    cross = float(np.sum(wd * resid * F))                              # d2 lambda / d pi d eta = F
    Hmat[0, 1] -= cross
    Hmat[1, 0] -= cross
    if not (np.all(np.isfinite(S[wd > 0])) and np.all(np.isfinite(Hmat))):
        cov, u, e = np.full((2, 2), math.nan), np.zeros((len(z), 2)), np.zeros((len(z), 2))
    else:
        cov, u, e = _sandwich(S, Hmat, wd, sample)
    n = int((wd > 0).sum())
    deff, n_eff = effective(np.diag(cov)[:1], srs_variance(e[:, :1], wd), n)
    se = math.sqrt(cov[0, 0]) if cov[0, 0] >= 0 else math.nan
    se_eta = math.sqrt(cov[1, 1]) if cov[1, 1] >= 0 else math.nan
    if d.model == "sld":
        ok = pi > 1e-9
        extra = {"t": (eta if ok else math.nan, se_eta if ok else math.nan)}
    elif d.model == "cdm":
        var_g = cov[0, 0] + cov[1, 1] + 2 * cov[0, 1]
        extra = {"beta": (eta, se_eta), "gamma": (max(0.0, 1 - pi - eta), math.sqrt(var_g) if var_g >= 0 else math.nan)}
    else:
        extra = {"pi_uq": (eta, se_eta)}
    df = sample.effective_df(wd)
    if ci == "t":
        interval = t_interval(pi, se, df, conf)
    else:
        scale = float(n_eff[0]) * kg_factor(n, df, conf) / float(m.sum())
        interval = two_group_interval(model, y * scale, m * scale, pi, eta, conf)
    return dict(prevalence=pi, unconstrained=raw, se=se, ci=interval, deff=float(deff[0]), n_effective=float(n_eff[0]),
                influence=u[:, :1], extra=extra, df_effective=df,
                method="weighted pseudo-maximum likelihood (sandwich standard errors)" if interior else
                "weighted pseudo-maximum likelihood on the boundary of the parameter space")
