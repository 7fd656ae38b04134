"""Planning a randomized-response survey: power, sample size, expected precision, efficiency.

Everything follows from the expected Fisher information of the design. With ``I1(pi)``
the information one respondent carries about the prevalence ``pi`` (for yes/no designs
``I1 = sum_r B_r^2 / lambda_r`` with ``lambda = A + B pi``), the standard error with n
respondents is ``se(pi; n) = 1 / sqrt(n I1(pi))`` (Chaudhuri 2011, *Randomized Response
and Indirect Questioning Techniques*, ch. 2). Two-group designs (SLD, CDM,
unrelated-unknown) split n by ``share`` and use the SE of ``pi`` with the nuisance
parameter profiled out (Schur complement of the 2 x 2 information) at assumed nuisance
values (``t=1``, ``gamma=0``, ``pi_uq=0.5`` unless given).

A complex sample (weights, strata, clusters) enters through its expected design effect
``deff`` (Kish 1965, *Survey Sampling*, 8.2): n respondents estimate as precisely as
``n / deff`` in a simple random sample, so ``se = unit_se * sqrt(deff / n)`` and the
required n is ``deff`` times that of a simple random sample.

Power is computed as in the R package rr, ``power.rr.test`` (Blair, Imai & Zhou 2015,
*JASA* 110, 1304): a Wald test of ``H0: pi = null`` with ``se`` at the null, and the
estimate ``~ N(pi, se(pi))`` under the alternative. (rr treats the nuisance of its
"unknown" designs as known; dpdesk profiles it out, which is the honest, larger SE.)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import ndtr, ndtri

from dpdesk.errors import DesignError, EstimationError

from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.likelihood import OneParameter, categorical_covariance, schur_se

ALTERNATIVES = ("greater", "less", "two-sided")
_ALIASES = {"two.sided": "two-sided", "two_sided": "two-sided", "one.sided": "greater", "one-sided": "greater"}

#: Assumed nuisance values for two-group designs and what they mean.
NUISANCE_DEFAULTS = {
    "sld": {"t": 1.0},  # every carrier answers honestly
    "cdm": {"gamma": 0.0},  # nobody cheats, so beta = 1 - prevalence
    "unrelated_unknown": {"pi_uq": 0.5},  # innocuous 'yes' share (the least informative guess)
}


# ----------------------------------------------------------------------------- checks


def _check_deff(deff: Any) -> float:
    try:
        x = float(deff)
    except (TypeError, ValueError):
        x = math.nan
    if not (x > 0 and math.isfinite(x)):
        raise EstimationError(f"deff = {deff!r} must be a positive design effect, for example 1.5 (1: a simple "
                              f"random sample).")
    return x


def _check_design(d: Any) -> Design:
    if not isinstance(d, Design):
        raise DesignError(f"design must be made by rr.design(...), not {type(d).__name__}.")
    return d


def _check_n(n: Any, what: str = "n") -> float:
    try:
        x = float(n)
    except (TypeError, ValueError):
        raise EstimationError(f"{what} = {n!r} must be a number of respondents (at least 1).") from None
    if not math.isfinite(x) or x < 1:
        raise EstimationError(f"{what} = {n!r} must be a number of respondents of at least 1.")
    return x


def _check_prob(value: Any, what: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise EstimationError(f"{what} = {value!r} must be a proportion from 0 to 1.") from None
    if not (0.0 <= x <= 1.0):
        raise EstimationError(f"{what} = {value!r} must be a proportion from 0 to 1 (for example 0.2 for 20%).")
    return x


def _check_open(value: Any, what: str, example: str) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        x = math.nan
    if not (0.0 < x < 1.0):
        raise EstimationError(f"{what} = {value!r} must be strictly between 0 and 1, for example {example}.")
    return x


def _check_share(share: Any) -> tuple[float, float]:
    try:
        a, b = (float(s) for s in share)
    except (TypeError, ValueError):
        raise DesignError(f"share = {share!r} must be two group shares, for example (0.5, 0.5).") from None
    if not (a > 0 and b > 0) or abs(a + b - 1) > 1e-9:
        raise DesignError(f"share = {share!r} must be two positive shares summing to 1, for example (0.5, 0.5).")
    return a, b


def _prevalence_vector(d: Design, prevalence: Any) -> np.ndarray:
    k = len(d.categories)
    try:
        c = np.asarray(prevalence, dtype=float)
    except (TypeError, ValueError):
        c = np.empty(0)
    if c.shape != (k,):
        raise EstimationError(
            f"The {d.name!r} design has {k} categories ({', '.join(d.categories)}): give prevalence as a list "
            f"of {k} proportions, one per category."
        )
    if not np.all((c >= 0) & (c <= 1)):
        raise EstimationError(f"prevalence = {c.tolist()} must hold proportions from 0 to 1.")
    if d.model == "categorical" and abs(c.sum() - 1) > 1e-6:
        raise EstimationError(
            f"prevalence = {c.tolist()} must sum to 1 for a single-choice item (it sums to {c.sum():g})."
        )
    return c


def nuisance_values(d: Design, prevalence: float, **nuisance: Any) -> dict[str, float]:
    """The assumed nuisance parameters of a two-group design (defaults in ``NUISANCE_DEFAULTS``).

    SLD: ``t`` (share of carriers answering honestly). CDM: ``gamma`` (cheaters; then
    ``beta = 1 - prevalence - gamma`` honest non-carriers). Unrelated-unknown: ``pi_uq``.
    One-group designs take no nuisance parameters.
    """
    allowed = NUISANCE_DEFAULTS.get(d.model, {})
    unknown = [k for k in nuisance if k not in allowed]
    if unknown:
        names = ", ".join(allowed) if allowed else "none"
        raise DesignError(
            f"The {d.name!r} design has no assumed parameter {unknown[0]!r}; its assumed parameters are: {names}."
        )
    values = {k: _check_prob(nuisance.get(k, v), k) for k, v in allowed.items()}
    if d.model == "cdm" and values["gamma"] > 1 - prevalence + 1e-12:
        raise DesignError(
            f"gamma = {values['gamma']:g} (cheaters) plus prevalence = {prevalence:g} exceed 1; "
            f"gamma can be at most {1 - prevalence:g}."
        )
    return values


def _eta(d: Design, prevalence: float, nuisance: dict[str, float]) -> float:
    if d.model == "sld":
        return nuisance["t"]
    if d.model == "cdm":
        return max(0.0, 1 - prevalence - nuisance["gamma"])
    return nuisance["pi_uq"]


# ----------------------------------------------------------------------------- unit SE


def _se_from_info(info: float) -> float:
    if info == math.inf:
        return 0.0
    return 1 / math.sqrt(info) if info > 0 else math.inf


def unit_se(design: Design, prevalence: Any, *, share=(0.5, 0.5), **nuisance: Any) -> Any:
    """Standard error of the prevalence estimate for ONE respondent: ``se(n) = unit_se / sqrt(n)``.

    ``1 / sqrt(I1(pi))`` with the expected per-respondent Fisher information; for
    two-group designs the Schur-complement SE with ``share`` of the respondents in each
    group; for designs with categories an array (one per category, from the inverse
    information of the free frequencies; unary designs: each category's tick).
    """
    d = _check_design(design)
    if d.model == "prevalence":
        pi = _check_prob(prevalence, "prevalence")
        nuisance_values(d, pi, **nuisance)
        return _se_from_info(OneParameter.from_matrices(d.matrices).information([1.0], pi))
    if d.model in NUISANCE_DEFAULTS:
        from dpdesk.mechanisms.rr.estimate import _two_group_model

        pi = _check_prob(prevalence, "prevalence")
        values = nuisance_values(d, pi, **nuisance)
        w = np.array(_check_share(share))
        info = _two_group_model(d).information(w, pi, _eta(d, pi, values))
        return schur_se(info)
    nuisance_values(d, 0.0, **nuisance)
    c = _prevalence_vector(d, prevalence)
    if d.model == "unary":
        model = OneParameter.from_matrices([d.matrix])
        return np.array([_se_from_info(model.information([1.0], x)) for x in c])
    cov = categorical_covariance(d.matrix, 1.0, c)
    return np.sqrt(np.clip(np.diag(cov), 0.0, None))


# ----------------------------------------------------------------------------- public


def expected_halfwidth(design: Design, n: Any, prevalence: Any, *, confidence: float = 0.95,
                       share=(0.5, 0.5), deff: float = 1.0, **nuisance: Any) -> Any:
    """Expected half-width ``z_{1-a/2} * se(prevalence; n)`` of the confidence interval.

    The Wald half-width from the expected information; the default (likelihood-ratio)
    interval has nearly this width away from 0 and 1, and is narrower on the side of a
    boundary. Arrays for designs with categories.
    """
    n = _check_n(n) / _check_deff(deff)
    z = float(ndtri(0.5 + _check_open(confidence, "confidence", "0.95") / 2))
    return z * unit_se(design, prevalence, share=share, **nuisance) / math.sqrt(n)


def required_n(design: Design, halfwidth: Any, prevalence: Any, *, confidence: float = 0.95,
               share=(0.5, 0.5), deff: float = 1.0, **nuisance: Any) -> int:
    """The smallest total n whose expected half-width is at most ``halfwidth``.

    Closed form ``n = z^2 / (I1(pi) * halfwidth^2)`` rounded up (``z = z_{1-a/2}``);
    two-group designs: the total over both groups split by ``share``; designs with
    categories: enough for every category. Raises if the design carries no information
    about the prevalence at this value.
    """
    try:
        h = float(halfwidth)
    except (TypeError, ValueError):
        h = math.nan
    if not (h > 0 and math.isfinite(h)):
        raise EstimationError(f"halfwidth = {halfwidth!r} must be a positive margin of error, for example 0.05.")
    z = float(ndtri(0.5 + _check_open(confidence, "confidence", "0.95") / 2))
    se1 = float(np.max(unit_se(design, prevalence, share=share, **nuisance))) * math.sqrt(_check_deff(deff))
    if not math.isfinite(se1):
        raise EstimationError(
            f"The {design.name!r} design carries no information about the prevalence at {prevalence!r}; "
            f"no sample size reaches the half-width {h:g}."
        )
    return _smallest_n(lambda n: z * se1 / math.sqrt(n) <= h, (z * se1 / h) ** 2)


def _smallest_n(ok, guess: float) -> int:
    """Smallest integer n >= 1 with ok(n), for ok monotone in n, starting from a float guess."""
    n = max(1, math.ceil(guess - 1e-9 * max(guess, 1.0)))
    while not ok(n):
        n += 1
    while n > 1 and ok(n - 1):
        n -= 1
    return n


def efficiency(design: Design, prevalence: Any, *, share=(0.5, 0.5), **nuisance: Any) -> Any:
    """Relative efficiency against direct questioning: ``pi (1 - pi) * I1(pi)`` (at most 1).

    The ratio ``Var_direct / Var_RR`` of the variances of a direct-question proportion
    and the RR estimate with the same n (Lensvelt-Mulders et al. 2005, *Sociol. Methods
    Res.* 33, 319): 0.25 means the RR survey needs 4 times the respondents for the same
    precision (if everybody answered a direct question truthfully). At 0 and 1 the limit
    is returned (evaluated 1e-9 inside).
    """
    d = _check_design(design)

    def one(p: float, se1: float) -> float:
        if se1 == 0:
            return 1.0
        return p * (1 - p) / se1 ** 2

    if d.is_binary:
        p = _check_prob(prevalence, "prevalence")
        p = min(max(p, 1e-9), 1 - 1e-9)
        return one(p, float(unit_se(d, p, share=share, **nuisance)))
    c = _prevalence_vector(d, prevalence)
    c = np.clip(c, 1e-9, 1 - 1e-9)
    if d.model == "categorical":
        c = c / c.sum()
    se = np.asarray(unit_se(d, c, **nuisance), float)
    return np.array([one(p, s) for p, s in zip(c, se)])


def _normal_power(prev: float, null: float, se_alt: float, se_null: float, alpha: float, alternative: str) -> float:
    def upper(threshold):  # P(estimate > threshold) under N(prev, se_alt)
        if se_alt == 0:
            return 1.0 if prev > threshold else 0.0
        return float(ndtr((prev - threshold) / se_alt))

    if alternative == "greater":
        return upper(null + float(ndtri(1 - alpha)) * se_null)
    if alternative == "less":
        return 1.0 - upper(null - float(ndtri(1 - alpha)) * se_null)
    z = float(ndtri(1 - alpha / 2))
    return upper(null + z * se_null) + 1.0 - upper(null - z * se_null)


def _check_test(alpha: Any, alternative: Any) -> tuple[float, str]:
    a = _check_open(alpha, "alpha", "0.05")
    alt = _ALIASES.get(str(alternative).lower(), str(alternative).lower())
    if alt not in ALTERNATIVES:
        raise EstimationError(f"alternative = {alternative!r} must be one of {', '.join(ALTERNATIVES)}.")
    return a, alt


def power(design: Design, n: Any, prevalence: Any, *, null: Any = 0.0, alpha: float = 0.05,
          alternative: str = "greater", share=(0.5, 0.5), deff: float = 1.0, **nuisance: Any) -> Any:
    """Power of the Wald test of ``H0: prevalence = null`` with n respondents.

    As rr's ``power.rr.test`` (Blair, Imai & Zhou 2015): one-sided ``"greater"``:
    threshold ``= null + z_{1-alpha} se(null)`` and power ``= P(N(pi, se(pi)) >
    threshold)``; ``"less"`` mirrored; ``"two-sided"``: both tails with
    ``z_{1-alpha/2}``. ``se(x) = unit_se(x) / sqrt(n)`` from the Fisher information.
    Designs with categories: ``prevalence`` is the frequency vector, ``null`` applies to
    each category, and the result is one power per category.
    """
    d = _check_design(design)
    nn = _check_n(n) / _check_deff(deff)
    a, alt = _check_test(alpha, alternative)
    h0 = _check_prob(null, "null")
    if d.is_binary:
        pi = _check_prob(prevalence, "prevalence")
        se_alt = unit_se(d, pi, share=share, **nuisance) / math.sqrt(nn)
        se_null = unit_se(d, h0, share=share, **nuisance) / math.sqrt(nn)
        return _normal_power(pi, h0, se_alt, se_null, a, alt)
    c = _prevalence_vector(d, prevalence)
    se_alt = np.asarray(unit_se(d, c, **nuisance)) / math.sqrt(nn)
    se_null = _category_null_se(d, c, h0) / math.sqrt(nn)
    return np.array([_normal_power(p, h0, s1, s0, a, alt) for p, s1, s0 in zip(c, se_alt, se_null)])


def _category_null_se(d: Design, c: np.ndarray, h0: float) -> np.ndarray:
    """Unit SE of each category at the null value, the other categories scaled proportionally."""
    out = []
    for j in range(len(c)):
        if d.model == "unary":
            null_c = c.copy()
            null_c[j] = h0
        else:
            rest = np.delete(c, j)
            rest = rest / rest.sum() * (1 - h0) if rest.sum() > 0 else np.full(len(rest), (1 - h0) / len(rest))
            null_c = np.insert(rest, j, h0)
        out.append(float(np.asarray(unit_se(d, null_c))[j]))
    return np.array(out)


def required_n_for_power(design: Design, prevalence: Any, *, power: float = 0.8, null: Any = 0.0,
                         alpha: float = 0.05, alternative: str = "greater", share=(0.5, 0.5),
                         **nuisance: Any) -> int:
    """The smallest total n whose :func:`power` reaches ``power`` (yes/no designs).

    Starts from the closed form ``n = ((z_a se1(null) + z_b se1(pi)) / (pi - null))^2``
    (``z_a = z_{1-alpha}``, or ``z_{1-alpha/2}`` two-sided) and steps to the exact
    smallest n, so ``power(design, n, ...) >= power > power(design, n - 1, ...)``.
    """
    d = _check_design(design)
    if not d.is_binary:
        raise EstimationError("required_n_for_power works for yes/no designs; for categories use required_n.")
    target = _check_open(power, "power", "0.8")
    a, alt = _check_test(alpha, alternative)
    pi, h0 = _check_prob(prevalence, "prevalence"), _check_prob(null, "null")
    if (alt == "greater" and pi <= h0) or (alt == "less" and pi >= h0) or pi == h0:
        raise EstimationError(
            f"prevalence = {pi:g} is not on the side of the alternative ({alt}) from null = {h0:g}; "
            f"no sample size gives power {target:g}."
        )
    s1 = unit_se(d, pi, share=share, **nuisance)
    s0 = unit_se(d, h0, share=share, **nuisance)
    za = float(ndtri(1 - (a / 2 if alt == "two-sided" else a)))
    guess = ((za * s0 + float(ndtri(target)) * s1) / (pi - h0)) ** 2

    def ok(m: int) -> bool:
        return _normal_power(pi, h0, s1 / math.sqrt(m), s0 / math.sqrt(m), a, alt) >= target

    if not math.isfinite(guess):
        raise EstimationError(f"The {d.name!r} design carries no information at these values; power cannot be reached.")
    # a two-sided guess can be slightly high; step down from a safe start
    n = max(1, math.ceil(guess))
    while not ok(n):
        n = n * 2
    lo, hi = 0, n  # ok(hi), not ok(lo) (n = 0 has no power)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 1 and ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def question_b_cost(p: Any, reference: Any = 0.25) -> float:
    """How many times the respondents of a crosswise-type design (crosswise, ECWM) a question B answered
    'yes' by a share ``p`` needs, for the same precision, against one answered 'yes' by ``reference``.

    The crosswise estimate's variance is ``lambda (1 - lambda) / (n (2p - 1)^2)`` with
    ``lambda = pi p + (1 - pi)(1 - p)`` (Yu, Tian & Tang 2008, *Metrika* 67, 251, eq. 2.3; the ECWM's
    per-version estimates and their non-adherence test have the same factor, Heck, Hoffmann & Moshagen
    2018, *Behav Res Methods* 50, 1895). The sample needed therefore grows as ``1 / (2p - 1)^2``; this
    returns ``(2 reference - 1)^2 / (2p - 1)^2``, leaving out the factor ``lambda (1 - lambda)``, which
    lies in [3/16, 1/4] for shares in [1/4, 3/4] (within 4/3 of each other). Infinite at p = 1/2.
    """
    share = _check_prob(p, "p")
    ref = _check_prob(reference, "reference")
    if abs(2 * ref - 1) == 0:
        raise DesignError("The reference share of 'yes' to question B cannot be 1/2 (it carries no information).")
    gap = (2 * share - 1) ** 2
    return math.inf if gap == 0 else (2 * ref - 1) ** 2 / gap
