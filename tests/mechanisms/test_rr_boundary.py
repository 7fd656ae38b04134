"""The default interval at y = 0 and y = n, SLD honesty at zero prevalence, Kuk's estimators."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr import intervals
from dpdesk.mechanisms.rr.likelihood import OneParameter, kuk_mean_red_estimate


def exact_coverage(d, n: int, pi: float, confidence: float = 0.95) -> float:
    """sum over y = 0..n of Binom(y; n, lambda(pi)) * [pi in CI(y)]: no simulation noise."""
    lam = float(d.matrix[1] @ np.array([1 - pi, pi]))
    cover = 0.0
    for y in range(n + 1):
        lo, hi = rr.estimate(d, [n - y, y], confidence=confidence).ci
        if lo - 1e-12 <= pi <= hi + 1e-12:
            cover += binom.pmf(y, n, lam)
    return cover


def test_boundary_cell_from_the_reference_checks_covers():
    """n = 40, triangular p = 0.1, prevalence 0.95: 80.9% before (the y = n interval started
    at 0.9505, above the truth); at least the nominal level with the exact bound."""
    d = rr.design("triangular", p=0.1)
    assert exact_coverage(d, 40, 0.95) == pytest.approx(0.96722, abs=5e-5)
    lo, hi = rr.estimate(d, [0, 40]).ci
    exact = ((1 - 0.95) ** (1 / 40) - 0.1) / 0.9  # one-sided Clopper-Pearson lower bound, as a prevalence
    assert lo == pytest.approx(exact, abs=1e-12) and hi == 1.0


@pytest.mark.parametrize("name, params, n", [
    ("triangular", {"p": 0.1}, 40), ("mangat", {"p": 0.7}, 40), ("forced", {"p_truth": 0.5, "p_yes": 0.25,
                                                                           "p_no": 0.25}, 30),
    ("warner", {"p": 0.3}, 30), ("crosswise", {"p": 0.8}, 30), ("kuk", {"p1": 0.7, "p2": 0.3}, 30)])
def test_never_tighter_than_the_exact_one_sided_bound(name, params, n):
    d = rr.design(name, **params)
    model = OneParameter.from_matrices(d.matrices)
    a, b = model.A[0][1], model.B[0][1]
    for conf in (0.9, 0.95, 0.99):
        for y in (0, n):
            lo, hi = rr.estimate(d, [n - y, y], confidence=conf).ci
            lam = intervals.exact_boundary_bound(y, n, conf)
            pi = min(1.0, max(0.0, (lam - a) / b))
            # the exact bound on the yes probability, mapped to the prevalence, lies inside the interval
            assert lo - 1e-12 <= pi <= hi + 1e-12, (y, conf, lo, hi, pi)
    assert intervals.exact_boundary_bound(3, n, 0.95) is None


def test_coverage_near_the_top_stays_above_ninety_percent():
    """Over a grid of prevalences the worst exact coverage is about 91% (discreteness at
    y = n - 1, n - 2: see benchmarks/README.md), no longer 81%."""
    d = rr.design("triangular", p=0.1)
    worst = min(exact_coverage(d, 40, pi) for pi in np.linspace(0.80, 1.0, 41))
    assert worst > 0.91


def test_sld_honesty_is_nan_with_a_note_when_no_carriers():
    sld = rr.design("sld", p1=0.3, p2=0.7)
    # yes shares 0.7 and 0.3 = 1 - p_g exactly: prevalence 0 (the moment estimate is ~1e-16)
    e = rr.estimate(sld, [[30, 70], [70, 30]])
    assert e.prevalence == 0.0
    t, se_t = e.extra["t"]
    assert math.isnan(t) and math.isnan(se_t)
    raw_pi, raw_t = e.unconstrained
    assert math.isnan(raw_t) and abs(raw_pi) < 1e-9
    assert e.notes and "not identified" in e.notes[0]
    assert e.to_dict()["notes"] == list(e.notes)
    # an unconstrained prevalence of ~1e-16 (liars explain the answers): its t is NaN, never h / 1e-16
    e = rr.estimate(sld, [[35, 65], [75, 25]])
    assert abs(e.unconstrained[0]) < 1e-9 and math.isnan(e.unconstrained[1])
    assert all(abs(v) <= 1e3 for v in e.extra["t"] if not math.isnan(v))
    assert rr.estimate(sld, [[40, 60], [50, 50]]).notes == ()


def test_kuk_moment_estimates_named_apart():
    """Our unconstrained Kuk estimate (projection on B) is not RRreg's mean-red-cards estimate."""
    kuk = rr.design("kuk", p1=0.7, p2=0.3, draws=3)
    counts = [20, 30, 35, 15]  # respondents with 0, 1, 2, 3 red cards
    mean_red = (30 + 2 * 35 + 3 * 15) / 100
    assert kuk_mean_red_estimate(counts, 0.7, 0.3, 3) == pytest.approx((mean_red / 3 - 0.3) / 0.4)
    ours = rr.estimate(kuk, counts).unconstrained
    assert ours != pytest.approx(kuk_mean_red_estimate(counts, 0.7, 0.3, 3), abs=1e-6)
    # with one card both are the same moment estimate
    one = rr.design("kuk", p1=0.7, p2=0.3)
    assert rr.estimate(one, [55, 45]).unconstrained == pytest.approx(kuk_mean_red_estimate([55, 45], 0.7, 0.3, 1))
