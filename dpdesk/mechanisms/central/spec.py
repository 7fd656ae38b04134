"""A release spec: one noisy statistic, normalised, with its noise and privacy events.

:func:`release_spec` is pure mathematics on public parameters: it normalises a request
(:mod:`.request`), turns its epsilon / accuracy / scale into the mechanism's noise argument
(``epsilon=``, ``scale=`` or, for Gaussian noise priced in epsilon at the budget's delta,
``sigmas``), and finds the privacy events the release will be charged by running the
statistic on *empty* columns with a budget check that stops it, so the cost is known
before any data is read or noise drawn. :meth:`ReleaseSpec.draw` then runs it on the
data's columns; the mechanism hands its events to a check just before drawing the noise
(OpenDP's exact samplers), and a release whose events differ from the planned ones is
refused. The project's ledger calls :func:`release_spec` once and runs the transaction
around it: check the budget, read the columns, draw, record, commit.

Values are matched to declared keys as numbers in a numeric column and as text otherwise;
missing values fall in no cell and are left out of sums, means and medians.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

import numpy as np

from dpdesk.errors import BudgetError
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central import accuracy as acc
from dpdesk.mechanisms.central.request import (
    RequestError,
    canonical_json,
    cells,
    describe,
    median_candidates,
    normalize,
)

__all__ = ["ReleaseSpec", "release_spec", "MAX_GAUSSIAN_SENSITIVITY"]


@dataclass(frozen=True)
class ReleaseSpec:
    """A normalised release request with the noise it will get and the events it will cost.

    ``request`` is the canonical request (``key`` its canonical JSON, which the ledger
    compares to return an earlier release at no cost); ``noise`` the mechanism's noise
    argument; ``events`` the accounting events charged; ``delta`` the budget's delta the
    noise was priced at.
    """

    request: dict
    key: str
    noise: dict
    events: tuple
    delta: Fraction

    @property
    def statistic(self) -> str:
        return self.request["statistic"]

    @property
    def mechanism(self) -> str:
        return self.request["mechanism"]

    @property
    def description(self) -> str:
        return describe(self.request)

    @property
    def gaussian(self) -> bool:
        return any(isinstance(e, accounting.Gaussian) for e in self.events)

    @property
    def cost(self) -> Fraction | float:
        """Its own epsilon at ``delta`` (exact for pure epsilon; infinite for Gaussian noise at delta 0)."""
        if self.gaussian and not self.delta:
            return math.inf
        return accounting.epsilon(list(self.events), self.delta)

    @property
    def half_width(self) -> dict | None:
        return half_widths(self.request, self.events)

    def noise_record(self) -> dict:
        """The noise argument as JSON-able text (exact fractions)."""
        return {k: [str(x) for x in v] if isinstance(v, tuple) else str(v) for k, v in self.noise.items()}

    def draw(self, data: Mapping, typed: Mapping | None = None):
        """The noisy release on ``data`` (arrays by column name, ``"__n__"`` the row count).

        ``typed`` is the request with its keys converted to the columns' types (numbers for
        numeric columns); it must ask for the same statistic. The mechanism's events are
        compared with the planned ones just before the noise is drawn.
        """

        def check(events):
            if tuple(events) != self.events:
                raise BudgetError("The mechanism asked for other privacy events than were checked; refused.")

        return _run(dict(typed or self.request), data, self.noise, check)

    @property
    def contributions(self) -> int:
        """k, the most rows one person contributes (1 unless the request bounds them per identifier)."""
        return int(self.request.get("max_rows", 1)) if self.request.get("identifier") else 1

    def draw_exact(self, aggregates: Mapping, typed: Mapping | None = None):
        """The noisy release from exact aggregates (:mod:`.exact`: a linked dataset's engine counted them).

        Same events, same check before the noise, same OpenDP samplers as :meth:`draw`.
        """
        from dpdesk.mechanisms.central.exact import release_exact

        def check(events):
            if tuple(events) != self.events:
                raise BudgetError("The mechanism asked for other privacy events than were checked; refused.")

        return release_exact(dict(typed or self.request), aggregates, self.noise, check, self.contributions)

    def result_record(self, release) -> dict:
        """The release as the JSON-able result the ledger stores (values, noisy values, half-widths)."""
        spec = self.request
        if spec["statistic"] == "mean":
            scalar = release.keys == ((),)
            out = {"keys": [] if scalar else _jsonable(release.keys)}
            out["values"] = _jsonable(release.estimate[0] if scalar else release.estimate)
            out["sum"], out["count"] = _values(release.sum), _values(release.count)
            out["postprocessing"] = release.adjusted.did
            out["note"] = "mean = noisy sum / max(noisy count, 1), clipped to the bounds"
        else:
            out = _values(release)
            if spec["statistic"] == "sum":
                out["resolution"] = spec["resolution"]
        out["half_width"] = self.half_width
        return out


def release_spec(request: Mapping[str, Any], delta=0) -> ReleaseSpec:
    """Normalise ``request`` and plan its noise and events at the budget's ``delta``.

    Raises :class:`~dpdesk.mechanisms.central.request.RequestError` saying what to fix.
    Reads no data and draws no noise.
    """
    spec = normalize(request)
    d = accounting.as_fraction(delta, "delta")
    noise = noise_for(spec, d)
    return ReleaseSpec(spec, canonical_json(spec), noise, planned_events(spec, noise), d)


def _jsonable(x):
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if hasattr(x, "tolist"):
        return _jsonable(x.tolist())
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if isinstance(x, Fraction):
        return str(x)
    return x


def _values(rel) -> dict:
    scalar = rel.keys == ((),)
    est, noisy = rel.estimate, rel.noisy
    return {"keys": [] if scalar else _jsonable(rel.keys),
            "values": _jsonable(est[0] if scalar else est), "noisy": _jsonable(noisy[0] if scalar else noisy)}


class _Planned(Exception):
    def __init__(self, events):
        super().__init__("planned")
        self.events = tuple(events)


def _unit(spec) -> Fraction:
    return Fraction(spec["resolution"]) if spec["statistic"] in ("sum", "mean") else Fraction(1)


def noise_for(spec: Mapping, delta: Fraction) -> dict:
    """The noise keyword for the mechanism (``epsilon``, ``scale`` or ``rho``)."""
    mech = spec["mechanism"]
    if "scale" in spec:
        return {"scale": Fraction(spec["scale"])}
    if "accuracy" in spec:
        units = math.floor(Fraction(spec["accuracy"]) / _unit(spec))
        conf, m = Fraction(spec["confidence"]), cells(spec)
        if units < 1:
            raise RequestError(f"An accuracy of +-{spec['accuracy']} is below one unit of the "
                               "statistic; no noise can promise it. Ask for a larger accuracy.")
        if mech == "laplace":
            return {"scale": acc.laplace_scale_for_accuracy(units, conf, m)}
        return {"scale": acc.gaussian_sigma_for_accuracy(units, conf, m)}
    eps = Fraction(spec["epsilon"])
    if mech == "laplace":
        return {"epsilon": eps}
    if delta == 0:
        raise RequestError("Gaussian noise has no pure-epsilon guarantee: this budget has no "
                           "delta. Use mechanism 'laplace', or a project budget with a delta.")
    return _sigmas_for(spec, eps, delta)


def _round_up(x: Fraction, digits: int = 5) -> Fraction:
    step = Fraction(10) ** (math.floor(math.log10(x)) - digits + 1)
    return math.ceil(x / step) * step


def _gaussian_noise(spec, rho: Fraction) -> dict:
    """Sigmas for a total rho (a mean splits it in halves), rounded UP to 5 significant digits."""
    d = _grid_sensitivity(spec)
    if spec["statistic"] == "mean":
        k = _contributions(spec)
        return {"sigmas": (_round_up(d / Fraction(math.sqrt(rho))), _round_up(k / Fraction(math.sqrt(rho))))}
    return {"scale": _round_up(d / Fraction(math.sqrt(2 * rho)))}


def _sigmas_for(spec, eps: Fraction, delta: Fraction) -> dict:
    """Gaussian noise costing at most eps at delta, from the zCDP conversion
    eps = rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, prop. 1.3), solved for rho.

    Closed form, so no accountant search: the conversion is a valid but loose bound, and
    the ledger then charges the tighter PLD cost of the sigmas actually used (at most eps).
    A PLD search would give less noise but takes seconds to minutes per request with
    dp_accounting's discrete-Gaussian PLD, so it is left to ``plan``.
    """
    ln = math.log(1 / float(delta))
    rho = Fraction((math.sqrt(ln + float(eps)) - math.sqrt(ln)) ** 2) * Fraction(999, 1000)
    return _gaussian_noise(spec, rho)


def _contributions(spec) -> int:
    return int(spec.get("max_rows", 1)) if spec.get("identifier") else 1


def _grid_sensitivity(spec) -> Fraction:
    """Sensitivity in noise units: 1 for counts, max(|floor(lo/r)|, |ceil(hi/r)|) for sums; times k,
    the most rows one person has, when the request bounds them per identifier."""
    k = _contributions(spec)
    if spec["statistic"] not in ("sum", "mean"):
        return Fraction(k)
    lo, hi = (Fraction(b) for b in spec["bounds"])
    r = Fraction(spec["resolution"])
    return Fraction(max(abs(math.floor(lo / r)), abs(math.ceil(hi / r)))) * k


#: Gaussian noise on more grid units per respondent than this is refused: dp_accounting's
#: discrete-Gaussian PLD grows with the sensitivity (seconds, then gigabytes, near 10^5).
MAX_GAUSSIAN_SENSITIVITY = 10**4


def check_events(events) -> None:
    """Refuse Gaussian events the accountant cannot price in reasonable time and memory."""
    for e in events:
        if isinstance(e, accounting.Gaussian) and e.sensitivity > MAX_GAUSSIAN_SENSITIVITY:
            raise RequestError(
                f"Gaussian noise on a sum with a sensitivity of {e.sensitivity} grid units is more "
                f"than the accountant can price (at most {MAX_GAUSSIAN_SENSITIVITY}). Use a coarser "
                "resolution (bounds / resolution at most 10000) or Laplace noise.")


def _empty(spec) -> dict:
    names = list(spec["columns"]) + ([spec["by"]] if spec.get("by") else [])
    return {name: np.zeros(0, dtype=object) for name in names} | {"__n__": 0}


def planned_events(spec: Mapping, noise: Mapping) -> tuple:
    """The privacy events the request will be charged, from public parameters only."""

    def stop(events):
        raise _Planned(events)

    try:
        if spec.get("identifier"):  # contributions bounded: the exact path, with k times the sensitivities
            from dpdesk.mechanisms.central.exact import empty_aggregates, release_exact

            release_exact(spec, empty_aggregates(spec), noise, stop, _contributions(spec))
        else:
            _run(spec, _empty(spec), noise, stop)
    except _Planned as planned:
        check_events(planned.events)
        return planned.events
    raise AssertionError("the mechanism drew no budget check")  # pragma: no cover



def _run(spec, data, noise, check):
    from dpdesk.mechanisms import central

    stat, cols, mech = spec["statistic"], spec["columns"], spec["mechanism"]
    by = data[spec["by"]] if spec.get("by") else None
    by_keys = spec.get("by_keys")
    kw = dict(noise, mechanism=mech, check=check)
    if stat == "count":
        if by is not None:
            return central.count(None, by=by, by_keys=by_keys, **kw)
        return central.count(int(data["__n__"]), **kw)
    if stat == "histogram":
        k, b = spec["keys"][0], spec["bins"][0]
        return central.histogram(data[cols[0]], keys=k, bins=_floats(b), by=by, by_keys=by_keys, **kw)
    if stat == "crosstab":
        (k1, k2), (b1, b2) = spec["keys"], spec["bins"]
        return central.crosstab(data[cols[0]], data[cols[1]], row_keys=k1, col_keys=k2,
                                row_bins=_floats(b1), col_bins=_floats(b2), **kw)
    x = np.asarray(data[cols[0]], dtype=float)
    if stat == "mean" and "sigmas" in noise:
        return _gaussian_mean(spec, x, by, by_keys, noise["sigmas"], check)
    if stat in ("sum", "mean"):
        lo, hi = (Fraction(v) for v in spec["bounds"])
        fn = central.sum if stat == "sum" else central.mean
        if stat == "mean" and "scale" in kw:
            raise RequestError("A mean is set by its epsilon; give epsilon.")
        return fn(x, lo, hi, Fraction(spec["resolution"]), by=by, by_keys=by_keys, **kw)
    alpha = Fraction(spec.get("alpha", "1/2"))
    cands = _floats(median_candidates(spec))
    return central.quantile(x, cands, alpha, epsilon=noise["epsilon"], by=by, by_keys=by_keys,
                            check=check)


def _gaussian_mean(spec, x, by, by_keys, sigmas, check):
    """A mean with Gaussian noise of the given sigmas: a noisy sum and a noisy count, checked
    together before either is drawn (``central.mean`` sets sigmas from rho, unrounded)."""
    from dpdesk.mechanisms import central
    from dpdesk.mechanisms.central.numeric import MeanRelease
    from dpdesk.mechanisms.central.release import resolve_noise

    lo, hi = (Fraction(v) for v in spec["bounds"])
    r = Fraction(spec["resolution"])
    events = (resolve_noise("gaussian", _grid_sensitivity(spec), scale=sigmas[0])[2],
              resolve_noise("gaussian", Fraction(1), scale=sigmas[1])[2])
    check(events)
    total = central.sum(x, lo, hi, r, scale=sigmas[0], mechanism="gaussian", by=by, by_keys=by_keys)
    if by is None:
        n = central.count(len(x), scale=sigmas[1], mechanism="gaussian")
    else:
        n = central.count(None, by=by, by_keys=by_keys, scale=sigmas[1], mechanism="gaussian")
    out = MeanRelease(total, n, lo, hi)
    if tuple(out.events) != events:  # pragma: no cover - guard
        raise RequestError("The mean's noise differs from what was checked; refused.")
    return out


def _floats(edges):
    return None if edges is None else [float(Fraction(e)) for e in edges]




def half_widths(spec: Mapping, events: tuple) -> dict | None:
    """Noise half-widths at the request's confidence, per cell and for the whole table.

    In the statistic's units (grid units times the resolution for sums); None for a mean
    (a ratio of two releases) and a median (a selection, not additive noise).
    """
    if spec["statistic"] in ("mean", "median", "quantile") or len(events) != 1:
        return None
    event, conf, m, unit = events[0], Fraction(spec["confidence"]), cells(spec), _unit(spec)
    if isinstance(event, accounting.Laplace):
        width = acc.laplace_half_width
        scale = event.scale
    else:
        width = acc.gaussian_half_width
        scale = event.sigma
    return {"confidence": str(conf), "cells": m,
            "per_cell": float(width(scale, conf, 1) * unit),
            "simultaneous": float(width(scale, conf, m) * unit)}
