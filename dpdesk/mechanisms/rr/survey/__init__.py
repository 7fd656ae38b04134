"""Design-based estimation for complex samples (weights, strata, PSUs, a known population size).

- ``estimate``  ``survey_estimate``: one item's prevalence under the design (Horvitz-Thompson/Hájek
                means of a linear transform, or a weighted pseudo-likelihood), with linearization SEs
- ``fit``       the weighted pseudo-maximum-likelihood fits of the designs without a linear estimator
- ``by_group``  ``survey_estimate_by``: domains (subgroups) and their differences, design-based
- ``direct``    ``survey_compare_direct``: randomized against direct answers under one design
- ``independent`` ``survey_compare_independent``: independent samples (waves), each under its own design

It uses the core (designs, estimates, likelihoods, :mod:`..linearization`), never the regression room.
"""
