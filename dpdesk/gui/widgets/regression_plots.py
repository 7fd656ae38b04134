"""Plots of a regression: drawn by :mod:`dpdesk.plotting` (shared with the report), named here for the
Regression view.

:func:`draw_odds_ratios` is a forest plot of the odds ratios with their intervals on a log
axis, a line at 1 (no effect); :func:`draw_prevalence_curve` the predicted prevalence
across one predictor with its CI band. Both go in a ``plots.PlotPanel``.
"""

from __future__ import annotations

from dpdesk.plotting import draw_odds_ratios, draw_prevalence_curve

__all__ = ["draw_odds_ratios", "draw_prevalence_curve"]
