"""The randomized-response engine: designs as matrices, estimation over counts.

>>> from dpdesk.mechanisms import rr
>>> coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
>>> rr.estimate(coin, [25, 75]).prevalence   # 75% "yes" under the coin design
1.0
"""

from dpdesk.mechanisms.rr.design import DESIGN_NAMES, Design, design, matrix_epsilon, unary_multiselect_epsilon
from dpdesk.mechanisms.rr.estimate import CI_METHODS, Estimate, GoodnessOfFit, estimate
from dpdesk.mechanisms.rr import randomizers
from dpdesk.mechanisms.rr.logistic import LogisticFit, logistic
from dpdesk.mechanisms.rr.planning import efficiency, expected_halfwidth, power, required_n, required_n_for_power
from dpdesk.mechanisms.rr.simulate import expected_counts, simulate, simulate_responses
from dpdesk.mechanisms.rr.subgroups import compare, compare_direct, estimate_by
from dpdesk.mechanisms.rr.survey import SurveyEstimate, survey_estimate
from dpdesk.mechanisms.rr.survey_by import survey_estimate_by

__all__ = [
    "CI_METHODS",
    "DESIGN_NAMES",
    "Design",
    "Estimate",
    "LogisticFit",
    "GoodnessOfFit",
    "compare",
    "compare_direct",
    "design",
    "efficiency",
    "estimate",
    "estimate_by",
    "expected_counts",
    "expected_halfwidth",
    "logistic",
    "matrix_epsilon",
    "power",
    "randomizers",
    "required_n",
    "required_n_for_power",
    "simulate",
    "simulate_responses",
    "survey_estimate",
    "survey_estimate_by",
    "SurveyEstimate",
    "unary_multiselect_epsilon",
]
