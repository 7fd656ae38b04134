"""Two-group designs refuse groups coded 0/1 (0 means "asked directly", RRreg's convention)."""

import numpy as np
import pytest

from dpdesk.errors import EstimationError
from dpdesk.mechanisms import rr

N = 200


def _data():
    rng = np.random.default_rng(7)
    return rng.integers(0, 2, N), rng.normal(size=N), np.r_[np.zeros(N // 2), np.ones(N // 2)]


@pytest.mark.parametrize("design", [rr.design("sld", p1=0.7, p2=0.3), rr.design("cdm", p1=0.7, p2=0.3),
                                    rr.design("ecwm", p=0.25)], ids=["sld", "cdm", "ecwm"])
def test_zero_one_groups_refused_everywhere(design):
    y, x, g = _data()
    calls = [lambda: rr.logistic(design, y, np.c_[np.ones(N), x], group=g),
             lambda: rr.correlation({"a": (design, y, g), "b": x}),
             lambda: rr.linear(x, np.ones((N, 1)), {"a": (design, y, g)})]
    for call in calls:
        with pytest.raises(EstimationError, match=r"coded 0 and 1; .* groups are 1 and 2 \(0 means asked directly\): "
                                                  r"recode"):
            call()


def test_zero_one_two_groups_still_fit():
    y, x, g = _data()
    g = g + 1
    g[:20] = 0            # legitimate direct answers alongside both randomization groups
    d = rr.design("sld", p1=0.7, p2=0.3)
    fit = rr.logistic(d, y, np.c_[np.ones(N), x], group=g)
    assert fit.n_direct == 20
    assert fit.converged and np.all(np.isfinite(fit.vcov))


def test_one_group_design_keeps_zero_one():
    y, x, g = _data()
    fit = rr.logistic(rr.design("warner", p=0.7), y, np.c_[np.ones(N), x], group=g)
    assert fit.n_direct == N // 2     # one-group design: 0 still means asked directly
    assert fit.converged and np.all(np.isfinite(fit.vcov))
