"""The randomized-response engine: designs as matrices, estimation over counts.

>>> from dpdesk.mechanisms import rr
>>> coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
>>> rr.estimate(coin, [25, 75]).prevalence   # 75% "yes" under the coin design
1.0
"""

from .design import DESIGN_NAMES, Design, design, matrix_epsilon, unary_multiselect_epsilon
from .estimate import CI_METHODS, Estimate, GoodnessOfFit, estimate
from . import randomizers
from .logistic import LogisticFit, logistic
from .planning import efficiency, expected_halfwidth, power, required_n, required_n_for_power
from .simulate import expected_counts, simulate, simulate_responses
from .subgroups import compare, compare_direct, estimate_by

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
    "unary_multiselect_epsilon",
]
