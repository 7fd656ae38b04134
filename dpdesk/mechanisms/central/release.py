"""The result of a central-DP release and the shared steps every statistic takes.

Every statistic follows the same order, so a ledger can refuse a release before any noise
is drawn: (1) check and aggregate the input to exact integers, (2) work out the privacy
events from public parameters only, (3) call ``check(events)`` (a ledger's budget check;
it raises to refuse), (4) draw the noise in one OpenDP call, (5) return a :class:`Release`.

Neighbouring relation everywhere: add or remove one row (one respondent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from dpdesk.mechanisms.accounting import Gaussian, Laplace
from dpdesk.mechanisms.central import accuracy
from dpdesk.mechanisms.central.noise import (NoiseParameterError, as_fraction,
                                             gaussian_counts, laplace_counts)

__all__ = ["Release", "resolve_noise", "noisy_release"]


@dataclass(frozen=True)
class Release:
    """One noisy release.

    ``noisy`` holds the noisy integers in noise units (counts, or grid units of width
    ``resolution`` for sums); ``estimate`` is ``noisy * resolution`` as floats (for a
    quantile: the selected candidates). ``keys`` gives the public labels of each axis.
    ``events`` is the privacy cost (accounting events), ``sensitivity`` is in noise units.
    """

    statistic: str
    keys: tuple
    noisy: np.ndarray
    events: tuple
    mechanism: str
    scale: Fraction
    sensitivity: Fraction
    resolution: Fraction = Fraction(1)
    details: dict = field(default_factory=dict)

    @property
    def estimate(self) -> np.ndarray:
        if "candidates" in self.details:
            return np.asarray(self.details["candidates"], dtype=float)[self.noisy]
        return self.noisy.astype(float) * float(self.resolution)

    @property
    def cells(self) -> int:
        return int(self.noisy.size)

    def record(self) -> dict:
        """A JSON-ready description (exact Fractions as strings), e.g. for the ledger."""
        from dpdesk.mechanisms.accounting import to_record

        def plain(v):
            if isinstance(v, Fraction):
                return str(v)
            if isinstance(v, np.generic):
                return v.item()
            if isinstance(v, (list, tuple)):
                return [plain(x) for x in v]
            return v

        return {"statistic": self.statistic, "keys": plain(self.keys),
                "noisy": self.noisy.tolist(), "events": [to_record(e) for e in self.events],
                "mechanism": self.mechanism, "scale": str(self.scale),
                "sensitivity": str(self.sensitivity), "resolution": str(self.resolution),
                "details": {k: plain(v) for k, v in self.details.items()}}

    def half_width(self, confidence=0.95, simultaneous: bool = True) -> float:
        """Noise half-width in value units: every cell (or each cell) within +-a w.p. c.

        Covers the raw noisy values of this release (before any post-processing); see
        :mod:`dpdesk.mechanisms.central.postprocess` for what survives post-processing.
        """
        m = self.cells if simultaneous else 1
        if self.mechanism == "laplace":
            a = accuracy.laplace_half_width(self.scale, confidence, m)
        elif self.mechanism == "gaussian":
            a = accuracy.gaussian_half_width(self.scale, confidence, m)
        else:
            raise NoiseParameterError(f"No noise half-width for a {self.mechanism} release.")
        return a * float(self.resolution)


def resolve_noise(mechanism: str, sensitivity: Fraction, *, epsilon=None, scale=None, rho=None):
    """(mechanism, scale, event) from exactly one of epsilon / scale / rho.

    Laplace: scale = D / epsilon exactly (or the given scale). Gaussian: the given sigma
    (``scale``) or sigma = D / sqrt(2 rho), rounded up to a float (never less noise).
    """
    given = [x is not None for x in (epsilon, scale, rho)]
    if sum(given) != 1:
        raise NoiseParameterError("Give exactly one of epsilon=, scale= (sigma for Gaussian) "
                                  "or rho= (Gaussian) for the noise.")
    d = Fraction(sensitivity)
    if mechanism == "laplace":
        if rho is not None:
            raise NoiseParameterError("rho= is for Gaussian noise; give epsilon= or scale=.")
        if epsilon is not None:
            eps = as_fraction(epsilon, "epsilon")
            if eps <= 0:
                raise NoiseParameterError(f"epsilon must be positive; got {epsilon!r}.")
            b = d / eps
        else:
            b = as_fraction(scale, "scale")
        event = Laplace(b, d, discrete=True)
        return "laplace", event.scale, event
    if mechanism == "gaussian":
        if epsilon is not None:
            raise NoiseParameterError(
                "Gaussian noise is set by sigma (scale=) or rho=; use accounting.plan() to "
                "find the sigma for an (epsilon, delta) budget.")
        if rho is not None:
            r = as_fraction(rho, "rho")
            if r <= 0:
                raise NoiseParameterError(f"rho must be positive; got {rho!r}.")
            s = float(d) / math.sqrt(2 * float(r))
            sigma = Fraction(math.nextafter(s, math.inf))
        else:
            sigma = as_fraction(scale, "sigma")
        event = Gaussian(sigma, d, discrete=True)
        return "gaussian", event.sigma, event
    raise NoiseParameterError(f"mechanism must be 'laplace' or 'gaussian'; got {mechanism!r}.")


def noisy_release(statistic, keys, exact, sensitivity, *, mechanism="laplace", epsilon=None,
                  scale=None, rho=None, check=None, resolution=Fraction(1),
                  details=None) -> Release:
    """Steps (2)-(5) above for integer ``exact`` values of the given sensitivity."""
    mech, b, event = resolve_noise(mechanism, Fraction(sensitivity),
                                   epsilon=epsilon, scale=scale, rho=rho)
    events = (event,)
    if check is not None:
        check(events)
    draw = laplace_counts if mech == "laplace" else gaussian_counts
    noisy = draw(np.asarray(exact, dtype=np.int64), b)
    return Release(statistic, tuple(keys), noisy, events, mech, b, Fraction(sensitivity),
                   Fraction(resolution), dict(details or {}))
