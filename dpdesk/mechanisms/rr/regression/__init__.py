"""Regression with randomized-response variables.

- ``logistic``   ``rr.logistic``: an RR outcome on observed covariates (maximum likelihood, one- or
                 two-group designs, optionally weighted)
- ``model``      the model's likelihood, score and information through a design's matrix
- ``inputs``     checks of the outcome, covariates, groups and weights before a fit
- ``inference``  Wald and likelihood-ratio tests, odds ratios and their intervals
- ``weighted``   the design-based (sandwich) variance and Wald F tests of a weighted fit

It uses the core (designs, estimates, :mod:`..linearization`), never the survey room.
"""
