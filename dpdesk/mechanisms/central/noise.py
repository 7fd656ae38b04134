"""Exact discrete noise from OpenDP: the only place dpdesk draws central-DP noise.

Both samplers are OpenDP's (``opendp.measurements.make_laplace`` and ``make_gaussian`` on
a vector of 64-bit integers). OpenDP samples them exactly, with rational arithmetic, from
the operating system's cryptographically secure generator (Canonne, Kamath & Steinke
2020, "The Discrete Gaussian for Differential Privacy", NeurIPS, algorithms 1-3). There is
no seed: nothing here can be replayed, and nothing here uses ``random`` or numpy
generators.

How the scale reaches OpenDP. OpenDP takes the scale as a 64-bit float and converts that
float to a rational exactly. A scale given as ``Fraction`` / ``str`` / ``float`` is read as
``Fraction(str(x))``; the float handed to OpenDP is the nearest float *at or above* that
fraction (``math.nextafter`` upward when rounding went down), so the noise is never
smaller than the scale the accountant is charged for.

A whole table is one OpenDP call (one vector measurement), never one call per cell.
Measurements are cached per (distribution, float scale).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms.accounting import NoiseParameterError, as_fraction

__all__ = [
    "NoiseParameterError",
    "as_fraction",
    "opendp_scale",
    "laplace_counts",
    "gaussian_counts",
]

_LIMIT = 2**62  # inputs beyond this could overflow i64 once noise is added


def opendp_scale(scale, name: str = "scale") -> float:
    """The float given to OpenDP for ``scale``: the nearest float >= Fraction(str(scale))."""
    exact = as_fraction(scale, name)
    if exact <= 0:
        raise NoiseParameterError(f"The noise {name} must be positive; got {scale!r}. "
                                  "Use a positive number such as 10.")
    f = float(exact)
    if Fraction(f) < exact:
        f = math.nextafter(f, math.inf)
    return f


@functools.lru_cache(maxsize=1)
def _opendp():
    from dpdesk.mechanisms.central.opendp_version import require_opendp

    require_opendp()  # refuses an OpenDP whose samplers fail dpdesk's distribution check
    # the four modules the samplers need, not ``opendp.prelude``: the prelude also imports OpenDP's
    # scikit-learn, numpy, polars and MBI extras (about 0.1 s of every command that draws noise)
    import opendp.domains as domains
    import opendp.measurements as measurements
    import opendp.measures as measures
    import opendp.metrics as metrics
    from opendp.mod import enable_features
    from opendp.typing import i64, u64

    enable_features("contrib")
    return SimpleNamespace(m=measurements, vector_domain=domains.vector_domain, atom_domain=domains.atom_domain,
                           i64=i64, u64=u64, l1_distance=metrics.l1_distance, l2_distance=metrics.l2_distance,
                           linf_distance=metrics.linf_distance, max_divergence=measures.max_divergence)


@functools.lru_cache(maxsize=128)
def _measurement(kind: str, scale: float):
    dp = _opendp()
    domain = dp.vector_domain(dp.atom_domain(T=dp.i64))
    if kind == "laplace":
        return dp.m.make_laplace(domain, dp.l1_distance(T=dp.i64), scale=scale)
    return dp.m.make_gaussian(domain, dp.l2_distance(T=dp.i64), scale=scale)


def _as_int_vector(counts, what: str) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.integer)
                                   or np.issubdtype(arr.dtype, np.floating)
                                   or arr.dtype == bool):
        raise DataError(f"{what} must be integers; got an array of {arr.dtype}. "
                        "Aggregate the data to integer counts (or grid units) first.")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise DataError(f"{what} must be whole numbers; cell {idx} is {arr[idx].item()!r}. "
                            "Put non-integer values on a fixed-point grid first.")
    out = arr.astype(np.int64)
    if out.size and int(np.abs(out).max()) >= _LIMIT:
        raise DataError(f"{what} has a value beyond +-2**62; it would overflow after noise.")
    return out


def _draw(kind: str, counts, scale) -> np.ndarray:
    arr = _as_int_vector(counts, "Counts")
    meas = _measurement(kind, opendp_scale(scale, "sigma" if kind == "gaussian" else "scale"))
    if arr.size == 0:
        return arr.copy()
    noisy = meas(arr.ravel().tolist())
    return np.asarray(noisy, dtype=np.int64).reshape(arr.shape)


def laplace_counts(counts, scale) -> np.ndarray:
    """Add discrete Laplace noise to integer counts (any shape); returns an int64 array.

    Each cell gets independent noise Z with P(Z = k) = tanh(1/(2b)) exp(-|k|/b), b = scale
    (the two-sided geometric distribution; Ghosh, Roughgarden & Sundararajan 2012).
    With L1 sensitivity D (in the same integer units) the release is (D/b)-DP.
    """
    return _draw("laplace", counts, scale)


def gaussian_counts(counts, sigma) -> np.ndarray:
    """Add discrete Gaussian noise to integer counts (any shape); returns an int64 array.

    Each cell gets independent noise Z with P(Z = k) proportional to exp(-k^2 / (2 sigma^2))
    (Canonne, Kamath & Steinke 2020). With L2 sensitivity D the release is
    (D^2 / (2 sigma^2))-zCDP; its (epsilon, delta) comes from the accountant.
    """
    return _draw("gaussian", counts, sigma)
