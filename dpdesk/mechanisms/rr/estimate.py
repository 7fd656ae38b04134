"""Estimates, standard errors and confidence intervals from response counts.

``estimate(design, counts)`` returns maximum-likelihood estimates inside the parameter
space (see ``likelihood``), standard errors from the expected Fisher information with n
at the estimate, and one of three intervals:

* ``"default"``: the likelihood-ratio interval with boundary-calibrated critical values
  (Feldman & Cousins 1998; see ``intervals``); the profile likelihood for two-group
  designs. It keeps its coverage near 0 and 1, where Wald intervals fail.
* ``"wald"``: ``estimate +- z * SE``, intersected with [0, 1] (as RRreg and rr report).
* ``"bootstrap"``: percentile interval of the ML estimate over ``bootstrap`` resamples
  of the respondents within each group (Efron & Tibshirani 1993, ch. 13).

For designs with several categories each category's default interval is the calibrated
likelihood-ratio interval of the yes/no design "this category or not" (exact for
forced_multi, krr and unary, whose matrices treat all other categories alike); custom
matrices use the profile likelihood over the other categories.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import chdtrc  # the chi-square upper tail (scipy.stats' chi2.sf), without loading scipy.stats

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr import intervals as iv
from dpdesk.mechanisms.rr.counts import check_counts
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.likelihood import (
    OneParameter,
    TwoGroup,
    categorical_covariance,
    categorical_mle,
    covariance,
)

CI_METHODS = ("default", "wald", "bootstrap")
CI_NAMES = {
    "default": "boundary-calibrated likelihood ratio (Feldman-Cousins)",
    "wald": "Wald (estimate +- z SE, cut to [0, 1])",
    "bootstrap": "percentile bootstrap",
}
#: The source of each interval method, for methods sections and exports.
CI_CITATIONS = {
    "default": "Feldman & Cousins (1998), Phys. Rev. D 57, 3873; profile likelihood for two-group designs "
               "(Cranmer 2005, PHYSTAT); at y = 0 or y = n never tighter than the exact one-sided "
               "Clopper & Pearson (1934) bound",
    "wald": "Wald (1943); as reported by RRreg (Heck & Moshagen 2018, JSS 85(2)) and rr (Blair et al. 2015)",
    "bootstrap": "Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13 (percentile interval)",
}


def ci_method_key(name: str) -> str:
    """The short key ("default", "wald", "bootstrap") of an interval method's full name."""
    return {v: k for k, v in CI_NAMES.items()}.get(name, name if name in CI_NAMES else "default")


@dataclass(frozen=True)
class GoodnessOfFit:
    """Likelihood-ratio statistic G^2 of the model against the saturated one."""

    g2: float
    df: int
    p_value: float


@dataclass(frozen=True)
class Estimate:
    """The result of :func:`estimate`.

    Yes/no designs: ``prevalence`` and ``se`` are floats and ``ci`` is ``(low, high)``.
    Designs with categories: ``prevalence`` equals ``frequencies`` (one per category, on
    the simplex for single-choice items), ``se`` is an array and ``ci`` a ``k x 2`` array.
    ``extra`` maps other parameters to ``(estimate, se)``: ``t`` (SLD honesty), ``beta``
    and ``gamma`` (CDM honest non-carriers and cheaters), ``pi_uq`` (innocuous prevalence),
    ``pi_group1`` and ``pi_group2`` (the extended crosswise model's separate per-group prevalences, SE NaN at 0 or 1;
    its ``fit`` is the non-adherence test).
    """

    design: Design
    counts: tuple[np.ndarray, ...]
    prevalence: Any
    se: Any
    ci: Any
    method: str
    ci_method: str
    confidence: float
    n: int
    extra: dict[str, tuple[float, float]] = field(default_factory=dict)
    frequencies: np.ndarray | None = None
    unconstrained: Any = None
    fit: GoodnessOfFit | None = None
    loglik: float = math.nan
    notes: tuple[str, ...] = ()

    @property
    def halfwidth(self) -> Any:
        ci = np.asarray(self.ci, float)
        return (ci[..., 1] - ci[..., 0]) / 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-able summary (floats and lists), for project files and exports."""
        def plain(x):
            if isinstance(x, np.ndarray):
                return x.tolist()
            if isinstance(x, tuple):
                return [plain(v) for v in x]
            if isinstance(x, (np.floating, np.integer)):
                return x.item()
            return x

        return {
            "design": self.design.to_dict(),
            "counts": [c.tolist() for c in self.counts],
            "prevalence": plain(self.prevalence),
            "se": plain(self.se),
            "ci": plain(self.ci),
            "method": self.method,
            "ci_method": self.ci_method,
            "confidence": self.confidence,
            "n": self.n,
            "extra": {k: [plain(v[0]), plain(v[1])] for k, v in self.extra.items()},
            "unconstrained": plain(self.unconstrained),
            "fit": None if self.fit is None else {"g2": self.fit.g2, "df": self.fit.df, "p_value": self.fit.p_value},
            "loglik": self.loglik,
            "notes": list(self.notes),
        }


def check_confidence(confidence) -> float:
    """The confidence level as a float in (0, 1), or an EstimationError saying so."""
    try:
        conf = float(confidence)
    except (TypeError, ValueError):
        conf = math.nan
    if not 0 < conf < 1:
        raise EstimationError(f"confidence = {confidence!r} must be between 0 and 1, for example 0.95.")
    return conf


def _check_options(confidence: float, ci: str) -> tuple[float, str]:
    conf = check_confidence(confidence)
    if ci not in CI_METHODS:
        raise EstimationError(f"ci = {ci!r} is not a known interval; choose one of {', '.join(CI_METHODS)}.")
    return conf, ci


def _se_distances(p: float, se0: float) -> tuple[float, float]:
    if se0 <= 0:
        return (math.inf if p > 0 else 0.0), (math.inf if p < 1 else 0.0)
    return p / se0, (1 - p) / se0


def one_parameter_interval(model: OneParameter, counts, pi_hat: float, confidence: float) -> tuple[float, float]:
    """Calibrated likelihood-ratio interval for a one-parameter design."""
    sizes = [float(c.sum()) for c in counts]
    l_hat = model.loglik(counts, pi_hat)

    def excess(p: float) -> float:
        lr = 2 * (l_hat - model.loglik(counts, p))
        if lr == math.inf:
            return 1e300
        info = model.information(sizes, p)
        se0 = 1 / math.sqrt(info) if 0 < info < math.inf else (0.0 if info == math.inf else math.inf)
        return lr - iv.critical_value(*_se_distances(p, se0), confidence) - 1e-9

    low, high = iv.invert_test(excess, pi_hat)
    return _widen_at_boundary(model, counts, low, high, confidence)


def _widen_at_boundary(model: OneParameter, counts, low: float, high: float, confidence: float):
    """At ``y = n`` or ``y = 0`` never tighter than the exact one-sided bound (``intervals``).

    ``lambda = A + B pi`` is monotone in ``pi``, so the exact bound on the yes probability
    maps to one end of the prevalence interval: the lower end when B > 0 and y = n (or
    B < 0 and y = 0), else the upper end.
    """
    if not model.is_saturated_binary():
        return low, high
    y, n = float(counts[0][1]), float(counts[0].sum())
    lam = iv.exact_boundary_bound(y, n, confidence)
    a, b = float(model.A[0][1]), float(model.B[0][1])
    if lam is None or b == 0:
        return low, high
    pi = min(1.0, max(0.0, (lam - a) / b))
    if (b > 0) == (y >= n):
        return min(low, pi), high
    return low, max(high, pi)


def two_group_interval(model: TwoGroup, y, n, pi_hat: float, eta_hat: float, confidence: float) -> tuple[float, float]:
    """Profile-likelihood interval for the prevalence of a two-group design, calibrated in 2D.

    The critical value at each candidate prevalence is the Feldman-Cousins value for the
    two-dimensional parameter space with the nuisance at its profiled value
    (``intervals.critical_value_2d``), so a nuisance on its boundary (t = 1, gamma = 0) is
    accounted for.
    """
    l_hat = model.loglik(y, n, pi_hat, eta_hat)

    region = model.affine_region()

    cache: dict[float, float] = {}

    def critical(p: float) -> float:
        # The critical value changes slowly with p: computed on a grid of step 1e-3 and reused.
        g = round(p, 3)
        if g not in cache:
            eta = model.profile_eta(y, n, g)
            cache[g] = iv.critical_value_2d(model.affine_information(n, g, eta), model.affine_point(g, eta),
                                            region, model.affine_segment(g), confidence)
        return cache[g]

    def excess(p: float) -> float:
        eta = model.profile_eta(y, n, p)
        lr = 2 * (l_hat - model.loglik(y, n, p, eta))
        if lr == math.inf:
            return 1e300
        return lr - critical(p) - 1e-9

    return iv.invert_test(excess, pi_hat, tol=1e-7)


def _percentile(samples: np.ndarray, confidence: float) -> np.ndarray:
    a = (1 - confidence) / 2
    return np.quantile(samples, [a, 1 - a], axis=0).T


def _each_distinct(key, value, B: int) -> np.ndarray:
    """``[value(i) for i in range(B)]``, computing each distinct resample (by ``key(i)``) once."""
    cache: dict = {}
    out = []
    for i in range(B):
        k = key(i)
        if k not in cache:
            cache[k] = value(i)
        out.append(cache[k])
    return np.array(out)


def _resample(counts, rng: np.random.Generator, B: int) -> list[np.ndarray]:
    """B bootstrap resamples of each group's counts (multinomial with the observed shares)."""
    return [rng.multinomial(int(c.sum()), c / c.sum(), size=B) for c in counts]


# ----------------------------------------------------------------------------- per family


def _one_parameter(d: Design, counts, conf, ci, B, rng):
    model = OneParameter.from_matrices(d.matrices)
    pi, interior = model.mle(counts)
    sizes = [float(c.sum()) for c in counts]
    info = model.information(sizes, pi)
    se = 1 / math.sqrt(info) if 0 < info < math.inf else (0.0 if info == math.inf else math.inf)
    if ci == "default":
        interval = one_parameter_interval(model, counts, pi, conf)
    elif ci == "wald":
        interval = iv.wald(pi, se, conf)
    else:
        rs = _resample(counts, rng, B)
        if model.is_saturated_binary():
            a, b = model.A[0][1], model.B[0][1]
            boot = np.clip((rs[0][:, 1] / sizes[0] - a) / b, 0, 1)
        else:
            boot = _each_distinct(lambda i: tuple(int(v) for r in rs for v in r[i]),
                                  lambda i: model.mle([r[i] for r in rs])[0], B)
        interval = tuple(_percentile(boot, conf))
    df = sum(len(c) - 1 for c in counts) - 1
    fit = None
    if df > 0:
        g2 = _g2(counts, model.probabilities(pi))
        fit = GoodnessOfFit(g2, df, float(chdtrc(df, g2)))
    method = "moment estimate (equals the maximum-likelihood estimate)" if interior else (
        "maximum likelihood" if not model.is_saturated_binary() else
        "maximum likelihood on the boundary (the moment estimate lay outside [0, 1])")
    return dict(prevalence=pi, se=se, ci=(float(interval[0]), float(interval[1])), method=method, fit=fit,
                unconstrained=model.moment(counts), loglik=model.loglik(counts, pi))


def _g2(counts, probs) -> float:
    g2 = 0.0
    for n, lam in zip(counts, probs):
        N = n.sum()
        pos = n > 0
        g2 += 2 * float(np.sum(n[pos] * np.log(n[pos] / (N * np.maximum(lam[pos], 1e-300)))))
    return max(g2, 0.0)


def _two_group_model(d: Design) -> TwoGroup:
    p1, p2 = d.params["p1"], d.params["p2"]
    if d.model == "sld":  # yes = (1 - pi)(1 - p_g) + pi t
        q = np.array([1 - p1, 1 - p2])
        return TwoGroup(q, -q, np.zeros(2), np.ones(2))
    if d.model == "cdm":  # yes = pi + beta p_g
        return TwoGroup(np.zeros(2), np.ones(2), np.array([p1, p2]), np.zeros(2), eta_upper_is_one_minus_pi=True)
    p = np.array([p1, p2])  # unrelated_unknown: yes = p_g pi + (1 - p_g) pi_uq
    return TwoGroup(np.zeros(2), p, 1 - p, np.zeros(2))


def _two_group(d: Design, counts, conf, ci, B, rng):
    model = _two_group_model(d)
    y = np.array([c[1] for c in counts], float)
    n = np.array([c.sum() for c in counts], float)
    pi, eta, interior = model.mle(y, n)
    cov = covariance(model.information(n, pi, eta))
    se = math.sqrt(cov[0, 0]) if cov[0, 0] >= 0 else math.nan
    se_eta = math.sqrt(cov[1, 1]) if cov[1, 1] >= 0 else math.nan
    raw_pi, raw_eta = model.moment(y, n)
    notes: tuple[str, ...] = ()
    if d.model == "sld" and not pi > 1e-9:
        # t is the share of honest carriers: with no carriers it is unidentified, and every
        # reported t (also the unconstrained one, h / pi with pi ~ 0) is NaN, never a number.
        raw_eta = math.nan
        notes = ("t (honesty of carriers) is not identified: the estimated prevalence is 0, so there are no "
                 "carriers whose honesty could be estimated; t is reported as not available.",)
    if d.model == "sld":
        extra = {"t": (eta if pi > 1e-9 else math.nan, se_eta if pi > 1e-9 else math.nan)}
    elif d.model == "cdm":
        gamma = max(0.0, 1 - pi - eta)
        var_g = cov[0, 0] + cov[1, 1] + 2 * cov[0, 1]
        extra = {"beta": (eta, se_eta), "gamma": (gamma, math.sqrt(var_g) if var_g >= 0 else math.nan)}
    else:
        extra = {"pi_uq": (eta, se_eta)}
    if ci == "default":
        interval = two_group_interval(model, y, n, pi, eta, conf)
    elif ci == "wald":
        interval = iv.wald(pi, se, conf)
    else:
        rs = _resample(counts, rng, B)
        boot = _each_distinct(lambda i: (int(rs[0][i, 1]), int(rs[1][i, 1])),
                              lambda i: model.mle(np.array([rs[0][i, 1], rs[1][i, 1]], float), n)[0], B)
        interval = tuple(_percentile(boot, conf))
    method = "moment estimate (equals the maximum-likelihood estimate)" if interior else (
        "maximum likelihood on the boundary of the parameter space")
    return dict(prevalence=pi, se=se, ci=(float(interval[0]), float(interval[1])), method=method, extra=extra,
                unconstrained=(raw_pi, raw_eta), loglik=model.loglik(y, n, pi, eta), notes=notes)


def _ecwm(d: Design, counts, conf, ci, B, rng):
    """The extended crosswise model (Heck, Hoffmann & Moshagen 2018, Behav Res Methods 50:1895).

    ``prevalence``, ``se`` and ``ci``: the ML estimate of one pi common to both groups (the one-parameter
    model over both groups' matrices, as every yes/no design). ``fit``: the non-adherence test, the
    likelihood-ratio statistic ``G^2 = 2 [l_1(pi_1) + l_2(pi_2) - l(pi)]`` of one common pi against a separate
    pi per group, each per-group ML kept in [0, 1], referred to chi-square with 1 df (the paper's test of the
    CWM within the ECWM). ``extra["pi_group1"]``, ``extra["pi_group2"]``: the separate per-group MLs with
    their SEs ``1 / sqrt(I_g(pi_g))`` (expected information, as for every design); at 0 or 1 a per-group
    SE is NaN (undefined at the boundary of the parameter space, as the logistic model's nuisances report).
    """
    out = _one_parameter(d, counts, conf, ci, B, rng)
    separate, l_sep = {}, 0.0
    for g, c in enumerate(counts, start=1):
        m = OneParameter.from_matrices([d.matrices[g - 1]])
        pi_g, _interior = m.mle([c])
        info = m.information([float(c.sum())], pi_g)
        if not 0.0 < pi_g < 1.0:
            se_g = math.nan
        else:
            se_g = 1 / math.sqrt(info) if 0 < info < math.inf else (0.0 if info == math.inf else math.inf)
        separate[f"pi_group{g}"] = (float(pi_g), float(se_g))
        l_sep += m.loglik([c], pi_g)
    g2 = max(0.0, 2 * (l_sep - out["loglik"]))
    out["fit"] = GoodnessOfFit(g2, 1, float(chdtrc(1, g2)))
    out["extra"] = separate
    return out


def _binary_slice(matrix: np.ndarray, j: int) -> np.ndarray:
    """The yes/no design "response j or not" vs "state j or not", if the other states act alike."""
    row = matrix[j]
    others = np.delete(row, j)
    if not np.allclose(others, others[0], atol=1e-12):
        return None
    a, b = others[0], row[j]
    return np.array([[1 - a, 1 - b], [a, b]])


def _categorical(d: Design, counts, conf, ci, B, rng):
    P = d.matrix
    n_vec = counts[0]
    N = float(n_vec.sum())
    square = P.shape[0] == P.shape[1]
    lam_hat = n_vec / N
    raw = np.linalg.solve(P, lam_hat) if square else np.linalg.lstsq(P, lam_hat, rcond=None)[0]
    if square and np.all(raw >= -1e-12):
        c = np.clip(raw, 0, None)
        c /= c.sum()
        interior = bool(np.all(raw > 0))
    else:
        c = categorical_mle(P, n_vec)
        interior = False
    cov = categorical_covariance(P, N, c)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    k = len(c)
    if ci == "default":
        cis = []
        for j in range(k):
            sl = _binary_slice(P, j)
            if sl is not None:
                model = OneParameter.from_matrices([sl])
                yes = np.array([N - n_vec[j], n_vec[j]])
                cis.append(one_parameter_interval(model, [yes], c[j], conf))
            else:
                cis.append(_categorical_profile_interval(P, n_vec, c, j, conf))
        interval = np.array(cis)
    elif ci == "wald":
        interval = np.array([iv.wald(c[j], se[j], conf) for j in range(k)])
    else:
        rs = rng.multinomial(int(N), lam_hat, size=B)
        boot = _each_distinct(lambda i: tuple(int(v) for v in rs[i]), lambda i: _categorical_point(P, rs[i]), B)
        interval = _percentile(boot, conf)
    fit = None
    df = P.shape[0] - 1 - (k - 1)
    if df > 0:
        g2 = _g2(counts, [P @ c])
        fit = GoodnessOfFit(g2, df, float(chdtrc(df, g2)))
    method = ("moment estimate (equals the maximum-likelihood estimate)" if interior else
              "maximum likelihood on the simplex (EM, then SLSQP)")
    return dict(prevalence=c, se=se, ci=interval, method=method, frequencies=c, unconstrained=raw, fit=fit,
                loglik=float(n_vec @ np.log(np.maximum(P @ c, 1e-300))))


def _categorical_point(P, n_vec):
    raw = np.linalg.solve(P, n_vec / n_vec.sum()) if P.shape[0] == P.shape[1] else None
    if raw is not None and np.all(raw >= 0):
        return raw / raw.sum()
    return categorical_mle(P, n_vec)


def _categorical_profile_interval(P, n_vec, c_hat, j, conf):
    N = float(n_vec.sum())
    l_hat = float(n_vec @ np.log(np.maximum(P @ c_hat, 1e-300)))

    def excess(p):
        c = categorical_mle(P, n_vec, fixed=(j, p))
        lr = 2 * (l_hat - float(n_vec @ np.log(np.maximum(P @ c, 1e-300))))
        se0 = math.sqrt(max(categorical_covariance(P, N, c)[j, j], 0.0))
        return lr - iv.critical_value(*_se_distances(p, se0), conf) - 1e-9

    return iv.invert_test(excess, float(c_hat[j]), tol=1e-6)


def _unary(d: Design, counts, conf, ci, B, rng):
    bit = d.matrix
    parts = [_one_parameter(_bit_design(d, bit), (c,), conf, ci, B, rng) for c in counts]
    est = np.array([p["prevalence"] for p in parts])
    return dict(prevalence=est, se=np.array([p["se"] for p in parts]), ci=np.array([p["ci"] for p in parts]),
                method="maximum likelihood per category (each tick is a yes/no randomized response)",
                frequencies=est, unconstrained=np.array([p["unconstrained"] for p in parts]),
                loglik=sum(p["loglik"] for p in parts))


def _bit_design(d: Design, bit: np.ndarray) -> Design:
    return Design("unary-bit", {}, ("not ticked", "ticked"), ("absent", "present"), (bit,), "prevalence", (0, 1))


# ----------------------------------------------------------------------------- public


def estimate(design: Design, counts, *, confidence: float = 0.95, ci: str = "default",
             bootstrap: int = 2000, rng: np.random.Generator | None = None) -> Estimate:
    """Estimate the prevalence (or category frequencies) from response counts.

    ``counts`` follow ``design.responses``; two-group designs take one vector per group
    and unary designs a ``k x 2`` table. Estimates never leave [0, 1]. ``se`` is
    ``1 / sqrt(I(theta_hat))`` with the expected Fisher information for the n respondents
    (for Warner: ``sqrt(lambda (1 - lambda) / (n (2p - 1)^2))``; RRreg divides by n - 1).
    ``bootstrap`` resamples and ``rng`` (default: seed 0, so results are reproducible)
    apply to ``ci="bootstrap"`` only.
    """
    conf, ci = _check_options(confidence, ci)
    if not isinstance(design, Design):
        raise EstimationError(f"design must be made by rr.design(...), not {type(design).__name__}.")
    rows = check_counts(design, counts)
    if rng is None:
        rng = np.random.default_rng(0)
    B = int(bootstrap)
    if ci == "bootstrap" and B < 100:
        raise EstimationError(f"bootstrap = {bootstrap!r} resamples are too few for an interval; use at least 1000.")
    family = {"prevalence": _one_parameter, "sld": _two_group, "cdm": _two_group,
              "unrelated_unknown": _two_group, "categorical": _categorical, "unary": _unary}[design.model]
    if design.name == "ecwm":
        family = _ecwm
    out = family(design, rows, conf, ci, B, rng)
    n = int(rows[0].sum()) if design.model == "unary" else int(sum(r.sum() for r in rows))
    return Estimate(design=design, counts=rows, confidence=conf, ci_method=CI_NAMES[ci], n=n, **out)
