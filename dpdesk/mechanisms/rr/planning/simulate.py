"""Simulated randomized-response data, drawn as counts without materialising respondents.

A survey of n respondents under design P is simulated in two steps: the number of
respondents in each latent state is ``Multinomial(n, c)`` (``Binomial(n, prevalence)``
carriers for yes/no designs), then the recorded responses of the ``n_s`` respondents in
state s are ``Multinomial(n_s, P[:, s])``. The counts have exactly the distribution of
the per-respondent process, in time independent of n (ten million respondents take
microseconds).

Non-compliance follows RRreg's ``RRgen`` (``complyRates``; Heck & Moshagen 2018): a
share ``1 - comply`` of the carriers (and of the non-carriers) ignore the randomizer and
give the self-protective answer, response index 0 ("no"; for designs with categories
the first category). With compliance ``c1`` (carriers) and ``c0`` (non-carriers) a
yes/no design answers "yes" with ``lambda = pi c1 P(yes|1) + (1 - pi) c0 P(yes|0)``,
so the naive estimate is biased to ``(lambda - A) / B`` (see :func:`expected_counts`).

Simulation is not a release path: it uses numpy's seeded generators on purpose.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.planning.sample_size import _check_design, _check_share, _prevalence_vector, _check_prob, nuisance_values


def _check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise EstimationError(
            f"rng must be a numpy Generator, for example numpy.random.default_rng(1); got {type(rng).__name__}."
        )
    return rng


def _check_count(n: Any) -> int:
    try:
        x = float(n)
    except (TypeError, ValueError):
        x = math.nan
    if not (math.isfinite(x) and x >= 1 and x == round(x)):
        raise EstimationError(f"n = {n!r} must be a whole number of respondents, at least 1.")
    return int(x)


def _comply_pair(comply: Any) -> tuple[float, float]:
    if np.ndim(comply) == 0:
        c = _check_prob(comply, "comply")
        return c, c
    try:
        c1, c0 = comply
    except (TypeError, ValueError):
        raise EstimationError(
            f"comply = {comply!r} must be one compliance rate or a pair (carriers, non-carriers), e.g. (0.8, 1.0)."
        ) from None
    return _check_prob(c1, "comply (carriers)"), _check_prob(c0, "comply (non-carriers)")


def _state_model(d: Design, prevalence: Any, comply: Any, nuisance: dict) -> tuple[np.ndarray, np.ndarray]:
    """Latent-state probabilities and the compliance rate of each state."""
    if d.model in ("categorical",):
        c = _prevalence_vector(d, prevalence)
        nuisance_values(d, 0.0, **nuisance)
        k = len(c)
        if np.ndim(comply) == 0:
            rates = np.full(k, _check_prob(comply, "comply"))
        else:
            rates = np.asarray([_check_prob(x, "comply") for x in np.ravel(comply)])
            if rates.shape != (k,):
                raise EstimationError(f"comply must be one rate or one rate per category ({k}); got {comply!r}.")
        return c / c.sum(), rates
    pi = _check_prob(prevalence, "prevalence")
    v = nuisance_values(d, pi, **nuisance)
    c1, c0 = _comply_pair(comply)
    if d.model == "sld":  # non-carrier, honest carrier, lying carrier
        t = v["t"]
        return np.array([1 - pi, pi * t, pi * (1 - t)]), np.array([c0, c1, c1])
    if d.model == "cdm":  # honest non-carrier, carrier, cheater
        g = v["gamma"]
        return np.array([max(0.0, 1 - pi - g), pi, g]), np.array([c0, c1, c0])
    if d.model == "unrelated_unknown":  # (sensitive, innocuous): no/no, no/yes, yes/no, yes/yes
        q = v["pi_uq"]
        return np.array([(1 - pi) * (1 - q), (1 - pi) * q, pi * (1 - q), pi * q]), np.array([c0, c0, c1, c1])
    return np.array([1 - pi, pi]), np.array([c0, c1])


def _group_sizes(d: Design, n: int, share: Any) -> list[int]:
    if d.groups == 1:
        return [n]
    a, _ = _check_share(share)
    n1 = int(round(n * a))
    return [n1, n - n1]


def _draw_counts(rng, matrix: np.ndarray, n: int, probs: np.ndarray, rates: np.ndarray) -> np.ndarray:
    states = rng.multinomial(n, probs / probs.sum())
    compliers = rng.binomial(states, rates)
    out = np.zeros(matrix.shape[0], dtype=np.int64)
    for s, m in enumerate(compliers):
        if m:
            col = np.clip(matrix[:, s], 0.0, 1.0)
            out += rng.multinomial(m, col / col.sum())
    out[0] += int(states.sum() - compliers.sum())
    return out


def simulate(design: Design, n: Any, prevalence: Any, *, rng: np.random.Generator, comply: Any = 1.0,
             share=(0.5, 0.5), **nuisance: Any) -> Any:
    """Simulated response counts of n respondents, in the shape :func:`rr.estimate` takes.

    One-group designs: a count vector over ``design.responses``. Two-group designs: one
    vector per group, n split by ``share`` (group 1 gets ``round(n * share[0])``), with
    assumed nuisance values (``t``, ``gamma``, ``pi_uq``; see ``planning.NUISANCE_DEFAULTS``).
    Designs with categories: ``prevalence`` is the frequency vector. Unary designs: a
    ``k x 2`` table (not ticked, ticked) with each category ticked truly with
    probability ``prevalence[j]`` independently. ``comply``: the share following the
    instructions, one rate or (carriers, non-carriers) as RRreg's ``complyRates``.
    """
    d = _check_design(design)
    rng = _check_rng(rng)
    nn = _check_count(n)
    if d.model == "unary":
        c = _prevalence_vector(d, prevalence)
        nuisance_values(d, 0.0, **nuisance)
        c1, c0 = _comply_pair(comply)
        return np.array([_draw_counts(rng, d.matrix, nn, np.array([1 - x, x]), np.array([c0, c1])) for x in c])
    probs, rates = _state_model(d, prevalence, comply, nuisance)
    rows = [_draw_counts(rng, m, size, probs, rates) for m, size in zip(d.matrices, _group_sizes(d, nn, share))]
    return rows[0] if d.groups == 1 else rows


def expected_counts(design: Design, n: Any, prevalence: Any, *, comply: Any = 1.0, share=(0.5, 0.5),
                    **nuisance: Any) -> Any:
    """Expected response counts (floats, same shape as :func:`simulate`).

    ``E[n_r] = n_g * sum_s P[r, s] c_s k_s + n_g * 1[r = 0] * sum_s c_s (1 - k_s)`` with
    state probabilities ``c`` and compliance rates ``k``. Feeding these to
    :func:`rr.estimate` gives the large-sample limit of the estimate, e.g. the
    downward bias caused by non-compliance.
    """
    d = _check_design(design)
    nn = float(_check_count(n))

    def one(matrix, size, probs, rates):
        lam = matrix @ (probs * rates)
        lam[0] += float(probs @ (1 - rates))
        return size * lam

    if d.model == "unary":
        c = _prevalence_vector(d, prevalence)
        nuisance_values(d, 0.0, **nuisance)
        c1, c0 = _comply_pair(comply)
        return np.array([one(d.matrix, nn, np.array([1 - x, x]), np.array([c0, c1])) for x in c])
    probs, rates = _state_model(d, prevalence, comply, nuisance)
    rows = [one(m, float(size), probs, rates) for m, size in zip(d.matrices, _group_sizes(d, int(nn), share))]
    return rows[0] if d.groups == 1 else rows


def _draw_responses(rng, matrix: np.ndarray, n: int, probs: np.ndarray, rates: np.ndarray) -> np.ndarray:
    states = rng.choice(len(probs), size=n, p=probs / probs.sum())
    cum = np.cumsum(np.clip(matrix, 0.0, 1.0), axis=0)[:-1]  # (R - 1) x S
    u = rng.random(n)
    resp = np.zeros(n, dtype=np.int64)
    for r in range(cum.shape[0]):  # response = number of cumulative bounds below u
        resp += u >= cum[r, states]
    resp[rng.random(n) >= rates[states]] = 0
    return resp


def simulate_responses(design: Design, n: Any, prevalence: Any, *, rng: np.random.Generator, comply: Any = 1.0,
                       share=(0.5, 0.5), **nuisance: Any) -> Any:
    """Per-respondent recorded responses (indices into ``design.responses``), vectorized.

    The same process as :func:`simulate` one respondent at a time, for examples and tests
    (``np.bincount(r, minlength=len(design.responses))`` gives the counts). One-group
    designs: an int array of length n. Two-group designs: a list of two arrays (one per
    group, sizes as in :func:`simulate`). Unary designs: an ``n x k`` 0/1 array of ticks.
    """
    d = _check_design(design)
    rng = _check_rng(rng)
    nn = _check_count(n)
    if d.model == "unary":
        c = _prevalence_vector(d, prevalence)
        nuisance_values(d, 0.0, **nuisance)
        c1, c0 = _comply_pair(comply)
        truth = rng.random((nn, len(c))) < c
        ticked = rng.random((nn, len(c))) < np.where(truth, d.matrix[1, 1], d.matrix[1, 0])
        ticked &= rng.random((nn, len(c))) < np.where(truth, c1, c0)
        return ticked.astype(np.int64)
    probs, rates = _state_model(d, prevalence, comply, nuisance)
    rows = [_draw_responses(rng, m, size, probs, rates) for m, size in zip(d.matrices, _group_sizes(d, nn, share))]
    return rows[0] if d.groups == 1 else rows
