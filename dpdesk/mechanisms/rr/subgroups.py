"""Prevalence by subgroup, differences between independent estimates, RR against direct questions.

Subgroups are independent samples, so a difference of two estimates has
``SE = sqrt(se_a^2 + se_b^2)``, ``z = difference / SE`` and a two-sided normal p-value.
Its interval is MOVER (Newcombe 1998, *Stat. Med.* 17, 873; Zou & Donner 2008, *Stat.
Med.* 27, 1693) built from the two single intervals (by default the boundary-calibrated
likelihood-ratio ones), so it respects 0 and 1 where a Wald interval would not.

The overall test of equal prevalence across k subgroups (:class:`EqualityTest`):

* one-group yes/no designs: the likelihood-ratio test ``G^2 = 2 (sum_i l_i(pi_i) -
  sum_i l_i(pi_pooled))`` with k - 1 degrees of freedom; the pooled estimate is the ML
  estimate from the summed counts (same design, so the likelihoods add);
* two-group designs (SLD, CDM, unrelated-unknown): the Wald chi-square
  ``X^2 = sum_i w_i (pi_i - pi_bar)^2``, ``w_i = 1 / se_i^2``, ``pi_bar = sum w_i pi_i / sum
  w_i``, k - 1 degrees of freedom (the nuisance parameters may differ by subgroup).

* designs with categories (forced_multi, krr, custom with more than two states): the
  likelihood-ratio test of one distribution for all subgroups,
  ``G^2 = 2 (sum_i l_i(c_i) - sum_i l_i(c_pooled))`` with ``l_i(c) = sum_r n_ir log (P c)_r``,
  ``c_i`` the ML estimate on the simplex in subgroup i and ``c_pooled`` the one from the
  summed counts, on ``(k - 1)(S - 1)`` degrees of freedom (S states); beside it one test
  per category ("this category or not", the yes/no design of ``estimate._binary_slice``)
  on k - 1 df, where the matrix treats the other categories alike;
* unary designs (one randomized tick per option): per option the yes/no likelihood-ratio
  test on k - 1 df; the options are answered by the same respondents, so their statistics
  are dependent and their sum is not chi-square: the overall test is the largest of them
  with a Bonferroni-adjusted p-value ``min(1, K min_j p_j)`` (K options), valid under any
  dependence.

The likelihood-ratio statistic is asymptotically chi-square (Wilks 1938, *Ann. Math.
Stat.* 9, 60); for randomized response see van den Hout & van der Heijden (2002, *Int.
Stat. Rev.* 70, 269). Where an estimate lies on the boundary (a share of 0) the chi-square
reference is approximate and tends to be conservative (Self & Liang 1987, *JASA* 82, 605).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from scipy.special import ndtr
from scipy.special import chdtrc  # the chi-square upper tail (scipy.stats' chi2.sf), without loading scipy.stats

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr import intervals as iv
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.estimate import CI_NAMES, Estimate, check_confidence, estimate
from dpdesk.mechanisms.rr.likelihood import OneParameter


@dataclass(frozen=True)
class Difference:
    """``a - b`` for two independent estimates (arrays, one per category, for categorical designs)."""

    a: Any
    b: Any
    difference: Any
    se: Any
    ci: Any
    z: Any
    p_value: Any
    confidence: float


@dataclass(frozen=True)
class EqualityTest:
    """Test that all subgroups have the same prevalence (or the same distribution).

    ``pooled`` is the estimate from the summed counts (one value per category for designs
    with categories). ``category`` names the category a per-category test is about (None:
    the whole distribution); ``by_category`` holds those per-category tests.
    """

    statistic: float
    df: int
    p_value: float
    method: str
    pooled: Any
    category: str | None = None
    by_category: tuple["EqualityTest", ...] = ()


@dataclass(frozen=True)
class SubgroupEstimates:
    """The result of :func:`estimate_by`: per-subgroup estimates, pairwise differences, a test."""

    estimates: dict[Any, Estimate]
    differences: dict[tuple[Any, Any], Difference]
    test: EqualityTest | None
    reference: Any = None


@dataclass(frozen=True)
class DirectComparison:
    """RR estimate against a direct-question (DQ) estimate of the same item."""

    rr: float
    rr_ci: tuple[float, float]
    direct: float
    direct_ci: tuple[float, float]
    difference: float
    se: float
    ci: tuple[float, float]
    z: float
    p_value: float
    confidence: float


def _z_and_p(diff, se, *, two_sided: bool = True):
    diff, se = np.asarray(diff, float), np.asarray(se, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / np.where(se > 0, se, 1.0), np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    p = 2 * ndtr(-np.abs(z)) if two_sided else ndtr(-z)
    if z.ndim == 0:
        return float(z), float(p)
    return z, p


def compare(est_a: Estimate, est_b: Estimate) -> Difference:
    """Difference ``a - b`` of two independent estimates, with SE, MOVER interval, z and p.

    ``SE = sqrt(se_a^2 + se_b^2)``; the interval combines the two estimates' own intervals
    (MOVER; Zou & Donner 2008), so both must have the same confidence level.
    """
    for e in (est_a, est_b):
        if not isinstance(e, Estimate):
            raise EstimationError(f"compare takes two results of rr.estimate, not {type(e).__name__}.")
    if abs(est_a.confidence - est_b.confidence) > 1e-12:
        raise EstimationError(
            f"The two estimates have different confidence levels ({est_a.confidence:g} and {est_b.confidence:g}); "
            f"estimate both at the same level."
        )
    pa, pb = np.asarray(est_a.prevalence, float), np.asarray(est_b.prevalence, float)
    if pa.shape != pb.shape:
        raise EstimationError(
            f"The two estimates have different numbers of categories ({pa.size} and {pb.size}); "
            f"only estimates of the same item can be compared."
        )
    diff = pa - pb
    se = np.hypot(np.asarray(est_a.se, float), np.asarray(est_b.se, float))
    z, p = _z_and_p(diff, se)
    if pa.ndim == 0:
        ci = iv.mover_difference(float(pa), tuple(est_a.ci), float(pb), tuple(est_b.ci))
        return Difference(None, None, float(diff), float(se), ci, z, p, est_a.confidence)
    ca, cb = np.asarray(est_a.ci, float), np.asarray(est_b.ci, float)
    ci = np.array([iv.mover_difference(pa[j], tuple(ca[j]), pb[j], tuple(cb[j])) for j in range(pa.size)])
    return Difference(None, None, diff, se, ci, z, p, est_a.confidence)


def _labelled(diff: Difference, a, b) -> Difference:
    return Difference(a, b, diff.difference, diff.se, diff.ci, diff.z, diff.p_value, diff.confidence)


def _one_parameter_lr(model: OneParameter, counts_list) -> tuple[float, float]:
    """(G^2, pooled ML estimate) for equal prevalence across subgroups of a one-parameter design."""
    groups = len(counts_list[0])
    pooled_counts = [sum(c[g] for c in counts_list) for g in range(groups)]
    pi_pool, _ = model.mle(pooled_counts)
    g2 = 2 * sum(model.loglik(c, model.mle(c)[0]) - model.loglik(c, pi_pool) for c in counts_list)
    return max(0.0, float(g2)), float(pi_pool)


def _lr_test(g2: float, df: int, method: str, pooled, category=None, by_category=()) -> EqualityTest:
    return EqualityTest(g2, df, float(chdtrc(df, g2)), method, pooled, category, tuple(by_category))


def _categorical_test(d: Design, ests: dict[Any, Estimate]) -> EqualityTest:
    from dpdesk.mechanisms.rr.estimate import _binary_slice

    k = len(ests)
    P = d.matrix
    counts = [e.counts[0] for e in ests.values()]
    pooled = estimate(d, sum(counts), ci="wald").frequencies
    lam = np.maximum(P @ pooled, 1e-300)
    g2 = max(0.0, 2 * sum(float(e.loglik) - float(e.counts[0] @ np.log(lam)) for e in ests.values()))
    per = []
    for j, cat in enumerate(d.categories):
        sl = _binary_slice(P, j)
        if sl is None:
            continue
        model = OneParameter.from_matrices([sl])
        yes = [(np.array([c.sum() - c[j], c[j]]),) for c in counts]
        g2_j, pool_j = _one_parameter_lr(model, yes)
        per.append(_lr_test(g2_j, k - 1, "likelihood ratio (G²), this category or not", pool_j, str(cat)))
    df = (k - 1) * (P.shape[1] - 1)
    return _lr_test(g2, df, "likelihood ratio (G²), whole distribution", tuple(float(x) for x in pooled),
                    by_category=per)


def _unary_test(d: Design, ests: dict[Any, Estimate]) -> EqualityTest:
    k = len(ests)
    model = OneParameter.from_matrices([d.matrix])
    per = []
    for j, cat in enumerate(d.categories):
        g2_j, pool_j = _one_parameter_lr(model, [(e.counts[j],) for e in ests.values()])
        per.append(_lr_test(g2_j, k - 1, "likelihood ratio (G²), this option ticked or not", pool_j, str(cat)))
    worst = max(per, key=lambda t: t.statistic)
    p = min(1.0, len(per) * min(t.p_value for t in per))
    return EqualityTest(worst.statistic, k - 1, p, "largest per-option likelihood ratio (G²), "
                        "Bonferroni-adjusted p-value", tuple(t.pooled for t in per), None, tuple(per))


def _equality_test(d: Design, ests: dict[Any, Estimate]) -> EqualityTest | None:
    k = len(ests)
    if k < 2:
        return None
    if d.model == "categorical":
        return _categorical_test(d, ests)
    if d.model == "unary":
        return _unary_test(d, ests)
    if d.model == "prevalence":
        model = OneParameter.from_matrices(d.matrices)
        g2, pi_pool = _one_parameter_lr(model, [e.counts for e in ests.values()])
        return _lr_test(g2, k - 1, "likelihood ratio (G²)", pi_pool)
    p = np.array([e.prevalence for e in ests.values()], float)
    se = np.array([e.se for e in ests.values()], float)
    if np.any(~(se > 0)) or np.any(~np.isfinite(se)):
        return EqualityTest(math.nan, k - 1, math.nan, "Wald chi-square (not available: a standard error is 0 "
                            "or undefined)", math.nan)
    w = 1 / se ** 2
    pbar = float(w @ p / w.sum())
    x2 = float(w @ (p - pbar) ** 2)
    return EqualityTest(x2, k - 1, float(chdtrc(k - 1, x2)), "Wald chi-square", pbar)


def estimate_by(design: Design, counts_by_group: Mapping[Any, Any], *, confidence: float = 0.95,
                ci: str = "default", reference: Any = None) -> SubgroupEstimates:
    """Estimate the prevalence in each subgroup and compare them.

    ``counts_by_group`` maps a subgroup label to its counts (as :func:`rr.estimate` takes).
    ``.estimates``: label -> Estimate. ``.differences``: ``(a, b) -> a - b`` for every pair
    in the given order, or ``(label, reference) -> label - reference`` when a
    ``reference`` label is given (see :func:`compare`). ``.test``: overall test of equal
    prevalence or distribution (module docstring; ``None`` for one subgroup).
    """
    if not isinstance(counts_by_group, Mapping) or not counts_by_group:
        raise EstimationError(
            "counts_by_group must map each subgroup label to its counts, e.g. {'women': [120, 80], 'men': [90, 110]}."
        )
    ests: dict[Any, Estimate] = {}
    for label, counts in counts_by_group.items():
        try:
            ests[label] = estimate(design, counts, confidence=confidence, ci=ci)
        except EstimationError as exc:
            raise EstimationError(f"Subgroup {label!r}: {exc}") from None
    labels = list(ests)
    if reference is not None:
        if reference not in ests:
            raise EstimationError(f"reference = {reference!r} is not a subgroup; the subgroups are {labels}.")
        pairs = [(lab, reference) for lab in labels if lab != reference]
    else:
        pairs = list(itertools.combinations(labels, 2))
    diffs = {(a, b): _labelled(compare(ests[a], ests[b]), a, b) for a, b in pairs}
    return SubgroupEstimates(ests, diffs, _equality_test(design, ests), reference)


def compare_direct(rr_estimate: Estimate, yes: Any, n: Any, *, confidence: float = 0.95) -> DirectComparison:
    """Compare an RR estimate with a direct-question (DQ) estimate of the same item.

    DQ: ``p = yes / n`` with the Wilson (1927) interval and ``se = sqrt(p (1 - p) / n)``.
    Difference RR - DQ with ``SE = sqrt(se_RR^2 + se_DQ^2)`` and the MOVER interval; the
    p-value is ONE-sided for RR > DQ: the "more is better" test (Lensvelt-Mulders et al.
    2005, *Sociol. Methods Res.* 33, 319): a higher RR estimate of a socially
    undesirable trait suggests that direct answers under-report it. If the RR estimate was
    made at another confidence level it is re-estimated at ``confidence``.
    """
    if not isinstance(rr_estimate, Estimate) or not rr_estimate.design.is_binary:
        raise EstimationError("compare_direct takes a yes/no result of rr.estimate (one prevalence).")
    try:
        y, m = float(yes), float(n)
    except (TypeError, ValueError):
        raise EstimationError(f"yes = {yes!r} and n = {n!r} must be numbers of direct answers.") from None
    if not (m >= 1 and 0 <= y <= m and y == round(y) and m == round(m)):
        raise EstimationError(f"yes = {yes!r} and n = {n!r} must be whole numbers with 0 <= yes <= n and n >= 1.")
    conf = check_confidence(confidence)
    est = rr_estimate
    if abs(est.confidence - conf) > 1e-12:
        method = {v: k for k, v in CI_NAMES.items()}.get(est.ci_method, "default")
        counts = est.counts if est.design.groups > 1 else est.counts[0]
        est = estimate(est.design, counts, confidence=conf, ci=method)
    p = y / m
    dq_ci = iv.wilson(y, m, conf)
    dq_se = math.sqrt(p * (1 - p) / m)
    diff = float(est.prevalence) - p
    se = math.hypot(float(est.se), dq_se)
    z, pv = _z_and_p(diff, se, two_sided=False)
    ci = iv.mover_difference(float(est.prevalence), tuple(est.ci), p, dq_ci)
    return DirectComparison(float(est.prevalence), tuple(est.ci), p, dq_ci, diff, se, ci, z, pv, conf)
