"""Independent samples (waves) compared, each under its own design: ``rr.survey_compare_independent``.

Two waves of a survey are separate samples: no PSU is shared, so the covariance of their
estimates is zero, and each wave's estimate and standard error come from its own design
(``rr.survey_estimate``; a wave without a design is a simple random sample with unit
weights). For waves a and b:

* the difference ``d = p_a - p_b`` has ``SE = sqrt(se_a^2 + se_b^2)``;
* its t test uses the Welch-Satterthwaite degrees of freedom on the two design df
  (``df_i`` = PSUs - strata, ``SurveyEstimate.df``):
  ``nu = (v_a + v_b)^2 / (v_a^2 / df_a + v_b^2 / df_b)``, ``v_i = se_i^2`` (Satterthwaite 1946,
  *Biometrics Bulletin* 2, 110; Welch 1947, *Biometrika* 34, 28; for survey estimates Korn &
  Graubard 1999, *Analysis of Health Surveys*, Wiley, 5.2). It lies between the smaller df and
  ``df_a + df_b``, and is near the smaller df when the wave with few PSUs carries the variance;
* the interval is MOVER's from the two waves' own intervals with correlation 0 (Newcombe
  1998; Zou & Donner 2008), as for subgroups, so it keeps their behaviour near 0 and 1.

The test that all k waves have the same prevalence is the Wald test of the k - 1 contrasts
with the first wave, ``X^2 = d' (C V C')^-1 d`` with ``V = diag(v_i)``, referred to
``F(k - 1, nu)`` as ``X^2 / (k - 1)``, with ``nu`` Welch's df for two waves (then F = t^2) and
the smallest design df for more (a conservative choice). Designs with categories: the same
per category, and the largest per-category F with a Bonferroni-adjusted p-value.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import fdtrc, stdtr

from dpdesk.errors import EstimationError
from dpdesk.mechanisms.rr import intervals as iv
from dpdesk.mechanisms.rr.subgroups import Difference, EqualityTest, SubgroupEstimates

@dataclass(frozen=True)
class IndependentSamples(SubgroupEstimates):
    """:class:`SubgroupEstimates` of independent samples, with each pair's Welch df (``df[(a, b)]``)."""

    df: dict = field(default_factory=dict)
    test_df: float | None = None  # the denominator df of the equality test's F
    category_df: dict = field(default_factory=dict)  # designs with categories: each category's test's df


METHOD = "design-based Wald F test of independent samples"


def welch_df(v_a, v_b, df_a, df_b):
    """Welch-Satterthwaite df of ``v_a + v_b`` (arrays work elementwise); the smaller df when both are 0."""
    v_a, v_b = np.asarray(v_a, float), np.asarray(v_b, float)
    den = v_a ** 2 / df_a + v_b ** 2 / df_b
    with np.errstate(invalid="ignore", divide="ignore"):
        nu = np.where(den > 0, (v_a + v_b) ** 2 / np.where(den > 0, den, 1.0), min(df_a, df_b))
    return float(nu) if nu.ndim == 0 else nu


def _values(e, j):
    """(point, se, ci, df) of an estimate (or its category j)."""
    if j is None:
        return float(e.prevalence), float(e.se), tuple(e.ci), int(e.df)
    return float(e.prevalence[j]), float(e.se[j]), tuple(e.ci[j]), int(e.df)


def _difference(ea, eb, j) -> tuple:
    pa, sa, ca, dfa = _values(ea, j)
    pb, sb, cb, dfb = _values(eb, j)
    d = pa - pb
    se = math.sqrt(sa ** 2 + sb ** 2)
    nu = welch_df(sa ** 2, sb ** 2, max(dfa, 1), max(dfb, 1))
    t = d / se if se > 0 else (0.0 if d == 0 else math.copysign(math.inf, d))
    p = float(2 * stdtr(max(nu, 1.0), -abs(t))) if math.isfinite(t) else 0.0
    return d, se, iv.mover_difference(pa, ca, pb, cb, 0.0), t, p, nu


def _wald(points, variances, df: float, category=None) -> EqualityTest | None:
    k = len(points)
    if k < 2:
        return None
    C = np.hstack([-np.ones((k - 1, 1)), np.eye(k - 1)])
    d = C @ np.asarray(points, float)
    method = f"{METHOD} (Welch–Satterthwaite denominator degrees of freedom)"
    try:
        x2 = float(d @ np.linalg.solve(C @ np.diag(variances) @ C.T, d))
    except np.linalg.LinAlgError:
        return EqualityTest(math.nan, k - 1, math.nan, method, math.nan, category)
    f = x2 / (k - 1)
    return EqualityTest(f, k - 1, float(fdtrc(k - 1, max(df, 1.0), f)), method, math.nan, category)


def survey_compare_independent(estimates: dict, counts: dict) -> IndependentSamples:
    """Compare independent samples: ``{label: SurveyEstimate}`` (one per wave, each under its own design).

    ``counts``: each sample's unweighted response counts (as ``SurveyEstimate.as_estimate`` takes).
    Returns the :class:`SubgroupEstimates` that ``rr.estimate_by`` returns for subgroups: each
    sample's estimate, every pair's difference (SE, MOVER interval, Welch t test) and the
    Wald F test of equality (module docstring), as :class:`IndependentSamples`, whose ``df``
    maps each pair to its Welch df (an array per category for designs with categories).
    """
    labels = list(estimates)
    if len(labels) < 2:
        raise EstimationError("Comparing samples needs at least two.")
    first = estimates[labels[0]]
    if any(e.design.name != first.design.name for e in estimates.values()):
        raise EstimationError("The samples compared must share one design.")
    scalar = first.frequencies is None
    cats = [None] if scalar else list(range(len(first.frequencies)))
    diffs: dict[tuple[Any, Any], Difference] = {}
    dfs: dict = {}
    for a, b in itertools.combinations(labels, 2):
        per = [_difference(estimates[a], estimates[b], j) for j in cats]
        if scalar:
            d, se, ci, t, p, nu = per[0]
        else:
            d, se, ci, t, p, nu = (np.array([x[m] for x in per]) for m in range(6))
        diffs[(a, b)] = Difference(a, b, d, se, ci, t, p, first.confidence)
        dfs[(a, b)] = nu
    tests, dens = [], []
    for j in cats:
        vals = [_values(estimates[lab], j) for lab in labels]
        points = [float(estimates[lab].unconstrained if j is None else estimates[lab].unconstrained[j])
                  for lab in labels]
        if len(labels) == 2:
            df = float(dfs[(labels[0], labels[1])] if j is None else dfs[(labels[0], labels[1])][j])
        else:
            df = float(min(max(v[3], 1) for v in vals))
        test = _wald(points, [v[1] ** 2 for v in vals], df, None if j is None else str(first.design.categories[j]))
        if test is not None:
            tests.append(test)
            dens.append(df)
    test_df = dens[0] if dens else None
    if scalar or not tests:
        test = tests[0] if tests else None
    else:
        worst = max(tests, key=lambda t: t.statistic if math.isfinite(t.statistic) else -1.0)
        test_df = dens[tests.index(worst)]
        p = min(1.0, len(tests) * min(t.p_value for t in tests))
        test = EqualityTest(worst.statistic, worst.df, p, f"largest per-category {METHOD}, Bonferroni-adjusted "
                            "p-value", math.nan, None, tuple(tests))
    ests = {lab: e.as_estimate(counts[lab]) for lab, e in estimates.items()}
    per_category = {t.category: d for t, d in zip(tests, dens) if t.category is not None}
    return IndependentSamples(ests, diffs, test, None, df=dfs, test_df=test_df, category_df=per_category)
