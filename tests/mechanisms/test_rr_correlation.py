"""rr.correlation (RRreg::RRcor's corrected correlations) against R, and its two-group weights.

tests/fixtures/rrcor/make_rrcor.R: one-group designs and an observed variable against RRcor 0.7.5; two-group
designs against RRcor's own estimator with the weights' index corrected (RRcor uses the quotient of a
stale variable there, and gives NA for a pair of two-group items); and a simulation in which the true
correlation is known.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "rrcor"
REF = json.loads((HERE / "rrcor_reference.json").read_text())


def _r(values):
    return np.array([[np.nan if v == "NA" else v for v in row] for row in values], float)


def test_one_group_designs_match_rrcor():
    df = pd.read_csv(HERE / "rrcor_data_1.csv")
    res = rr.correlation({
        "warner": (rr.design("warner", p=0.3), df.warner),
        "fr": (rr.design("forced", p_truth=0.75, p_yes=0.15, p_no=0.1), df.fr),
        "kuk": (rr.design("kuk", p1=0.7, p2=0.3), df.kuk),
        "cw": (rr.design("crosswise", p=0.2), df.cw),
        "z": df.z,
    }, bootstrap=0)
    assert res.names == tuple(REF["one_group"]["names"])
    np.testing.assert_allclose(res.r, _r(REF["one_group"]["r"]), rtol=1e-9, atol=1e-12)


def _two_group(bootstrap=0, rng=None):
    df = pd.read_csv(HERE / "rrcor_data_2.csv")
    return rr.correlation({
        "sld": (rr.design("sld", p1=0.2, p2=0.8), df.sld, df.g_sld),
        "uq": (rr.design("unrelated_unknown", p1=0.3, p2=0.7), df.uq, df.g_uq),
        "warner": (rr.design("warner", p=0.3), df.warner),
        "z": df.z,
    }, bootstrap=bootstrap, rng=rng)


def test_two_group_designs_use_the_right_weights():
    res = _two_group()
    fixed, buggy = _r(REF["two_group"]["fixed"]), _r(REF["two_group"]["rrcor"])
    np.testing.assert_allclose(res.r, fixed, rtol=1e-6, atol=1e-9)
    assert np.isnan(buggy[0, 1]) and np.isfinite(res.r[0, 1])  # RRcor has no value for the two-group pair


def test_two_group_correlation_is_consistent_by_simulation():
    """The corrected estimator recovers a known latent correlation with two-group designs on both sides."""
    rng = np.random.default_rng(5)
    n = 200_000
    a = rng.random(n) < 0.4
    b = np.where(a, rng.random(n) < 0.7, rng.random(n) < 0.2)
    true_r = np.corrcoef(a, b)[0, 1]
    ga, gb = rng.integers(1, 3, n), rng.integers(1, 3, n)
    pa, pb = np.where(ga == 1, 0.2, 0.8), np.where(gb == 1, 0.3, 0.7)
    sld = np.where(a, rng.random(n) < 0.9, rng.random(n) < 1 - pa).astype(int)
    uq = np.where(rng.random(n) < pb, b, rng.random(n) < 0.4).astype(int)
    res = rr.correlation({"sld": (rr.design("sld", p1=0.2, p2=0.8), sld, ga),
                          "uq": (rr.design("unrelated_unknown", p1=0.3, p2=0.7), uq, gb)}, bootstrap=0)
    assert res.r[0, 1] == pytest.approx(true_r, abs=0.03)


def test_bootstrap_is_reproducible_with_a_seed():
    one = _two_group(bootstrap=60, rng=3)
    two = _two_group(bootstrap=60, rng=3)
    np.testing.assert_array_equal(one.se, two.se)
    np.testing.assert_array_equal(one.p_value, two.p_value)
    assert np.all(np.isnan(np.diag(one.se)))
    off = ~np.eye(4, dtype=bool)
    assert np.all(one.se[off] > 0) and np.all((one.p_value[off] >= 0) & (one.p_value[off] <= 1))
    assert one.p_value[2, 3] < 0.05  # warner and z are clearly correlated


def test_refuses_bad_input_in_words():
    with pytest.raises(EstimationError, match="at least two"):
        rr.correlation({"z": [1.0, 2.0]})
    with pytest.raises(EstimationError, match="not 0 or 1"):
        rr.correlation({"w": (rr.design("warner", p=0.3), [0, 2, 1, 0]), "z": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(EstimationError, match="several cards"):
        rr.correlation({"k": (rr.design("kuk", p1=0.7, p2=0.3, draws=3), [0, 1, 2, 3]), "z": [1.0, 2, 3, 4]})


def test_progress_follows_the_bootstrap_without_changing_it_and_can_stop_it():
    """The progress hook sees the resamples (about every 1%) and leaves the seeded draws as they were; an
    exception it raises (a worker's Cancel) stops the bootstrap."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=200)
    variables = {"x": x, "y": x + rng.normal(size=200)}
    seen = []
    with_hook = rr.correlation(variables, bootstrap=300, rng=5, progress=lambda f, t: seen.append((f, t)))
    plain = rr.correlation(variables, bootstrap=300, rng=5)
    assert np.array_equal(with_hook.se, plain.se, equal_nan=True)
    assert len(seen) == 100 and seen[-1] == (1.0, "bootstrap resample 300 of 300")

    class Stop(Exception):
        pass

    def stop(fraction, _text):
        if fraction > 0.1:
            raise Stop

    with pytest.raises(Stop):
        rr.correlation(variables, bootstrap=100_000, rng=5, progress=stop)
