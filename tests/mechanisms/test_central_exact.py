"""Releases from exact aggregates (a linked dataset's engine counted): the same events and exact values as
the same release computed on arrays, and k times the sensitivity when contributions are bounded."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.exact import aggregate_arrays, empty_aggregates, rank_scores, release_exact
from dpdesk.mechanisms.central.quantiles import quantile_scores
from dpdesk.mechanisms.central.spec import release_spec

RNG = np.random.default_rng(31)  # test data only; the noise is OpenDP's
N = 500
REGION = np.array(RNG.choice(["north", "south", "east", None, "elsewhere"], N), dtype=object)
AGE = RNG.integers(15, 95, N).astype(float)
AGE[::37] = np.nan
INCOME = RNG.normal(40, 30, N)
INCOME[::41] = np.nan
INCOME[5] = np.inf

REQUESTS = [
    {"statistic": "count", "epsilon": 1},
    {"statistic": "count", "by": "region", "by_keys": ["north", "south"], "epsilon": 1},
    {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south", "east"], "epsilon": 1},
    {"statistic": "histogram", "columns": ["age"], "bins": [18, 30, 50, 90], "by": "region",
     "by_keys": ["north", "east"], "epsilon": 1},
    {"statistic": "crosstab", "columns": ["region", "age"], "keys": [["north", "south"], None],
     "bins": [None, [0, 40, 95]], "accuracy": 20},
    {"statistic": "sum", "columns": ["income"], "bounds": [0, 100], "epsilon": 1},
    {"statistic": "mean", "columns": ["income"], "bounds": [-10, 100], "by": "region", "by_keys": ["north", "south"],
     "epsilon": 1},
    {"statistic": "median", "columns": ["age"], "bounds": [0, 100], "epsilon": 1},
    {"statistic": "quantile", "columns": ["income"], "bins": [0, 20, 40, 60, 80, 100], "alpha": 0.25, "epsilon": 1},
]


def _data(spec):
    """The arrays ``ReleaseSpec.draw`` gets for ``spec`` (as ledger.columns makes them: finite values only)."""
    data = {"__n__": N, "region": REGION, "age": AGE, "income": INCOME}
    if spec["statistic"] in ("sum", "mean", "median", "quantile"):
        x = data[spec["columns"][0]]
        keep = np.isfinite(x)
        data = dict(data, **{spec["columns"][0]: x[keep]})
        if spec.get("by"):
            data[spec["by"]] = data[spec["by"]][keep]
    return data


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["statistic"] + ("-by" if r.get("by") else ""))
def test_the_same_events_and_exact_values_as_on_arrays(request_):
    spec = release_spec(request_)
    data = _data(spec.request)
    agg = aggregate_arrays(spec.request, data)
    seen = {}

    def keep(events):
        seen["events"] = tuple(events)

    exact = release_exact(spec.request, agg, spec.noise, keep)
    assert seen["events"] == spec.events  # what the ledger checked is what the mechanism charges
    on_arrays = spec.draw(data)
    assert exact.keys == on_arrays.keys
    assert tuple(exact.events) == tuple(on_arrays.events)
    # the exact aggregates equal the arrays' own (the noise differs, draw by draw)
    if spec.statistic in ("count", "histogram", "crosstab"):
        from dpdesk.mechanisms.central.tabulate import codes

        if spec.statistic == "count" and not spec.request.get("by"):
            assert int(agg["cells"][0]) == N
        elif spec.statistic == "histogram" and not spec.request.get("by"):
            c = codes(REGION, ["north", "south", "east"])
            assert agg["cells"].tolist() == np.bincount(c[c >= 0], minlength=3).tolist()
    if spec.statistic in ("median", "quantile"):
        x = data[spec.request["columns"][0]]
        from dpdesk.mechanisms.central.request import median_candidates

        cands = [float(c) for c in median_candidates(spec.request)]
        alpha = Fraction(spec.request.get("alpha", "1/2"))
        assert rank_scores(agg["ranks"], alpha)[0].tolist() == quantile_scores(x, cands, alpha).tolist()


def test_bounded_contributions_scale_the_sensitivity_by_k():
    one = release_spec({"statistic": "histogram", "columns": ["region"], "keys": ["north"], "epsilon": 1})
    k3 = release_spec({"statistic": "histogram", "columns": ["region"], "keys": ["north"], "epsilon": 1,
                       "identifier": "person", "max_rows": 3})
    assert one.events[0].sensitivity == 1 and k3.events[0].sensitivity == 3
    assert k3.events[0].scale == 3 * one.events[0].scale  # the same epsilon protects a whole person
    assert accounting.epsilon(list(k3.events)) == 1
    mean = release_spec({"statistic": "mean", "columns": ["x"], "bounds": [0, 10], "resolution": 1, "epsilon": 1,
                         "identifier": "person", "max_rows": 2})
    assert [e.sensitivity for e in mean.events] == [20, 2]
    med = release_spec({"statistic": "median", "columns": ["x"], "bounds": [0, 10], "epsilon": 1,
                        "identifier": "person", "max_rows": 4})
    assert accounting.epsilon(list(med.events)) == 1
    released = med.draw_exact(empty_aggregates(med.request))
    assert released.sensitivity == 4 and released.scale == 8  # 2 k D / epsilon


def test_gaussian_with_contributions_prices_k():
    spec = release_spec({"statistic": "count", "mechanism": "gaussian", "epsilon": 1, "identifier": "p",
                         "max_rows": 5}, Fraction(1, 10**6))
    plain = release_spec({"statistic": "count", "mechanism": "gaussian", "epsilon": 1}, Fraction(1, 10**6))
    assert spec.events[0].sensitivity == 5
    assert spec.events[0].sigma == pytest.approx(5 * float(plain.events[0].sigma), rel=1e-4)
    assert accounting.epsilon(list(spec.events), Fraction(1, 10**6)) <= 1


def test_max_rows_needs_an_identifier_and_a_whole_number():
    from dpdesk.mechanisms.central.request import RequestError

    with pytest.raises(RequestError, match="needs identifier"):
        release_spec({"statistic": "count", "epsilon": 1, "max_rows": 2})
    with pytest.raises(RequestError, match="whole number"):
        release_spec({"statistic": "count", "epsilon": 1, "identifier": "p", "max_rows": 1.5})
    spec = release_spec({"statistic": "count", "epsilon": 1, "identifier": "p"})
    assert spec.request["max_rows"] == 1 and "at most 1 row per p" in spec.description
