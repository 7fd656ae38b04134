"""An ECWM version estimated at 0 or 1 has no SE (NaN in rr.estimate's extra, "n/a" or null in output)."""

import math

import numpy as np
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project.analysis.adherence import adherence
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.file.store import Project
from dpdesk.project.report.ecwm import adherence_table
from tests.helpers.ecwm import ecwm_frame, ecwm_project


def test_per_group_se_is_nan_at_the_boundary_only():
    d = rr.design("ecwm", p=0.25)
    e = rr.estimate(d, [np.array([90, 10]), np.array([60, 40])])   # group 1 lies beyond pi = 1
    est1, se1 = e.extra["pi_group1"]
    est2, se2 = e.extra["pi_group2"]
    assert est1 == 1.0 and math.isnan(se1)
    assert 0 < est2 < 1 and se2 == pytest.approx(math.sqrt(est2_var(d, est2, 100)))


def est2_var(d, pi, n):
    """Binomial variance of the 'yes'-share mapped back through version 2's lambda = (1 - p) pi + p (1 - pi)."""
    p = 1 - d.params["p"]
    lam = p * pi + (1 - p) * (1 - pi)
    return lam * (1 - lam) / n / (2 * p - 1) ** 2


def test_results_show_no_nan_for_a_version_at_the_boundary(tmp_path):
    frame = ecwm_frame()
    frame.loc[frame["version"] == 1, "answer"] = "different"   # version 1: every answer the same way
    path = ecwm_project(tmp_path / "b.dpdesk", frame)
    with Project.open(path) as project:
        (res,) = analyze(project)
    a = adherence(res)
    v1 = a.versions[0]
    assert v1.estimate in (0.0, 1.0) and math.isnan(v1.se)
    assert a.rows()[0]["SE"] is None and a.to_dict()["versions"][0]["se"] is None
    assert not math.isnan(a.versions[1].se)
    assert "nan" not in a.versions_sentence().lower()
    from dpdesk.project.number_style import NumberStyle
    table = adherence_table([a], NumberStyle(), a.confidence)
    se_cell = table.rows[1].cells[3]
    assert se_cell.text == "n/a" and se_cell.value is None
