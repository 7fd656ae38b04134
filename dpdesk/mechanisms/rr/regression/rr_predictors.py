"""Randomized-response items used as predictors: each respondent's misclassification rows.

For an item with a yes/no sensitive state, respondent i's recorded response r_i has probability
``P_g[r_i, s]`` given their true state s (0 absent, 1 present) and randomization group g; group 0
answered the question directly (``P_0`` the identity). With M items the latent states form
K = 2^M patterns; the probability of i's responses given pattern k is ``prod_m P_m[r_im, s_km]``
(van den Hout & Kooiman 2006, CSDA 50:3311, eq. 3). Shared by :mod:`.linear` and :mod:`.correlation`.

Two-group designs with a nuisance parameter (the stochastic lie detector's t, the unrelated question's
unknown innocuous prevalence) enter with the nuisance fixed at its univariate maximum-likelihood estimate,
as RRreg's RRlin does; the extended crosswise model and the one-group yes/no designs need none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.regression.inputs import refuse_zero_one_groups


@dataclass(frozen=True)
class Predictor:
    """One RR item as a predictor: its name, design, 2-state matrices per group, and rows."""

    name: str
    design: Design
    rows: np.ndarray  # n x 2: P(recorded response of i | state 0), P(... | state 1)
    nuisance: tuple[str, float] | None = None


def moment_nuisance(design: Design, counts) -> float | None:
    """The two-group design's nuisance by the method of moments, not kept in [0, 1] (RRreg's ``RRuni(...,
    MLest = FALSE)``, which RRcor uses): the two groups' "yes" shares solved exactly for (pi, nuisance).
    SLD: ``lambda_g = (1 - pi)(1 - p_g) + pi t``; unrelated question: ``lambda_g = p_g pi + (1 - p_g) pi_u``.
    None where the equations have no solution (pi = 0 for SLD's t, or a group without respondents)."""
    lam = []
    for c in counts:
        c = np.asarray(c, float)
        if c.sum() <= 0:
            return None
        lam.append(c[1] / c.sum())
    p1, p2 = design.params["p1"], design.params["p2"]
    if design.model == "sld":
        pi = 1 - (lam[0] - lam[1]) / (p2 - p1)
        return None if abs(pi) < 1e-12 else float((lam[0] - (1 - pi) * (1 - p1)) / pi)
    # p1 pi + (1 - p1) u = lam1, p2 pi + (1 - p2) u = lam2
    det = p1 * (1 - p2) - p2 * (1 - p1)
    return float((p1 * lam[1] - p2 * lam[0]) / det)


def two_state_matrices(design: Design, counts=None, *, moments: bool = False
                       ) -> tuple[tuple[np.ndarray, ...], tuple[str, float] | None]:
    """The design's matrices over (absent, present), one per group, and the nuisance fixed if any.

    The nuisance is its maximum-likelihood estimate cut to [1e-5, 1 - 1e-5] (as RRlin); with ``moments``
    its method-of-moments estimate, uncut (as RRcor), falling back to the ML where that has no solution."""
    if design.model == "prevalence" and len(design.states) == 2:
        return tuple(np.asarray(m, float) for m in design.matrices), None
    if design.model in ("sld", "unrelated_unknown"):
        from dpdesk.mechanisms.rr.estimate import estimate

        key = "t" if design.model == "sld" else "pi_uq"
        eta = moment_nuisance(design, counts) if moments else None
        if eta is None:
            e = estimate(design, counts, ci="wald")
            eta = min(1 - 1e-5, max(1e-5, float(e.extra[key][0])))
        mats = []
        for m in design.matrices:
            m = np.asarray(m, float)
            if design.model == "sld":  # states (non-carrier, honest carrier, liar)
                yes = np.array([m[1, 0], eta * m[1, 1] + (1 - eta) * m[1, 2]])
            else:  # states (no/no, no/yes, yes/no, yes/yes): innocuous answer yes with prob eta
                yes = np.array([(1 - eta) * m[1, 0] + eta * m[1, 1], (1 - eta) * m[1, 2] + eta * m[1, 3]])
            mats.append(np.vstack([1 - yes, yes]))
        return tuple(mats), (key, eta)
    raise EstimationError(
        f"The {design.name!r} design cannot be used as a predictor: it needs a yes/no sensitive attribute "
        f"(Warner, forced response, unrelated question, crosswise, extended crosswise, triangular, Kuk, Mangat, "
        f"stochastic lie detector). The cheating detection model and designs with several answers are not "
        f"supported as predictors.")


def predictor(name: str, spec, n: int) -> Predictor:
    """Check ``(design, responses[, group])`` for ``n`` respondents and build its rows."""
    if not isinstance(spec, (tuple, list)) or len(spec) not in (2, 3):
        raise EstimationError(f"RR predictor {name!r} must be (design, responses) or (design, responses, group).")
    design, responses = spec[0], spec[1]
    group = spec[2] if len(spec) == 3 else None
    if not isinstance(design, Design):
        raise EstimationError(f"RR predictor {name!r}: the design must be made by rr.design(...).")
    try:
        r = np.asarray(responses, dtype=float).ravel()
    except (TypeError, ValueError):
        raise EstimationError(f"RR predictor {name!r}: responses must be response codes (numbers).") from None
    if len(r) != n:
        raise EstimationError(f"RR predictor {name!r} has {len(r)} responses but there are {n} respondents.")
    k = len(design.responses)
    bad = ~np.isfinite(r) | (r != np.round(r)) | (r < 0) | (r > k - 1)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise EstimationError(f"RR predictor {name!r}: response {r[i]:g} in row {i + 1} is not a code of its "
                              f"design (0 to {k - 1}). Leave out rows with missing answers.")
    r = r.astype(np.int64)
    G = design.groups
    if group is None:
        if G > 1:
            raise EstimationError(f"RR predictor {name!r} uses the two-group {design.name!r} design: give its group "
                                  f"(1 or 2 per respondent, 0 for respondents asked directly).")
        g = np.ones(n, np.int64)
    else:
        try:
            ga = np.asarray(group, dtype=float).ravel()
        except (TypeError, ValueError):
            raise EstimationError(f"RR predictor {name!r}: group must be numbers 0, 1 or 2.") from None
        if len(ga) != n or np.any(~np.isin(ga, np.arange(G + 1))):
            raise EstimationError(f"RR predictor {name!r}: group must give one of 0{', 1' if G >= 1 else ''}"
                                  f"{' or 2' if G == 2 else ''} for each of the {n} respondents.")
        g = ga.astype(np.int64)
        refuse_zero_one_groups(design, g, f"RR predictor {name!r}: ")
    if np.any((g == 0) & (r > 1)):
        raise EstimationError(f"RR predictor {name!r}: respondents asked directly (group 0) must answer 0 or 1.")
    counts = [np.bincount(r[g == gg], minlength=k)[:k] for gg in range(1, G + 1)]
    mats, nuisance = two_state_matrices(design, counts)
    rows = np.empty((n, 2))
    direct = g == 0
    rows[direct, 0] = 1.0 - r[direct]
    rows[direct, 1] = r[direct]
    for gg, m in enumerate(mats, start=1):
        sel = g == gg
        rows[sel] = m[r[sel]]
    return Predictor(str(name), design, rows, nuisance)


def patterns(m: int) -> np.ndarray:
    """The K = 2^M latent patterns as a K x M 0/1 matrix (the first item varies slowest)."""
    k = np.arange(2 ** m)
    return ((k[:, None] >> np.arange(m - 1, -1, -1)) & 1).astype(float)


def pattern_probabilities(preds: list[Predictor]) -> np.ndarray:
    """n x K: P(each respondent's recorded responses | latent pattern k)."""
    S = patterns(len(preds)).astype(int)
    out = np.ones((preds[0].rows.shape[0], len(S)))
    for m, p in enumerate(preds):
        out *= p.rows[:, S[:, m]]
    return out
