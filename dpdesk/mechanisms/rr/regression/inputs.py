"""Checking the inputs of ``rr.logistic`` and building the per-respondent likelihood terms.

Responses are indices into ``design.responses`` (0 = "no", 1 = "yes" for yes/no designs);
``group`` is 0 (asked directly), 1 or 2 (the design's randomization groups), as in RRreg's
``RRlog``. Every problem is an :class:`~dpdesk.errors.EstimationError` that names the row
and says what to change.
"""

from __future__ import annotations

import math

import numpy as np

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.regression import model as lm
from dpdesk.mechanisms.rr.design import Design


def refuse_zero_one_groups(design, g, who: str = "") -> None:
    """Refuse a two-group design whose groups are only 0 and 1: 0 means "asked directly".

    RRreg's convention (group 0 = answered directly, taken at face value) would otherwise take
    a 0/1-coded two-group sample's first group as direct answers, silently.
    """
    if design.groups == 2 and np.any(g == 0) and np.any(g == 1) and not np.any(g == 2):
        raise EstimationError(
            f"{who}{'the' if who else 'The'} groups are coded 0 and 1; the {design.name!r} design's groups are 1 and 2 (0 means asked "
            f"directly): recode the groups as 1 and 2 (add 1), keeping 0 only for respondents asked directly.")


def prepare(design, responses, X, group, names, offset, p_expected=None):
    """Validate the inputs and build the per-respondent likelihood coefficients."""
    if not isinstance(design, Design):
        raise EstimationError(f"design must be made by rr.design(...), not {type(design).__name__}.")
    if design.model not in ("prevalence", "sld", "cdm", "unrelated_unknown") or (
            design.model == "prevalence" and len(design.states) != 2):
        raise EstimationError(
            f"Logistic regression needs a design with a yes/no sensitive attribute; {design.name!r} has "
            f"{len(design.states)} states. Use a yes/no design (Warner, forced response, SLD, ...).")
    try:
        Xa = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise EstimationError("X must be a numeric table (respondents x predictors).") from None
    if Xa.ndim == 1:
        Xa = Xa[:, None]
    if Xa.ndim != 2 or Xa.shape[1] == 0:
        raise EstimationError(f"X must be a table of respondents x predictors; its shape is {Xa.shape}.")
    n, p = Xa.shape
    if p_expected is not None and p != p_expected:
        raise EstimationError(f"X needs {p_expected} columns, one per coefficient; it has {p}.")
    try:
        r = np.asarray(responses, dtype=float).ravel()
    except (TypeError, ValueError):
        raise EstimationError("responses must be response codes: 0 for 'no', 1 for 'yes' "
                              f"(indices into {list(design.responses)}).") from None
    if len(r) != n:
        raise EstimationError(f"responses has {len(r)} values but X has {n} rows; give one response per row.")
    if n == 0:
        raise EstimationError("There are no respondents to fit.")
    k = len(design.responses)
    bad = ~np.isfinite(r) | (r != np.round(r)) | (r < 0) | (r > k - 1)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise EstimationError(
            f"Response {r[i]:g} in row {i + 1} is not a code of this design: use "
            f"{', '.join(f'{c} for {lab!r}' for c, lab in enumerate(design.responses))}. Leave out rows with "
            f"missing answers.")
    r = r.astype(np.int64)
    G = design.groups
    if group is None:
        if G > 1:
            raise EstimationError(
                f"The {design.name!r} design has two randomization groups: give group (1 or 2 per respondent, "
                f"0 for respondents asked directly).")
        g = np.ones(n, np.int64)
    else:
        try:
            ga = np.asarray(group, dtype=float).ravel()
        except (TypeError, ValueError):
            raise EstimationError("group must be numbers: 0 (asked directly), 1 or 2.") from None
        if len(ga) != n:
            raise EstimationError(f"group has {len(ga)} values but there are {n} respondents.")
        badg = ~np.isin(ga, np.arange(G + 1))
        if np.any(badg):
            i = int(np.flatnonzero(badg)[0])
            allowed = "0 or 1" if G == 1 else "0, 1 or 2"
            raise EstimationError(f"Group {ga[i]:g} in row {i + 1} is not valid for this design; use {allowed} "
                                  f"(0 = asked directly).")
        g = ga.astype(np.int64)
        refuse_zero_one_groups(design, g)
    if np.any((g == 0) & (r > 1)):
        i = int(np.flatnonzero((g == 0) & (r > 1))[0])
        raise EstimationError(f"Row {i + 1} was asked directly (group 0) but has response code {r[i]}; direct "
                              f"answers must be 0 (no) or 1 (yes).")
    nuisance = design.model in lm.NUISANCE
    if nuisance and any(np.sum(g == gg) == 0 for gg in range(1, G + 1)) and np.any(g > 0):
        raise EstimationError(
            f"The {design.name!r} design needs respondents in both randomization groups to estimate its "
            f"nuisance parameter; group {'1' if np.sum(g == 1) == 0 else '2'} is empty.")
    off = np.zeros(n) if offset is None else np.asarray(offset, float).ravel()
    if off.shape != (n,) or not np.all(np.isfinite(off)):
        raise EstimationError(f"offset must have one finite number per respondent ({n}).")
    A0, A1, B0, B1 = lm.coefficients(design, r, g)
    data = lm.Data(Xa, off, A0, A1, B0, B1, has_eta=nuisance and bool(np.any(g > 0)))
    if names is None:
        names = ["(Intercept)" if np.all(Xa[:, j] == 1) else f"x{j + 1}" for j in range(p)]
    names = [str(s) for s in names]
    if len(names) != p or len(set(names)) != p:
        raise EstimationError(f"names must give {p} different names, one per column of X; got {names}.")
    return data, names, r, g


def eta_start(design: Design, r: np.ndarray, g: np.ndarray) -> float:
    """The nuisance estimated without covariates (``rr.estimate``), kept inside (0.02, 0.98)."""
    if design.model not in lm.NUISANCE:  # one-group designs and the extended crosswise model: no nuisance
        return 0.0
    from dpdesk.mechanisms.rr.estimate import estimate

    counts = [np.bincount(r[g == gg], minlength=2)[:2] for gg in (1, 2)]
    try:
        e = estimate(design, counts, ci="wald")
        value = {"sld": lambda: e.extra["t"][0], "cdm": lambda: e.extra["gamma"][0],
                 "unrelated_unknown": lambda: e.extra["pi_uq"][0]}[design.model]()
    except Exception:  # noqa: BLE001 - any failure just means a neutral start
        value = 0.5
    return 0.5 if not math.isfinite(value) else min(0.98, max(0.02, value))
