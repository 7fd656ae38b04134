"""Correlations that involve randomized-response variables (RRreg's RRcor).

Fox & Tracy (1984, Soc Sci Res 13:188-197, as RRcor cites it; Fox & Tracy 1986, *Randomized Response*,
ch. 4) write a yes/no randomized response as a mixture ``z = pt x + (1 - pt) Y``: with probability ``pt``
the true state x, otherwise an irrelevant Bernoulli Y with mean ``y_mu``. For any yes/no design with
``lambda_0 = P(yes | absent)`` and ``lambda_1 = P(yes | present)`` in a group, ``pt = lambda_1 - lambda_0``
and ``y_mu = lambda_0 / (1 - pt)`` (this gives RRcor's ``p.truth`` and ``y.mean`` for every model it
names). Each respondent's unbiased reconstruction is ``x_est = (z - lambda_0) / pt``; the masking noise
``u = x_est - x`` has variance

    var_u = (1 - pt) / pt * (var_x + var_y / pt + (mu_x - y_mu)^2),   var_y = y_mu (1 - y_mu),

with ``mu_x`` the moment estimate of the prevalence and ``var_x = mu_x (1 - mu_x)``, so with
``q = var_u / var_x`` the corrected correlation of items i and k in a subgroup s (one combination of
their randomization groups) is ``r_s = cor(x_est_i, x_est_k) sqrt((1 + q_i) (1 + q_k))``. Subgroups are
pooled with weights ``n_s / ((1 + q_i,s)(1 + q_k,s))``, normalised to sum to 1. RRcor 0.7.5 computes these
weights with the quotient of the last variable instead of item k (``quotient.list[[j]]`` with a stale
``j``), which changes nothing with one group but weights two-group designs wrongly: dpdesk uses item k's.
Directly observed variables enter with ``pt = 1`` (their own values). The nuisance parameter of a two-group
design (SLD's t, the unrelated question's prevalence) is its method-of-moments estimate, not cut to [0, 1],
as RRcor's (``RRuni(..., MLest = FALSE)``; :func:`.rr_predictors.moment_nuisance`). Correlations are cut to [-1, 1].

An RR item whose moment prevalence ``mu`` is not clearly inside (0, 1) (within 2 SEs, ``SE = sd(x_est) /
sqrt(n)``, of 0 or 1) has a true variance ``mu (1 - mu)`` near 0: ``q`` then explodes and the correction
multiplies noise (a pure-noise item gave r = 0.66). Its correlations are not given (nan) and a note says why.

Standard errors: the SD of the correlation over ``bootstrap`` resamples of the respondents (RRcor's
nonparametric ``se.n``; a two-group design's nuisance is re-estimated in each resample, as RRcor's); p-values: twice the share of bootstrap correlations on the far side of 0 (the
level at which the percentile interval reaches 0; Efron & Tibshirani 1993, sec. 16.4).
"""

from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.regression.inputs import refuse_zero_one_groups
from dpdesk.mechanisms.rr.regression.rr_predictors import two_state_matrices


@dataclass(frozen=True)
class Correlations:
    """The result of :func:`correlation`: ``r``, ``se`` and ``p_value`` are k x k (diagonal 1, nan, nan)."""

    names: tuple[str, ...]
    r: np.ndarray
    se: np.ndarray
    p_value: np.ndarray
    n: int
    bootstrap: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Variable:
    name: str
    z: np.ndarray        # the recorded values (responses or the observed variable)
    group: np.ndarray    # 0 = observed directly, else the randomization group
    lam0: dict           # group -> P(yes | absent)
    pt: dict             # group -> P(the answer is the true state)
    rr: bool
    nuisance: bool = False  # a design parameter (SLD's t, the unrelated question's prevalence) was estimated
    design: Design | None = None


def _with_nuisance(design: Design, z, g, rows=None) -> tuple[dict, dict, bool]:
    """``lam0`` and ``pt`` per group (0 = asked directly) on ``rows``, the nuisance estimated on them."""
    zr, gr = (z, g) if rows is None else (z[rows], g[rows])
    counts = [np.bincount(zr[gr == gg].astype(int), minlength=2) for gg in range(1, design.groups + 1)]
    mats, nuisance = two_state_matrices(design, counts, moments=True)
    lam0 = {0: 0.0, **{gg: float(m[1, 0]) for gg, m in enumerate(mats, start=1)}}
    pt = {0: 1.0, **{gg: float(m[1, 1] - m[1, 0]) for gg, m in enumerate(mats, start=1)}}
    return lam0, pt, nuisance is not None


def _resampled(v: _Variable, rows: np.ndarray) -> _Variable | None:
    """A two-group item with its nuisance re-estimated on a bootstrap resample (it is part of the estimator,
    as RRcor's bootstrap re-runs RRuni); None when the resample's answers carry no information."""
    lam0, pt, _ = _with_nuisance(v.design, v.z, v.group, rows)
    if min(abs(p) for p in pt.values()) < 1e-6:
        return None
    return dataclasses.replace(v, lam0=lam0, pt=pt)


def _variable(name: str, spec, n: int | None) -> _Variable:
    if isinstance(spec, (tuple, list)) and spec and isinstance(spec[0], Design):
        if len(spec) not in (2, 3):
            raise EstimationError(f"{name!r} must be (design, responses) or (design, responses, group).")
        design = spec[0]
        if design.name == "kuk" and int(design.params.get("draws", 1)) > 1:
            raise EstimationError(f"{name!r}: Kuk's design with several cards reports a count, not a yes/no "
                                  "answer; correlations need one card.")
        z = np.asarray(spec[1], dtype=float).ravel()
        if n is not None and len(z) != n:
            raise EstimationError(f"{name!r} has {len(z)} values; the other variables have {n}.")
        bad = ~np.isin(z, (0, 1))
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise EstimationError(f"{name!r}: response {z[i]:g} in row {i + 1} is not 0 or 1.")
        G = design.groups
        g = np.ones(len(z), np.int64) if len(spec) == 2 else np.asarray(spec[2], dtype=float).ravel()
        if len(spec) == 2 and G > 1:
            raise EstimationError(f"{name!r} uses the two-group {design.name!r} design: give its group (1 or 2).")
        if len(g) != len(z) or np.any(~np.isin(g, np.arange(G + 1))):
            raise EstimationError(f"{name!r}: group must be 0 (asked directly), 1{' or 2' if G > 1 else ''} for "
                                  "every respondent.")
        g = g.astype(np.int64)
        refuse_zero_one_groups(design, g, f"{name!r}: ")
        lam0, pt, nuisance = _with_nuisance(design, z, g)
        return _Variable(name, z, g, lam0, pt, True, nuisance, design)
    try:
        z = np.asarray(spec, dtype=float).ravel()
    except (TypeError, ValueError):
        raise EstimationError(f"{name!r} must be numbers, or (design, responses) for an RR item.") from None
    if n is not None and len(z) != n:
        raise EstimationError(f"{name!r} has {len(z)} values; the other variables have {n}.")
    if not np.all(np.isfinite(z)):
        i = int(np.flatnonzero(~np.isfinite(z))[0])
        raise EstimationError(f"{name!r}: row {i + 1} is missing or infinite; leave such rows out.")
    return _Variable(name, z, np.zeros(len(z), np.int64), {0: 0.0}, {0: 1.0}, False)


def _parts(v: _Variable, rows: np.ndarray):
    """x_est, and q (masking variance over the true variance) per group, on the rows ``rows``."""
    z, g = v.z[rows], v.group[rows]
    if not v.rr:
        return z, {0: 0.0}
    lam0 = np.array([v.lam0[int(k)] for k in g])
    pt = np.array([v.pt[int(k)] for k in g])
    x_est = (z - lam0) / pt
    mu = float(np.mean(x_est))  # the moment estimate of the prevalence over every group
    var_x = mu * (1 - mu)
    q = {}
    for gg in np.unique(g):
        p, l0 = v.pt[int(gg)], v.lam0[int(gg)]
        y_mu = 0.0 if abs(1 - p) < 1e-15 else l0 / (1 - p)
        var_u = (1 - p) / p * (var_x + y_mu * (1 - y_mu) / p + (mu - y_mu) ** 2)
        q[int(gg)] = var_u / var_x if var_x > 0 else np.inf
    return x_est, q


def _unclear_variance(v: _Variable) -> str | None:
    """Why an RR item's corrected variance is not clearly positive, in words; None when it is."""
    if not v.rr:
        return None
    if min(abs(p) for g, p in v.pt.items() if g) < 1e-6:
        nuisance = " with the nuisance parameter estimated from these answers" if v.nuisance else ""
        return (f"{v.name}: with its design{nuisance}, a 'yes' is as likely from a carrier as from a non-carrier, "
                f"so its answers carry no information about the truth and its correlations are not given. "
                f"Collect more respondents, or leave this item out.")
    x_est, _q = _parts(v, np.arange(len(v.z)))
    mu = float(np.mean(x_est))
    se = float(np.std(x_est, ddof=1) / np.sqrt(len(x_est)))
    if 2 * se < mu < 1 - 2 * se:
        return None
    side = "0" if mu < 0.5 else "1"
    return (f"{v.name}: its estimated prevalence ({mu:.1%}, SE {se:.1%}) is not clearly away from {side}, so the "
            f"variance of its true answers is close to 0 and correcting for the randomization would only amplify "
            f"noise: its correlations are not given. Collect more respondents, or leave this item out (a "
            f"design that protects less, with more truthful answers, also helps).")


def _matrix(variables: list[_Variable], rows: np.ndarray, skip=frozenset(), resample: bool = False) -> np.ndarray:
    """The corrected correlations on ``rows``; nan for the pairs of a variable in ``skip``. For a bootstrap
    ``resample`` the two-group items' nuisance is re-estimated on the resample."""
    k = len(variables)
    if resample:
        variables = [_resampled(v, rows) if v.nuisance and i not in skip else v for i, v in enumerate(variables)]
        skip = set(skip) | {i for i, v in enumerate(variables) if v is None}
    parts = [None if i in skip else _parts(v, rows) for i, v in enumerate(variables)]
    r = np.eye(k)
    for i in range(k):
        for j in range(i + 1, k):
            if i in skip or j in skip:
                r[i, j] = r[j, i] = np.nan
                continue
            (xi, qi), (xj, qj) = parts[i], parts[j]
            gi, gj = variables[i].group[rows], variables[j].group[rows]
            total, wsum = 0.0, 0.0
            for a, b in {(int(s), int(t)) for s, t in zip(gi, gj)}:
                sel = (gi == a) & (gj == b)
                if sel.sum() < 3 or np.std(xi[sel]) == 0 or np.std(xj[sel]) == 0:
                    continue
                factor = (1 + qi[a]) * (1 + qj[b])
                if not np.isfinite(factor):  # a prevalence estimated at 0 or 1: no correction is defined
                    continue
                w = sel.sum() / factor
                total += w * np.corrcoef(xi[sel], xj[sel])[0, 1] * np.sqrt(factor)
                wsum += w
            r[i, j] = r[j, i] = np.clip(total / wsum, -1, 1) if wsum > 0 else np.nan
    return r


def correlation(variables: dict, *, bootstrap: int = 1000, rng=None, progress=None) -> Correlations:
    """Corrected correlations of RR items and observed variables (RRreg::RRcor's point estimates).

    ``variables``: name -> a numeric array (observed directly) or ``(design, responses[, group])`` for a
    yes/no RR item (responses 0/1; group 1 or 2 for two-group designs, 0 for respondents asked directly).
    ``bootstrap``: resamples for the SEs and p-values (0 for none); ``rng``: a seed (a whole number), a numpy
    Generator, SeedSequence, BitGenerator or RandomState, or a ``random.Random`` (default seed 0: reproducible).
    ``progress(fraction, text)``, if given, is called about every 1% of the resamples (an exception it raises,
    such as a worker's cancellation, stops the bootstrap). A variable that does not vary (or an RR item whose
    prevalence is estimated at 0 or 1) has nan correlations and no p-values, and ``notes`` names it. See the
    module docstring for the estimator and its source.
    """
    if not isinstance(variables, dict) or len(variables) < 2:
        raise EstimationError("Give at least two variables: {name: values or (design, responses)}.")
    vs, n = [], None
    for name, spec in variables.items():
        v = _variable(str(name), spec, n)
        n = len(v.z)
        vs.append(v)
    if n < 4:
        raise EstimationError("At least 4 respondents are needed for a correlation.")
    notes = [why for why in map(_unclear_variance, vs) if why]
    skip = {i for i, v in enumerate(vs) if _unclear_variance(v)}
    all_rows = np.arange(n)
    r = _matrix(vs, all_rows, skip)
    k = len(vs)
    se = np.full((k, k), np.nan)
    p = np.full((k, k), np.nan)
    B = _resamples(bootstrap)
    notes = tuple(notes) + tuple(
        f"The correlations of {v.name!r} are not defined: it does not vary (or its estimated prevalence is 0 "
        f"or 1)." for i, v in enumerate(vs) if i not in skip and _degenerate(v, all_rows))
    if B:
        gen = _generator(rng)
        step, draws = max(1, B // 100), []
        for b in range(B):
            draws.append(_matrix(vs, gen.integers(0, n, n), skip, resample=True))
            if progress is not None and (b + 1) % step == 0:
                progress((b + 1) / B, f"bootstrap resample {b + 1:,} of {B:,}")
        boot = np.array(draws)
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a correlation undefined in every resample
            se = np.nanstd(boot, axis=0, ddof=1)
            below = np.nanmean(boot <= 0, axis=0)
            above = np.nanmean(boot >= 0, axis=0)
        p = np.minimum(1.0, 2 * np.minimum(below, above))
        p[np.isnan(r) | np.all(np.isnan(boot), axis=0)] = np.nan  # no test of a correlation that is not defined
        np.fill_diagonal(se, np.nan)
        np.fill_diagonal(p, np.nan)
    return Correlations(tuple(v.name for v in vs), r, se, p, n, B, notes)


def _degenerate(v: _Variable, rows: np.ndarray) -> bool:
    x_est, q = _parts(v, rows)
    return bool(np.std(x_est) == 0 or not all(np.isfinite(list(q.values()))))


def _resamples(bootstrap) -> int:
    if isinstance(bootstrap, (bool, np.bool_)) or not isinstance(bootstrap, (int, np.integer)) or bootstrap < 0:
        raise EstimationError(f"bootstrap must be 0 or a whole number of resamples, for example 1000; got "
                              f"{bootstrap!r}.")
    return int(bootstrap)


def _generator(rng) -> np.random.Generator:
    """``rng``: None (seed 0), a non-negative int seed, a numpy Generator, SeedSequence, BitGenerator or
    RandomState, or a ``random.Random`` (a seed is drawn from it)."""
    import random

    if rng is None:
        return np.random.default_rng(0)
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(128))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            raise EstimationError(f"rng = {rng} is not a seed: give a whole number of at least 0, for example 1.")
        return np.random.default_rng(int(rng))
    if isinstance(rng, (np.random.Generator, np.random.SeedSequence, np.random.BitGenerator)):
        return np.random.default_rng(rng)
    if isinstance(rng, np.random.RandomState):
        return np.random.default_rng(int(rng.randint(0, 2 ** 63 - 1, dtype=np.int64)))
    raise EstimationError(f"rng must be a seed (a whole number, for example 1) or a numpy random Generator; got "
                          f"{rng!r}.")
