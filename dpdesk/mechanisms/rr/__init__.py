"""The randomized-response engine: designs as matrices, estimation over counts.

>>> from dpdesk.mechanisms import rr
>>> coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
>>> rr.estimate(coin, [25, 75]).prevalence   # 75% "yes" under the coin design
1.0
"""

from .design import DESIGN_NAMES, Design, design, matrix_epsilon, unary_multiselect_epsilon
from .estimate import CI_METHODS, Estimate, GoodnessOfFit, estimate

__all__ = [
    "CI_METHODS",
    "DESIGN_NAMES",
    "Design",
    "Estimate",
    "GoodnessOfFit",
    "design",
    "estimate",
    "matrix_epsilon",
    "unary_multiselect_epsilon",
]
