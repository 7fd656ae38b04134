"""Domain (subgroup) estimates in a complex sample: ``rr.survey_estimate_by``.

Domain estimation as ``svyby(~r, ~by, design, svymean, covmat = TRUE)`` (Lumley 2004;
Lumley 2010, *Complex Surveys*, 2.3 and 3.2): each domain's estimate uses the survey
weights set to 0 outside the domain, and the variance is taken over ALL the PSUs of the
design. Subsetting the design instead would drop PSUs that happen to hold no one from
the domain and understate the variance.

Domains of one sample are not independent: they share PSUs. The covariance of two
domain estimates comes from the same PSU totals of their influence contributions, so a
difference ``a - b`` has ``SE = sqrt(v_a + v_b - 2 c_ab)``, a t test on the design df and
a MOVER interval from the two domains' own intervals with their correlation (Zou &
Donner 2008). The overall test of equal prevalence is the design-based Wald test of the
k - 1 contrasts with the first domain, ``X^2 = d' (C V C')^-1 d``, referred to
``F(k - 1, df)`` as ``X^2 / (k - 1)`` (as ``survey::regTermTest`` does by default).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import fdtrc, stdtr

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr import intervals as iv
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.subgroups import Difference, EqualityTest, SubgroupEstimates
from dpdesk.mechanisms.rr.survey.estimate import SurveyEstimate, build, fit_domain, prepare
from dpdesk.mechanisms.rr.linearization import _codes, _missing, _rows


@dataclass(frozen=True)
class DomainDifference:
    """``a - b`` for two domains (arrays, one per category, for designs with categories)."""

    a: Any
    b: Any
    difference: Any
    se: Any
    ci: Any
    t: Any
    p_value: Any
    df: int
    confidence: float


@dataclass(frozen=True)
class DomainTest:
    """Design-based Wald test that every domain has the same prevalence (per category: ``category``)."""

    f: float
    df_num: int
    df_den: int
    p_value: float
    category: str | None = None


class SurveyDomains(dict):
    """Level -> :class:`SurveyEstimate`, with ``covariance`` (levels x levels; one such matrix per
    category for designs with categories), ``differences`` ((a, b) -> :class:`DomainDifference`)
    and ``tests`` (one :class:`DomainTest`, or one per category)."""

    covariance: np.ndarray
    differences: dict
    tests: tuple
    df: int
    reference: Any = None

    def as_subgroups(self, counts: dict) -> SubgroupEstimates:
        """The same numbers as ``rr.estimate_by``'s result, for the tables written for it.

        ``counts``: each level's unweighted response counts. The overall test is the
        design-based Wald F test; for designs with categories the largest per-category F
        with a Bonferroni-adjusted p-value ``min(1, K min_j p_j)``, the per-category tests
        beside it.
        """
        ests = {k: e.as_estimate(counts[k]) for k, e in self.items()}
        diffs = {key: Difference(d.a, d.b, d.difference, d.se, d.ci, d.t, d.p_value, d.confidence)
                 for key, d in self.differences.items()}
        method = f"design-based Wald F test on (k - 1, {self.df}) degrees of freedom"
        per = [EqualityTest(t.f, t.df_num, t.p_value, method, math.nan, t.category) for t in self.tests]
        if not per:
            test = None
        elif len(per) == 1 and per[0].category is None:
            test = per[0]
        else:
            worst = max(per, key=lambda t: t.statistic if math.isfinite(t.statistic) else -1.0)
            p = min(1.0, len(per) * min(t.p_value for t in per))
            test = EqualityTest(worst.statistic, worst.df, p, "largest per-category " + method +
                                ", Bonferroni-adjusted p-value", math.nan, None, tuple(per))
        return SubgroupEstimates(ests, diffs, test, self.reference)


def _point(e: SurveyEstimate) -> float:
    """The estimate whose influence the covariance describes: the moment estimate, or the pseudo-ML one."""
    return float(e.unconstrained if np.ndim(e.unconstrained) == 0 else e.prevalence)


def _difference(ea: SurveyEstimate, eb: SurveyEstimate, cov, a, b, df, j=None) -> tuple:
    if j is None:
        pa, pb, ca, cb = float(ea.prevalence), float(eb.prevalence), ea.ci, eb.ci
    else:
        pa, pb, ca, cb = float(ea.prevalence[j]), float(eb.prevalence[j]), tuple(ea.ci[j]), tuple(eb.ci[j])
    v = cov[a, a] + cov[b, b] - 2 * cov[a, b]
    se = math.sqrt(max(v, 0.0))
    r = cov[a, b] / math.sqrt(cov[a, a] * cov[b, b]) if cov[a, a] > 0 and cov[b, b] > 0 else 0.0
    d = pa - pb
    t = d / se if se > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))
    p = float(2 * stdtr(max(df, 1), -abs(t))) if math.isfinite(t) else 0.0
    return d, se, iv.mover_difference(pa, tuple(ca), pb, tuple(cb), r), t, p


def _wald(est: np.ndarray, cov: np.ndarray, df: int, category=None) -> DomainTest | None:
    k = len(est)
    if k < 2:
        return None
    C = np.hstack([-np.ones((k - 1, 1)), np.eye(k - 1)])
    d = C @ est
    try:
        x2 = float(d @ np.linalg.solve(C @ cov @ C.T, d))
    except np.linalg.LinAlgError:
        return DomainTest(math.nan, k - 1, df, math.nan, category)
    f = x2 / (k - 1)
    return DomainTest(f, k - 1, df, float(fdtrc(k - 1, max(df, 1), f)), category)


def _order(labels: list, levels) -> list[int]:
    """Indices of ``labels`` in the order of ``levels`` (default: sorted, else as they first appear)."""
    if levels is None:
        try:
            return sorted(range(len(labels)), key=lambda i: labels[i])
        except TypeError:
            return list(range(len(labels)))
    levels = list(levels)
    if sorted(map(repr, levels)) != sorted(map(repr, labels)):
        raise EstimationError(f"levels = {levels!r} must list each domain once; the domains are {labels!r}.")
    index = {repr(lab): i for i, lab in enumerate(labels)}
    return [index[repr(lev)] for lev in levels]


def survey_estimate_by(design: Design, responses, by, *, weights=None, strata=None, clusters=None, fpc=None,
                       groups=None, confidence: float = 0.95, ci: str = "default", lonely_psu: str = "fail",
                       reference: Any = None, used=None, levels=None) -> SurveyDomains:
    """Estimate in each domain (level of ``by``) on the whole design, and compare the domains.

    Arguments as :func:`rr.survey_estimate`; ``by`` gives each respondent's domain (it may
    be missing where ``used`` is False).
    ``levels``: the order of the domains (every value of ``by`` that is used, once); by
    default sorted. Returns a dict ``level -> SurveyEstimate`` with ``.covariance``,
    ``.differences`` (every pair, or each level against ``reference``) and ``.tests``
    (module docstring).
    """
    z, g, sample, conf, used = prepare(design, responses, weights, strata, clusters, fpc, groups, lonely_psu,
                                       confidence, ci, used)
    by = np.asarray(by, dtype=object if np.asarray(by).dtype.kind in "OUS" else None)
    if len(by) != len(z):
        raise EstimationError(f"by has {len(by)} values but there are {len(z)} respondents.")
    blank = _missing(by) & used
    if blank.any():
        raise EstimationError(f"The domain (by) is missing in {_rows(blank)}; give every respondent whose answer "
                              f"is used a domain, or leave them out with used.")
    codes = np.full(len(z), -1, np.int64)
    codes[used], labels = _codes(by[used], int(used.sum()), "domain (by)")
    order = _order(labels, levels)
    out = SurveyDomains()
    influences = []
    for i in order:
        wd = np.where(codes == i, sample.weights, 0.0)  # 0 outside the domain and for unused rows
        try:
            parts = fit_domain(design, z, g, wd, sample, None, conf, ci)
        except EstimationError as exc:
            raise EstimationError(f"Domain {labels[i]!r}: {exc}") from None
        out[labels[i]] = build(design, parts, sample, wd, None, conf, ci)
        influences.append(parts["influence"])
    levels = list(out)
    k = influences[0].shape[1]
    covs = [sample.variance(np.column_stack([u[:, j] for u in influences])) for j in range(k)]
    if reference is not None and reference not in out:
        raise EstimationError(f"reference = {reference!r} is not a domain; the domains are {levels}.")
    pairs = ([(lab, reference) for lab in levels if lab != reference] if reference is not None
             else list(itertools.combinations(levels, 2)))
    index = {lab: i for i, lab in enumerate(levels)}
    df = sample.df
    scalar = out[levels[0]].frequencies is None  # one prevalence (else one per category)
    diffs = {}
    for a, b in pairs:
        per = [_difference(out[a], out[b], covs[j], index[a], index[b], df, None if scalar else j)
               for j in range(k)]
        d, se, ci_, t, p = per[0] if scalar else (np.array([x[m] for x in per]) for m in range(5))
        diffs[(a, b)] = DomainDifference(a, b, d, se, ci_, t, p, df, conf)
    if scalar:
        point = np.array([_point(out[lab]) for lab in levels])
        tests = tuple(t for t in [_wald(point, covs[0], df)] if t is not None)
        out.covariance = covs[0]
    else:
        cats = design.categories
        tests = tuple(t for j in range(k) for t in [_wald(np.array([out[lab].unconstrained[j] for lab in levels]),
                                                          covs[j], df, str(cats[j]))] if t is not None)
        out.covariance = np.array(covs)
    out.differences, out.tests, out.df, out.reference = diffs, tests, df, reference
    return out
