"""The extended crosswise model in a complex sample (the ECWM branch of ``rr.survey_estimate``).

Heck, Hoffmann & Moshagen (2018, *Behav Res Methods* 50, 1895) ask the crosswise question in
two random groups with complementary versions of question B (prevalence ``p_1 = p`` and
``p_2 = 1 - p``); a "same" answer in group g has probability
``lambda_g = (1 - p_g) + (2 p_g - 1) pi``.

* The common prevalence pi: the weighted pseudo-maximum likelihood over both groups,
  ``max sum_i w_i log lambda_{g_i}(z_i; pi)`` (the ordinary likelihood of the weighted response
  totals, maximized by ``OneParameter.mle``), with the sandwich variance ``H^-1 V H^-1``:
  ``H = sum_i w_i (2 p_g - 1)^2 [z_i / lambda^2 + (1 - z_i) / (1 - lambda)^2]`` and V the design
  variance of the weighted scores ``w_i (2 p_g - 1) (z_i / lambda - (1 - z_i) / (1 - lambda))``
  (Binder 1983, *Int. Stat. Rev.* 51, 279; as R survey's ``svymle``, ``make_ecwm_svymle.R``).
  The model has one parameter for two groups, so with unit weights the estimate is
  ``rr.estimate``'s but the sandwich SE is not the Fisher one: it does not assume the model.
* Each version's prevalence: ``pi_g = (lambda_g - (1 - p_g)) / (2 p_g - 1)`` from the Hajek mean
  ``lambda_g`` of "same" answers in the domain of group g (weights 0 outside it, all PSUs kept),
  linearized as ``svyby(~same, ~g, svymean, covmat = TRUE)``; the two share PSUs, so they covary.
  ``extra["pi_group<g>"]``: ``(estimate kept in [0, 1], linearized SE)``; the test's ``versions`` add
  each version's interval, that of a crosswise design with ``p_g`` on its domain (``survey.fit``).
* The non-adherence test (:class:`AdherenceTest`): the design-based Wald test of ``pi_1 = pi_2``,
  ``X^2 = (pi_1 - pi_2)^2 / (v_1 + v_2 - 2 c_12)`` with the linearized covariance of the
  unconstrained version estimates, referred to ``F(1, df)`` on the design degrees of freedom
  (PSUs - strata), as ``survey::regTermTest`` does by default (Lumley 2010, *Complex Surveys*,
  5.2; Korn & Graubard 1990, *Am Stat* 44, 270). It replaces the likelihood-ratio test of the
  simple random sample, whose chi-square reference ignores weights and clusters. Since
  ``pi_1 - pi_2 = (lambda_1 + lambda_2 - 1) / (2 p - 1)``, it asks whether the two versions'
  shares of "same" answers add up to 1, as they do when everyone follows the instructions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import fdtrc

from dpdesk.mechanisms.rr.design import Design, ecwm_version
from dpdesk.mechanisms.rr.estimate import one_parameter_interval
from dpdesk.mechanisms.rr.likelihood import OneParameter
from dpdesk.mechanisms.rr.linearization import SampleDesign
from dpdesk.mechanisms.rr.survey.fit import _sandwich, effective, kg_factor, one_group_binary, srs_variance, t_interval


@dataclass(frozen=True)
class AdherenceTest:
    """The design-based non-adherence test of an ECWM item: Wald ``F(1, df)`` of pi_1 = pi_2."""

    f: float
    df_num: int
    df_den: int
    p_value: float
    difference: float
    se: float
    versions: tuple = ()  # per version: (estimate in [0, 1], linearized SE, (CI low, CI high), respondents)

    def to_dict(self) -> dict:
        def plain(x):
            return x if math.isfinite(x) else None

        return {"statistic": "F", "f": plain(self.f), "df_num": self.df_num, "df_den": self.df_den,
                "p_value": plain(self.p_value), "difference": plain(self.difference), "se": plain(self.se),
                "versions": [{"version": k, "estimate": plain(e), "se": plain(se), "ci": [plain(lo), plain(hi)], "n": n}
                             for k, (e, se, (lo, hi), n) in enumerate(self.versions, start=1)],
                "method": "design-based Wald test of equal prevalence in the two versions"}


def _versions(d: Design, z, g, wd, sample: SampleDesign, conf: float, ci: str):
    """Each version as a one-group crosswise design on its domain (``survey.fit.one_group_binary``).

    Returns (the two versions' parts, the 2 x 2 linearized covariance of their unconstrained estimates).
    """
    parts = []
    for k in (1, 2):
        version = ecwm_version(d, k)
        parts.append(one_group_binary(version, version.matrix, z, np.where(g == k, wd, 0.0), sample, None, conf, ci))
    return parts, sample.variance(np.column_stack([p["influence"][:, 0] for p in parts]))


def fit(d: Design, z, g, wd, sample: SampleDesign, population, conf: float, ci: str) -> dict:
    """The estimate's parts (as ``survey.fit.two_group``), with ``adherence`` the Wald test."""
    model = OneParameter.from_matrices(d.matrices)
    n = int((wd > 0).sum())
    wn = wd * (n / float(wd.sum()))  # the weighted totals on the sample's scale: tolerances free of the weights' scale
    counts = [np.bincount(z[g == k], weights=wn[g == k], minlength=2) for k in (1, 2)]
    pi, _ = model.mle(counts)
    interior = 0.0 < pi < 1.0
    gi = g - 1
    a = np.array([float(model.A[k][1]) for k in (0, 1)])[gi]  # P("same" | absent) per respondent
    b = np.array([float(model.B[k][1]) for k in (0, 1)])[gi]
    lam = a + b * pi
    with np.errstate(divide="ignore", invalid="ignore"):
        resid = np.where(z == 1, 1 / lam, -1 / (1 - lam))
        curv = np.where(z == 1, 1 / lam ** 2, 1 / (1 - lam) ** 2)
    S = (b * resid)[:, None]
    live = wd > 0
    Hmat = np.array([[float(np.sum((wd * b ** 2 * curv)[live]))]])
    if not (np.all(np.isfinite(S[live])) and np.all(np.isfinite(Hmat))):
        cov, u, e = np.full((1, 1), math.nan), np.zeros((len(z), 1)), np.zeros((len(z), 1))
    else:
        S[~live] = 0.0
        cov, u, e = _sandwich(S, Hmat, wd, sample)
    deff, n_eff = effective(np.diag(cov), srs_variance(e, wd), n)
    se = math.sqrt(cov[0, 0]) if cov[0, 0] >= 0 else math.nan
    df = sample.effective_df(wd)
    if ci == "t":
        interval = t_interval(pi, se, df, conf)
    else:
        scale = float(n_eff[0]) * kg_factor(n, df, conf) / n
        interval = one_parameter_interval(model, [c * scale for c in counts], pi, conf)
    versions, vcov = _versions(d, z, g, wd, sample, conf, ci)
    extra = {f"pi_group{k}": (float(v["prevalence"]), float(v["se"])) for k, v in enumerate(versions, start=1)}
    diff = float(versions[0]["unconstrained"] - versions[1]["unconstrained"])
    var = float(vcov[0, 0] + vcov[1, 1] - 2 * vcov[0, 1])
    f = diff ** 2 / var if var > 0 else (0.0 if diff == 0 else math.inf)
    test = AdherenceTest(f, 1, int(sample.df), float(fdtrc(1, max(sample.df, 1), f)) if math.isfinite(f) else 0.0,
                         diff, math.sqrt(max(var, 0.0)),
                         tuple((float(v["prevalence"]), float(v["se"]), tuple(float(x) for x in v["ci"]),
                                int((np.where(g == k, wd, 0.0) > 0).sum()))
                               for k, v in enumerate(versions, start=1)))
    return dict(prevalence=float(pi), unconstrained=float(pi), se=se, ci=interval, deff=float(deff[0]),
                n_effective=float(n_eff[0]), influence=u, extra=extra, df_effective=df, adherence=test,
                method="weighted pseudo-maximum likelihood over both versions (sandwich standard errors)"
                if interior else "weighted pseudo-maximum likelihood over both versions, on the boundary of the "
                                 "parameter space")
