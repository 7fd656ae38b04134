"""Randomized response in weighted, stratified and clustered samples: ``rr.survey_estimate``.

Design-based estimates (the sample design, not a model, carries the inference; Lumley
2004, *JSS* 9(8); Binder 1983, *Int. Stat. Rev.* 51, 279), from each respondent's
recorded response and the sample's weights, strata, PSUs and population sizes. The
estimators and their sources are in ``survey_fit``, the variance in ``survey_variance``.

Which estimator each design uses (``.method`` names it; ``.unconstrained``, ``.se``, ``.deff``
and ``.ci`` are all that estimator's; ``.prevalence`` is it kept within [0, 1], for categories
within the simplex, by maximum likelihood on the weighted shares where the moment estimate
leaves it):

==============================  ==================================  ===================================
design                          without ``population``              with ``population`` N
==============================  ==================================  ===================================
one-group yes/no (Warner,       Hajek mean of ``r_i = (z_i - a) /   Horvitz-Thompson mean
forced, unrelated with known    b``, ``P(yes | state) = a + b       ``sum w_i r_i / N`` of the same
q, crosswise, triangular,       state`` (``svymean(~r)``)           ``r`` (RRTCS; ``svytotal(~r) / N``)
Mangat, Kuk with 1 card,
custom 2 x 2)
designs with categories         Hajek mean of ``P^-1 e_{z_i}`` per  Horvitz-Thompson mean of the same
                                category                            vector
unary (multi-select)            each option as a yes/no design      each option as a yes/no design
Kuk with k > 1 cards            weighted pseudo-ML of the binomial  Horvitz-Thompson mean of the mean
                                mixture (sandwich SE; as            red card ``r_i = (f_i / k - p2) /
                                ``svymle``); ``.unconstrained`` is  (p1 - p2)`` (RRTCS's ``Kuk()``;
                                the estimate itself                 ``fit.kuk_mean_red``)
two-group (SLD, CDM, unrelated  weighted pseudo-ML (sandwich SE);   refused: the pseudo-ML estimating
with unknown prevalence),       ``.unconstrained`` the moment       equation has no Horvitz-Thompson
other one-group designs with    estimate (two-group, saturated) or  form (it uses ``sum w_i``, not N)
more than 2 responses           the estimate itself
extended crosswise (ECWM)       weighted pseudo-ML of one pi over   refused (as two-group designs)
                                both versions (sandwich SE); each
                                version's pi in ``.extra``; the
                                non-adherence test in
                                ``.adherence`` (``survey.ecwm``)
==============================  ==================================  ===================================

Designs with categories give ``.frequencies[category]`` with its own ``.unconstrained``,
``.se``, ``.deff`` and interval; two-group designs give their nuisance in ``.extra`` as
``(estimate, se)``.

* ``.se``: Taylor linearization, PSUs with replacement within strata, with the finite
  population correction when ``fpc`` is given (``svymean``'s SE).
* ``.deff`` (``survey``'s ``deff = "replace"``: against a with-replacement simple random
  sample, so that it does not depend on the weights' scale; ``survey_fit``),
  ``.n_effective = n / deff``, ``.df`` (PSUs -
  strata), ``.df_effective`` (Satterthwaite's degrees of freedom of the variance estimate,
  with the strata's shares of the variance from the weights (``SampleDesign.effective_df``),
  at most ``.df``: fewer when a few strata carry most of the variance).
* ``.ci``: by default today's boundary-calibrated likelihood-ratio interval computed on
  the effective sample size, which Korn & Graubard (1998, *Survey Methodology* 24, 193)
  use for proportions: the weighted response shares taken as counts out of
  ``n_eff (t_{n-1} / t_df)^2``, the factor accounting for few degrees of freedom (as
  ``survey::svyciprop(method = "beta")``, there with the design df; here with
  ``.df_effective``, so that a sample whose variance rests on a few PSUs of one stratum
  gets the wider interval it needs). It keeps the behaviour of the unweighted interval
  near 0 and 1, and equals it when deff = 1 and df = n - 1. ``ci = "t"`` gives
  ``estimate +- t_df se`` (``df_effective``) cut to [0, 1] instead.

With unit weights, no strata and no clusters, every estimate equals ``rr.estimate``'s
and the SE is the unweighted one times ``sqrt(n / (n - 1))`` (at an estimate inside
[0, 1]): linearization estimates the variance with ``n - 1`` where the Fisher
information uses n (as ``svymean`` does against the binomial SE).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.survey import fit
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.estimate import Estimate, check_confidence
from dpdesk.mechanisms.rr.linearization import SampleDesign, _rows, sample_design

SURVEY_CI = {
    "default": "boundary-calibrated likelihood ratio on the effective sample size (Korn & Graubard 1998)",
    "t": "t interval on the design degrees of freedom",
}
@dataclass(frozen=True)
class CategoryEstimate:
    """One category of a design with categories: frequency in [0, 1], the moment estimate, SE, interval."""

    frequency: float
    unconstrained: float
    se: float
    ci: tuple[float, float]
    deff: float
    n_effective: float


@dataclass(frozen=True, eq=False)
class SurveyEstimate:
    """The result of :func:`survey_estimate` (see the module docstring for each attribute).

    Yes/no designs: ``prevalence``, ``unconstrained``, ``se``, ``deff``, ``n_effective`` are
    floats and ``ci`` is ``(low, high)``. Designs with categories: arrays (one per category)
    and ``frequencies`` maps each category to a :class:`CategoryEstimate`.
    """

    design: Design
    prevalence: Any
    unconstrained: Any
    se: Any
    ci: Any
    deff: Any
    n_effective: Any
    df: int
    n: int
    confidence: float
    ci_method: str
    method: str
    sample: SampleDesign = field(repr=False)
    weight_total: float = math.nan
    population: float | None = None
    extra: dict[str, tuple[float, float]] = field(default_factory=dict)
    frequencies: dict[str, CategoryEstimate] | None = None
    influence: np.ndarray | None = field(default=None, repr=False)
    df_effective: Any = math.nan
    warnings: tuple[str, ...] = ()
    adherence: Any = None  # the extended crosswise model's non-adherence test (survey.ecwm.AdherenceTest)

    @property
    def n_strata(self) -> int:
        return self.sample.n_strata

    @property
    def n_psus(self) -> int:
        return self.sample.n_psus

    def describe(self) -> str:
        """The note for results: "Weighted; Taylor linearization with 3 strata and 45 PSUs; design effect 1.8 (effective n 512)"."""
        deff = np.atleast_1d(np.asarray(self.deff, float))
        n_eff = np.atleast_1d(np.asarray(self.n_effective, float))
        text = self.sample.describe()
        if self.sample.is_simple:
            text += "; as a simple random sample"
        if np.all(np.isfinite(deff)):
            if len(deff) == 1:
                text += f"; design effect {deff[0]:.2g} (effective n {n_eff[0]:.0f})"
            else:
                text += f"; design effects {deff.min():.2g} to {deff.max():.2g}"
        if self.population is not None:
            what = "Horvitz-Thompson estimate" if "mean red card" not in self.method else \
                "Horvitz-Thompson estimate of the mean red card"
            text += f"; {what} with population size {self.population:,.0f}"
        elif "pseudo-maximum likelihood" in self.method:
            text += "; " + self.method
        for w in self.warnings:
            text += f"; {w}"
        return text

    def as_estimate(self, counts) -> Estimate:
        """The same numbers as an :class:`rr.Estimate`, for the tables, reports and exports written for it.

        ``counts``: the respondents' unweighted response counts (per group for two-group
        designs, ``[not ticked, ticked]`` per option for unary designs), kept as the sample's counts; ``notes`` carries :meth:`describe`.
        """
        freqs = None if self.frequencies is None else np.array([c.frequency for c in self.frequencies.values()])
        rows = counts if self.design.groups > 1 or self.design.model == "unary" else [counts]
        return Estimate(design=self.design, counts=tuple(np.asarray(c, np.int64) for c in rows),
                        prevalence=self.prevalence, se=self.se, ci=self.ci if freqs is None else np.asarray(self.ci),
                        method=self.method, ci_method=self.ci_method, confidence=self.confidence, n=self.n,
                        extra=dict(self.extra), frequencies=freqs, unconstrained=self.unconstrained,
                        notes=(self.describe(),))

    def to_dict(self) -> dict[str, Any]:
        """JSON-able summary (floats and lists; infinite or missing numbers become None)."""
        def plain(x):
            if isinstance(x, np.ndarray):
                return [plain(v) for v in x.tolist()]
            if isinstance(x, (tuple, list)):
                return [plain(v) for v in x]
            if isinstance(x, (np.floating, np.integer)):
                x = x.item()
            if isinstance(x, float) and not math.isfinite(x):
                return None
            return x

        s = self.sample
        return {
            "design": self.design.to_dict(), "prevalence": plain(self.prevalence),
            "unconstrained": plain(self.unconstrained), "se": plain(self.se), "ci": plain(self.ci),
            "deff": plain(self.deff), "n_effective": plain(self.n_effective), "df": self.df,
            "df_effective": plain(self.df_effective), "n": self.n,
            "confidence": self.confidence, "ci_method": self.ci_method, "method": self.method,
            "weight_total": self.weight_total, "population": self.population,
            "extra": {k: [plain(v[0]), plain(v[1])] for k, v in self.extra.items()},
            "sample_design": {"weighted": s.weighted, "strata": s.n_strata if s.stratified else None,
                              "psus": s.n_psus if s.clustered else None, "lonely_psu": s.lonely_psu,
                              "fpc": bool(np.any(s.fraction > 0))},
            "warnings": list(self.warnings), "notes": [self.describe()],
            **({} if self.adherence is None else {"non_adherence_test": self.adherence.to_dict()}),
        }


def _check_used(used, n: int) -> np.ndarray:
    if used is None:
        return np.ones(n, bool)
    u = np.asarray(used, dtype=bool).ravel()
    if len(u) != n:
        raise EstimationError(f"used has {len(u)} values but there are {n} respondents.")
    if not u.any():
        raise EstimationError("No respondent's answer is used: there is nothing to estimate from.")
    return u


def _check_responses(design: Design, responses, used=None) -> np.ndarray:
    try:
        z = np.asarray(responses, dtype=float)
    except (TypeError, ValueError):
        raise EstimationError(f"responses must be response codes, indices into {list(design.responses)}.") from None
    if len(z) == 0:
        raise EstimationError("There are no respondents to estimate from.")
    used = _check_used(used, len(z))
    if design.model == "unary":
        if z.ndim != 2 or z.shape[1] != len(design.categories):
            raise EstimationError(f"A unary design takes one row per respondent with {len(design.categories)} "
                                  f"ticks (0 or 1); got shape {z.shape}.")
        bad = ~np.isin(z, (0, 1)).all(axis=1) & used
    else:
        z = z.ravel()
        k = len(design.responses)
        bad = (~np.isfinite(z) | (z != np.round(z)) | (z < 0) | (z > k - 1)) & used
    if bad.any():
        raise EstimationError(f"The response is missing or not a code of this design in {_rows(bad)}; codes are "
                              f"{', '.join(f'{c} for {lab!r}' for c, lab in enumerate(design.responses))}. Leave "
                              f"out rows with missing answers.")
    z[~used] = 0
    return z.astype(np.int64)


def _check_groups(design: Design, groups, n: int, used: np.ndarray) -> np.ndarray | None:
    if design.groups == 1:
        if groups is not None and np.any(np.asarray(groups, float)[used] != 1):
            raise EstimationError(f"The {design.name!r} design has one randomization group; leave groups out.")
        return None
    if groups is None:
        raise EstimationError(f"The {design.name!r} design has two randomization groups: give groups (1 or 2 per "
                              f"respondent).")
    try:
        g = np.asarray(groups, dtype=float).ravel()
    except (TypeError, ValueError):
        raise EstimationError("groups must be 1 or 2 for each respondent.") from None
    if len(g) != n:
        raise EstimationError(f"groups has {len(g)} values but there are {n} respondents.")
    bad = ~np.isin(g, (1, 2)) & used
    if bad.any():
        raise EstimationError(f"The group is not 1 or 2 in {_rows(bad)}; each respondent is in randomization "
                              f"group 1 or 2.")
    g[~used] = 1
    return g.astype(np.int64)


#: the weights' sum and a known population size further apart than this (relative) get a warning
POPULATION_TOLERANCE = 0.1


def _check_population(design: Design, population, weights=None) -> float | None:
    """The known population size N, checked: positive, for a linear estimator, and with survey weights.

    The Horvitz-Thompson mean ``sum w_i r_i / N`` is the Hajek mean times ``sum w_i / N``: it
    needs weights that expand the sample to the population (inverse inclusion
    probabilities). Without weights ``sum r_i / N`` estimates nothing, so it is refused.
    """
    if population is None:
        return None
    try:
        N = float(population)
    except (TypeError, ValueError):
        N = math.nan
    if not (math.isfinite(N) and N > 0):
        raise EstimationError(f"population = {population!r} must be the population size, a positive number.")
    if not (design.model in ("prevalence", "categorical", "unary") and len(design.states) <= len(design.responses)
            and (design.model != "prevalence" or design.groups == 1 and (len(design.responses) == 2
                                                                         or design.name == "kuk"))):
        raise EstimationError(f"A known population size (Horvitz-Thompson) applies to designs with a linear "
                              f"estimator; the {design.name!r} design with {len(design.responses)} responses and "
                              f"{design.groups} randomization group{'s' if design.groups > 1 else ''} is estimated "
                              f"by weighted pseudo-maximum likelihood, which uses the weights' sum instead: leave "
                              f"population out.")
    if weights is None:
        raise EstimationError(f"A known population size of {N:,.0f} needs survey weights: the Horvitz-Thompson "
                              f"estimate is the sum of the weighted answers divided by the population size, and "
                              f"without weights that sum covers only the sample, not the population. Give the "
                              f"weights (each respondent's inverse inclusion probability, summing to about the "
                              f"population size), or leave the population size out for the weighted mean.")
    return N


def population_warning(weight_total: float, population: float | None) -> tuple[str, ...]:
    """A note when the weights' sum is more than 10% away from the known population size (else none).

    The Horvitz-Thompson mean is the Hajek mean times ``sum w / N``, so weights that do not
    sum to about N move the estimate by that ratio.
    """
    if population is None or abs(weight_total / population - 1) <= POPULATION_TOLERANCE:
        return ()
    return (f"the weights sum to {weight_total:,.0f}, far from the population size {population:,.0f}: the "
            f"Horvitz-Thompson estimate is the weighted mean times {weight_total / population:.3g}; check that the "
            f"weights are inverse inclusion probabilities or leave the population size out",)


def fit_domain(design: Design, z, g, wd, sample: SampleDesign, population, conf: float, ci: str) -> dict:
    """The estimate's parts for the respondents with ``wd > 0`` (see ``survey_fit``)."""
    if design.name == "ecwm":
        return _fit_ecwm(design, z, g, wd, sample, population, conf, ci)
    if design.model == "prevalence":
        if len(design.responses) == 2:
            return fit.one_group_binary(design, design.matrix, z, wd, sample, population, conf, ci)
        if population is not None:
            return fit.kuk_mean_red(design, z, wd, sample, population, conf, ci)
        return fit.kuk_draws(design, z, wd, sample, population, conf, ci)
    if design.model == "categorical":
        return fit.categorical(design, z, wd, sample, population, conf, ci)
    if design.model == "unary":
        return fit.unary(design, z, wd, sample, population, conf, ci)
    for k in (1, 2):
        if not np.any((g == k) & (wd > 0)):
            raise EstimationError(f"Randomization group {k} has no respondents; the {design.name!r} design needs "
                                  f"both groups.")
    return fit.two_group(design, z, g, wd, sample, population, conf, ci)


def _fit_ecwm(design: Design, z, g, wd, sample: SampleDesign, population, conf: float, ci: str) -> dict:
    from dpdesk.mechanisms.rr.survey import ecwm

    for k in (1, 2):
        if not np.any((g == k) & (wd > 0)):
            raise EstimationError(f"Version {k} of the extended crosswise question has no respondents; the two "
                                  f"versions are compared, so both need answers.")
    return ecwm.fit(design, z, g, wd, sample, population, conf, ci)


def build(design: Design, parts: dict, sample: SampleDesign, wd, population, conf, ci) -> SurveyEstimate:
    """A :class:`SurveyEstimate` from :func:`fit_domain`'s parts."""
    freqs = None
    if "frequencies" in parts:
        freqs = {str(c): CategoryEstimate(float(parts["frequencies"][j]), float(parts["unconstrained"][j]),
                                          float(parts["se"][j]), tuple(float(v) for v in parts["ci"][j]),
                                          float(parts["deff"][j]), float(parts["n_effective"][j]))
                 for j, c in enumerate(design.categories)}
    return SurveyEstimate(
        design=design, prevalence=parts["prevalence"], unconstrained=parts["unconstrained"], se=parts["se"],
        ci=parts["ci"] if freqs else tuple(float(v) for v in parts["ci"]), deff=parts["deff"],
        n_effective=parts["n_effective"], df=sample.df, n=int(np.sum(wd > 0)), confidence=conf,
        ci_method=SURVEY_CI[ci], method=parts["method"], sample=sample, weight_total=float(np.sum(wd)),
        population=population, extra=parts.get("extra", {}), frequencies=freqs, influence=parts["influence"],
        df_effective=parts["df_effective"], adherence=parts.get("adherence"), warnings=population_warning(float(np.sum(sample.weights)), population))


def prepare(design, responses, weights, strata, clusters, fpc, groups, lonely_psu, confidence, ci, used=None):
    """Checked inputs: (responses, groups, SampleDesign, confidence, used)."""
    if not isinstance(design, Design):
        raise EstimationError(f"design must be made by rr.design(...), not {type(design).__name__}.")
    if ci not in SURVEY_CI:
        raise EstimationError(f"ci = {ci!r} is not a known interval; choose 'default' or 't'.")
    conf = check_confidence(confidence)
    z = _check_responses(design, responses, used)
    used = _check_used(used, len(z))
    sample = sample_design(len(z), weights=weights, strata=strata, clusters=clusters, fpc=fpc, lonely_psu=lonely_psu)
    return z, _check_groups(design, groups, len(z), used), sample, conf, used


def survey_estimate(design: Design, responses, *, weights=None, strata=None, clusters=None, fpc=None,
                    groups=None, population=None, confidence: float = 0.95, ci: str = "default",
                    lonely_psu: str = "fail", used=None) -> SurveyEstimate:
    """Design-based estimate of the prevalence (or category frequencies) from each respondent's response.

    ``responses``: each respondent's recorded-response index in ``design.responses``
    (unary designs: one row of 0/1 ticks per respondent). ``weights``: survey weights
    (positive). ``strata``, ``clusters``: labels per respondent; clusters (PSUs) are
    numbered within strata. ``fpc``: the population size of each respondent's stratum
    (``survey``'s ``fpc`` with counts; numbers up to 1 are sampling fractions).
    ``groups``: 1/2 for two-group designs. ``population``: a known population size N for
    the Horvitz-Thompson mean ``sum w_i r_i / N`` (RRTCS) instead of the Hajek mean (Kuk's
    design with several cards: of the mean red card instead of the pseudo-ML; two-group
    designs refuse it: the module docstring's table); it needs
    ``weights`` (an error without them) and warns (a note in ``.warnings`` and a Python
    warning) when the weights sum to more than 10% away from N.
    ``lonely_psu``: "fail", "certainty", "average" or "adjust" (``survey_variance``).
    ``used``: True for the respondents whose answers are used; the others (missing answers)
    keep their PSU in the design, as ``svymean(..., na.rm = TRUE)`` (a domain, never a
    subset). Formulas and sources: the module docstrings of ``survey``, ``survey_fit`` and
    ``survey_variance``.
    """
    z, g, sample, conf, used = prepare(design, responses, weights, strata, clusters, fpc, groups, lonely_psu,
                                       confidence, ci, used)
    N = _check_population(design, population, weights)
    wd = np.where(used, sample.weights, 0.0)
    parts = fit_domain(design, z, g, wd, sample, N, conf, ci)
    est = build(design, parts, sample, wd, N, conf, ci)
    for w in est.warnings:
        warnings.warn(w[0].upper() + w[1:] + ".", UserWarning, stacklevel=2)
    return est
