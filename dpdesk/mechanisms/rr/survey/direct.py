"""Randomized response against a direct question in one complex sample: ``rr.survey_compare_direct``.

The RR estimate and the share answering "yes" when asked directly are two estimates from
the same sample design: the RR estimate (the Hajek mean of the transformed response
``r_i``, or its pseudo-ML counterpart) over the respondents who answered the RR question,
and the Hajek mean ``d_bar = sum w_i d_i / sum w_i`` over those who answered directly
(``d_i`` = 1 for "yes"; a domain of the design, never a subset: Lumley 2010, *Complex
Surveys*, 2.3). Their difference is linearized jointly (Binder 1983, *Int. Stat. Rev.* 51,
279): with influence contributions ``u_i`` of the RR estimate and
``v_i = w_i (d_i - d_bar) / sum w`` of the direct share,

    Var(RR - direct) = V_uu + V_vv - 2 V_uv,

the covariance of the PSU totals of ``u`` and ``v`` within strata (``SampleDesign.variance``),
as ``svycontrast(svymean(~r + d, design), c(1, -1))`` when every respondent answered both,
and ``svyby(~y, ~arm, design, svymean, covmat = TRUE)`` with a contrast in a split-ballot
sample (each respondent answered one). Respondents sharing a PSU make the two correlated
even when no one answered both.

The direct share's interval is Wilson's (1927) on its effective sample size ``n / deff``
with Korn & Graubard's (1998) degrees-of-freedom factor (the t interval on those degrees of freedom
when the RR estimate has one); with unit weights and no strata or clusters it is the
Wilson interval of ``rr.compare_direct``. The difference's interval is MOVER from the two
intervals with their correlation (Zou & Donner 2008, *Stat. Med.* 27, 1693); the p-value
is one-sided for RR > direct (the "more is better" reading; Lensvelt-Mulders et al. 2005),
a t test on the design degrees of freedom (PSUs - strata).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import stdtr

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr import intervals as iv
from dpdesk.mechanisms.rr.survey import fit
from dpdesk.mechanisms.rr.subgroups import DirectComparison
from dpdesk.mechanisms.rr.survey.estimate import SURVEY_CI, SurveyEstimate, _check_used
from dpdesk.mechanisms.rr.linearization import _rows


def _direct_answers(direct, n: int, used) -> tuple[np.ndarray, np.ndarray]:
    try:
        d = np.asarray(direct, dtype=float).ravel()
    except (TypeError, ValueError):
        raise EstimationError("direct must be 0 (no) or 1 (yes) for each respondent, or missing.") from None
    if len(d) != n:
        raise EstimationError(f"direct has {len(d)} values but the estimate's sample has {n} respondents; give "
                              f"one direct answer (or a blank) per respondent of the same sample.")
    used = _check_used(np.isfinite(d) if used is None else used, n)
    bad = used & ~np.isin(d, (0, 1))
    if bad.any():
        raise EstimationError(f"The direct answer is not 0 (no) or 1 (yes) in {_rows(bad)}; leave out rows "
                              f"without a direct answer.")
    return np.where(used, d, 0.0), used


def survey_compare_direct(estimate: SurveyEstimate, direct, *, used=None) -> DirectComparison:
    """Compare a design-based RR estimate with the direct answers of the same sample (module docstring).

    ``estimate``: a yes/no result of :func:`rr.survey_estimate`. ``direct``: each respondent's
    direct answer, 1 (yes), 0 (no) or missing (NaN: not asked directly), in the rows of
    the estimate's sample. ``used``: which direct answers count (default: those not
    missing). The confidence level and interval kind are the estimate's; ``.z`` is the t
    statistic of the difference.
    """
    if not isinstance(estimate, SurveyEstimate) or estimate.frequencies is not None or estimate.influence is None:
        raise EstimationError("survey_compare_direct takes a yes/no result of rr.survey_estimate (one prevalence).")
    sample = estimate.sample
    d, used = _direct_answers(direct, sample.n, used)
    wd = np.where(used, sample.weights, 0.0)
    mean, _, _, n_eff, v = fit.linear(d[:, None], wd, sample, None)
    p, n = float(mean[0]), int(used.sum())
    u = estimate.influence[:, :1]
    V = sample.variance(np.column_stack([u, v]))
    conf = estimate.confidence
    if estimate.ci_method == SURVEY_CI["t"]:
        p_ci = fit.t_interval(p, math.sqrt(max(V[1, 1], 0.0)), sample.effective_df(wd), conf)
    else:
        size = float(n_eff[0]) * fit.kg_factor(n, sample.effective_df(wd), conf)
        p_ci = iv.wilson(p * size, size, conf)
    rr_value = float(estimate.prevalence)
    diff = rr_value - p
    se = math.sqrt(max(V[0, 0] + V[1, 1] - 2 * V[0, 1], 0.0))
    r = V[0, 1] / math.sqrt(V[0, 0] * V[1, 1]) if V[0, 0] > 0 and V[1, 1] > 0 else 0.0
    t = diff / se if se > 0 else (0.0 if diff == 0 else math.copysign(math.inf, diff))
    p_value = float(stdtr(max(sample.df, 1), -t)) if math.isfinite(t) else (0.0 if t > 0 else 1.0)
    ci = iv.mover_difference(rr_value, tuple(estimate.ci), p, p_ci, r)
    return DirectComparison(rr_value, tuple(estimate.ci), p, p_ci, diff, se, ci, t, p_value, conf)
