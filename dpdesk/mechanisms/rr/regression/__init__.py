"""Regression with randomized-response variables.

- ``logistic``   ``rr.logistic``: an RR outcome on observed covariates (maximum likelihood, one- or
                 two-group designs, optionally weighted)
- ``model``      the model's likelihood, score and information through a design's matrix
- ``inputs``     checks of the outcome, covariates, groups and weights before a fit
- ``inference``  Wald and likelihood-ratio tests, odds ratios and their intervals
- ``weighted``   the design-based (sandwich) variance and Wald F tests of a weighted fit
- ``multilevel`` and ``multilevel_fit``  ``rr.logistic(..., random_intercept=...)``: a random intercept per
                 cluster (RRmixed), Laplace or adaptive Gauss-Hermite, as glmer
- ``linear``     ``rr.linear``: RR items as predictors of a continuous outcome (RRlin)
- ``correlation``  ``rr.correlation``: Fox & Tracy corrected correlations (RRcor), bootstrap SEs
- ``rr_predictors``  RR items as predictors: each respondent's misclassification rows, latent patterns

It uses the core (designs, estimates, :mod:`..linearization`), never the survey room.
"""
