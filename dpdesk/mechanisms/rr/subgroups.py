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

Designs with several categories are compared per category (arrays), without an overall
test.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from scipy.special import ndtr
from scipy.stats import chi2

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
    """Overall test that all subgroups have the same prevalence."""

    statistic: float
    df: int
    p_value: float
    method: str
    pooled: float


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


def _equality_test(d: Design, ests: dict[Any, Estimate]) -> EqualityTest | None:
    k = len(ests)
    if k < 2 or not d.is_binary:
        return None
    if d.model == "prevalence":
        model = OneParameter.from_matrices(d.matrices)
        pooled_counts = [sum(e.counts[g] for e in ests.values()) for g in range(d.groups)]
        pi_pool, _ = model.mle(pooled_counts)
        g2 = max(0.0, 2 * sum(model.loglik(e.counts, e.prevalence) - model.loglik(e.counts, pi_pool)
                              for e in ests.values()))
        return EqualityTest(g2, k - 1, float(chi2.sf(g2, k - 1)), "likelihood ratio (G^2)", float(pi_pool))
    p = np.array([e.prevalence for e in ests.values()], float)
    se = np.array([e.se for e in ests.values()], float)
    if np.any(~(se > 0)) or np.any(~np.isfinite(se)):
        return EqualityTest(math.nan, k - 1, math.nan, "Wald chi-square (not available: a standard error is 0 "
                            "or undefined)", math.nan)
    w = 1 / se ** 2
    pbar = float(w @ p / w.sum())
    x2 = float(w @ (p - pbar) ** 2)
    return EqualityTest(x2, k - 1, float(chi2.sf(x2, k - 1)), "Wald chi-square", pbar)


def estimate_by(design: Design, counts_by_group: Mapping[Any, Any], *, confidence: float = 0.95,
                ci: str = "default", reference: Any = None) -> SubgroupEstimates:
    """Estimate the prevalence in each subgroup and compare them.

    ``counts_by_group`` maps a subgroup label to its counts (as :func:`rr.estimate` takes).
    ``.estimates``: label -> Estimate. ``.differences``: ``(a, b) -> a - b`` for every pair
    in the given order, or ``(label, reference) -> label - reference`` when a
    ``reference`` label is given (see :func:`compare`). ``.test``: overall test of equal
    prevalence (module docstring; ``None`` for designs with categories or one subgroup).
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
