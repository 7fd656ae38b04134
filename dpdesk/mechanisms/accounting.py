"""Privacy accounting: the cost of releases, their composition, planning and refusal.

Neighbouring relation: two datasets are neighbours when one is the other with one
respondent's row added or removed ("add/remove one"). Every sensitivity in dpdesk is for
this relation.

Events (frozen dataclasses, parameters held as exact ``Fraction(str(x))``):

- ``Laplace(scale, sensitivity=1, discrete=False)``: Laplace noise of scale b on a statistic
  of L1 sensitivity D. Pure epsilon = D / b, exact.
- ``Gaussian(sigma, sensitivity=1, discrete=False)``: Gaussian noise, L2 sensitivity D;
  rho = D^2 / (2 sigma^2) zCDP (Canonne, Kamath & Steinke 2020); no pure epsilon.
- ``PureDP(epsilon)``: any other epsilon-DP release (e.g. report-noisy-max quantiles).

``discrete=False`` (the default) is the continuous mechanism, as dp_accounting's
``LaplaceDpEvent`` and ``GaussianDpEvent``: 100 Laplace releases at scale 10 cost 4.6927 at
delta 1e-6. dpdesk's own releases draw OpenDP's *discrete* samplers and are charged with
``discrete=True`` events, whose PLD is not dominated by the continuous one: with D = 1 the
discrete Laplace's privacy loss is +-1/b only, binary randomized response with epsilon 1/b,
the worst case of every (1/b)-DP mechanism (Kairouz, Oh & Viswanath 2015), so the same 100
releases cost 4.7746. Charging the continuous figure would under-report them.

Composition. With delta = 0 only pure events compose, by exact summation of Fractions
(Dwork & Roth 2014, thm 3.16); ten releases at 0.1 spend exactly Fraction(1). With
delta > 0 the events are composed with a privacy loss distribution (PLD; Meiser & Mohammadi
2018, Koskela et al. 2020, Doroshenko et al. 2022) using dp_accounting's *pessimistic*
discretisation: ``from_laplace_mechanism`` / ``from_gaussian_mechanism`` for continuous
events, ``from_discrete_laplace_mechanism`` / ``from_discrete_gaussian_mechanism`` for
discrete ones, ``from_privacy_parameters(epsilon, 0)`` for PureDP.

Non-integer sensitivities are rounded up to an integer for the PLD (noise and data are on
an integer grid). Floats handed to dp_accounting are rounded towards more privacy loss, the
result is the smaller of the PLD bound and the exact pure sum (both are valid), and it is
rounded UP to a multiple of 1e-6: never in the user's favour.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational, Real


from dpdesk.errors import BudgetError, DpdeskError

__all__ = [
    "Laplace", "Gaussian", "PureDP", "BudgetExceeded", "epsilon", "fits", "plan",
    "check_budget", "describe", "to_record", "from_record", "ROUNDING", "NoiseParameterError", "as_fraction",
    "zcdp_epsilon",
]

ROUNDING = Fraction(1, 10**6)  # epsilon under delta > 0 is rounded up to this step
_DISCRETISATION = 1e-4         # dp_accounting value_discretization_interval


class NoiseParameterError(DpdeskError, ValueError):
    """A noise scale, bound, resolution or budget that cannot be used."""


def as_fraction(x, name: str = "value") -> Fraction:
    """``Fraction(str(x))`` for numbers and strings; raises NoiseParameterError if not finite."""
    if isinstance(x, bool):
        raise NoiseParameterError(f"{name} must be a number, not {x!r}.")
    if isinstance(x, Rational):
        return Fraction(x.numerator, x.denominator)
    if isinstance(x, (Real, str)):  # numpy's scalars are registered as numbers.Real
        try:
            f = float(x)
        except (TypeError, ValueError):
            raise NoiseParameterError(f"{name} must be a number; got {x!r}.") from None
        if not math.isfinite(f):
            raise NoiseParameterError(f"{name} must be finite; got {x!r}.")
        try:
            return Fraction(str(x).strip()) if isinstance(x, str) else Fraction(str(x))
        except (ValueError, ZeroDivisionError):
            return Fraction(f)
    raise NoiseParameterError(f"{name} must be a number; got {x!r}.")



class BudgetExceeded(BudgetError):
    """A release refused because it would spend more than the privacy budget."""


def _positive(x, name) -> Fraction:
    f = as_fraction(x, name)
    if f <= 0:
        raise NoiseParameterError(f"{name} must be positive; got {x!r}.")
    return f


@dataclass(frozen=True)
class Laplace:
    """Laplace release: scale b, L1 sensitivity D; epsilon = D/b (``discrete``: on integers)."""

    scale: Fraction
    sensitivity: Fraction = Fraction(1)
    discrete: bool = False

    def __post_init__(self):
        object.__setattr__(self, "scale", _positive(self.scale, "Laplace scale"))
        object.__setattr__(self, "sensitivity", _positive(self.sensitivity, "sensitivity"))

    @property
    def epsilon(self) -> Fraction:
        return self.sensitivity / self.scale


@dataclass(frozen=True)
class Gaussian:
    """Gaussian release: sigma, L2 sensitivity D; rho = D^2/(2 sigma^2) zCDP (``discrete``: on integers)."""

    sigma: Fraction
    sensitivity: Fraction = Fraction(1)
    discrete: bool = False

    def __post_init__(self):
        object.__setattr__(self, "sigma", _positive(self.sigma, "Gaussian sigma"))
        object.__setattr__(self, "sensitivity", _positive(self.sensitivity, "sensitivity"))

    @property
    def rho(self) -> Fraction:
        return self.sensitivity**2 / (2 * self.sigma**2)

    @property
    def epsilon(self) -> float:
        return math.inf


@dataclass(frozen=True)
class PureDP:
    """Any epsilon-DP release (e.g. a quantile by report-noisy-max)."""

    epsilon: Fraction

    def __post_init__(self):
        object.__setattr__(self, "epsilon", _positive(self.epsilon, "epsilon"))


_EVENTS = (Laplace, Gaussian, PureDP)


def describe(event) -> str:
    """A short plain-language description of one event."""
    if isinstance(event, Laplace):
        return (f"{'discrete ' if event.discrete else ''}Laplace noise, scale {_fmt(event.scale)}, sensitivity "
                f"{_fmt(event.sensitivity)} (epsilon {_fmt(event.epsilon)})")
    if isinstance(event, Gaussian):
        return (f"{'discrete ' if event.discrete else ''}Gaussian noise, sigma {_fmt(event.sigma)}, sensitivity "
                f"{_fmt(event.sensitivity)} (rho {_fmt(event.rho)})")
    if isinstance(event, PureDP):
        return f"an epsilon-DP release (epsilon {_fmt(event.epsilon)})"
    return repr(event)


def to_record(event) -> dict:
    """A JSON-ready dict of an event (Fractions as exact strings), e.g. for the ledger."""
    if isinstance(event, Laplace):
        return {"type": "laplace", "scale": str(event.scale),
                "sensitivity": str(event.sensitivity), "discrete": event.discrete}
    if isinstance(event, Gaussian):
        return {"type": "gaussian", "sigma": str(event.sigma),
                "sensitivity": str(event.sensitivity), "discrete": event.discrete}
    if isinstance(event, PureDP):
        return {"type": "pure", "epsilon": str(event.epsilon)}
    raise NoiseParameterError(f"Not a privacy event: {event!r}.")


def from_record(record: dict):
    """The event written by :func:`to_record`."""
    kind = record.get("type")
    try:
        if kind == "laplace":
            return Laplace(Fraction(record["scale"]), Fraction(record["sensitivity"]),
                           bool(record.get("discrete", True)))
        if kind == "gaussian":
            return Gaussian(Fraction(record["sigma"]), Fraction(record["sensitivity"]),
                            bool(record.get("discrete", True)))
        if kind == "pure":
            return PureDP(Fraction(record["epsilon"]))
    except (KeyError, ValueError, ZeroDivisionError) as exc:
        raise NoiseParameterError(f"Unreadable privacy event record {record!r}: {exc}.") from None
    raise NoiseParameterError(f"Unknown privacy event type {kind!r} in {record!r}.")


def _fmt(x) -> str:
    if isinstance(x, Fraction) and x.denominator == 1:
        return str(x.numerator)
    if x == math.inf:
        return "infinity"
    return f"{float(x):.6g}"


def _events(events) -> list:
    if isinstance(events, _EVENTS):
        events = [events]
    out = list(events)
    for e in out:
        if not isinstance(e, _EVENTS):
            raise NoiseParameterError(
                f"Not a privacy event: {e!r}. Use accounting.Laplace, Gaussian or PureDP.")
    return out


def _float_up(x: Fraction) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if Fraction(f) < x else f


def _float_down(x: Fraction) -> float:
    f = float(x)
    return math.nextafter(f, -math.inf) if Fraction(f) > x else f


def _int_sensitivity(d: Fraction) -> int:
    return max(1, math.ceil(d))


@functools.lru_cache(maxsize=256)
def _pld(event, count: int):
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    if isinstance(event, Laplace) and event.discrete:
        one = pld.from_discrete_laplace_mechanism(
            parameter=_float_up(1 / event.scale),
            sensitivity=_int_sensitivity(event.sensitivity),
            value_discretization_interval=_DISCRETISATION)
    elif isinstance(event, Laplace):
        one = pld.from_laplace_mechanism(
            parameter=_float_down(event.scale), sensitivity=_float_up(event.sensitivity),
            pessimistic_estimate=True, value_discretization_interval=_DISCRETISATION)
    elif isinstance(event, Gaussian) and event.discrete:
        one = pld.from_discrete_gaussian_mechanism(
            sigma=_float_down(event.sigma),
            sensitivity=_int_sensitivity(event.sensitivity),
            value_discretization_interval=_DISCRETISATION)
    elif isinstance(event, Gaussian):
        one = pld.from_gaussian_mechanism(
            standard_deviation=_float_down(event.sigma), sensitivity=_float_up(event.sensitivity),
            pessimistic_estimate=True, value_discretization_interval=_DISCRETISATION)
    else:
        one = pld.from_privacy_parameters(
            common.DifferentialPrivacyParameters(_float_up(event.epsilon), 0.0),
            value_discretization_interval=_DISCRETISATION)
    return one if count == 1 else one.self_compose(count)


def _pure_sum(events) -> Fraction | float:
    total = Fraction(0)
    for e in events:
        if isinstance(e, Gaussian):
            return math.inf
        total += e.epsilon
    return total


def _ceil_step(x: float) -> Fraction:
    return Fraction(math.ceil(Fraction(x) / ROUNDING)) * ROUNDING


def epsilon(events, delta=0) -> Fraction | float:
    """Epsilon spent by composing ``events`` at ``delta`` (see the module docstring).

    delta == 0: exact ``Fraction`` sum of pure epsilons, ``math.inf`` if any event is
    Gaussian. delta > 0: min(pure sum, pessimistic PLD epsilon rounded up to 1e-6), as a
    ``Fraction``. An empty list spends ``Fraction(0)``.
    """
    events = _events(events)
    d = as_fraction(delta, "delta")
    if not 0 <= d < 1:
        raise NoiseParameterError(f"delta must be in [0, 1); got {delta!r}.")
    pure = _pure_sum(events)
    if d == 0 or not events:
        return pure
    if any(isinstance(e, Gaussian) and e.discrete and _int_sensitivity(e.sensitivity) > _PLD_MAX_SENSITIVITY
           for e in events):
        # dp_accounting's discrete-Gaussian PLD enumerates the support, which is too slow (and
        # too large) for big integer sensitivities: compose in zCDP instead (valid, a little looser).
        return min(pure, _ceil_step(zcdp_epsilon(events, d)))
    pld = None
    for event, count in Counter(events).items():
        part = _pld(event, count)
        pld = part if pld is None else pld.compose(part)
    eps = pld.get_epsilon_for_delta(_float_down(d))
    if not math.isfinite(eps):
        return pure
    return min(pure, _ceil_step(max(eps, 0.0)))


_PLD_MAX_SENSITIVITY = 64


def zcdp_epsilon(events, delta) -> float:
    """Epsilon at ``delta`` of the events composed in zero-concentrated DP.

    Gaussian (continuous or discrete): rho = D^2 / (2 sigma^2), exact for both (Canonne,
    Kamath & Steinke 2020, thm 14); pure epsilon-DP: rho = eps^2 / 2 (Bun & Steinke 2016,
    prop 1.4); rho adds under composition. Conversion to (epsilon, delta): CKS 2020,
    cor. 13, ``eps = min_a a rho + (log(1/delta) + (a - 1) log(1 - 1/a) - log a) / (a - 1)``,
    minimised over a > 1 (at most ``rho + 2 sqrt(rho log(1/delta))``).
    """
    from scipy.optimize import minimize_scalar

    rho = 0.0
    for e in _events(events):
        if isinstance(e, Gaussian):
            rho += float(e.sensitivity) ** 2 / (2 * _float_down(e.sigma) ** 2)
        else:
            rho += float(e.epsilon) ** 2 / 2
    rho = math.nextafter(rho, math.inf)
    log_inv = -math.log(_float_down(as_fraction(delta, "delta")))

    def eps(log_a_minus_1):
        a = 1 + math.exp(log_a_minus_1)
        return a * rho + (log_inv + (a - 1) * math.log1p(-1 / a) - math.log(a)) / (a - 1)

    res = minimize_scalar(eps, bounds=(-20, 20), method="bounded", options={"xatol": 1e-10})
    bound = min(float(res.fun), rho + 2 * math.sqrt(rho * log_inv))
    return math.nextafter(max(bound, 0.0), math.inf)


def fits(events, epsilon_total, delta=0) -> bool:
    """True if the composition of ``events`` spends at most ``epsilon_total`` at ``delta``."""
    return epsilon(events, delta) <= as_fraction(epsilon_total, "total epsilon")


def plan(total_epsilon, weights, delta=0, mechanism="laplace", sensitivity=1, discrete=False) -> list[Fraction]:
    """Noise scales (sigmas for Gaussian) for releases sharing ``total_epsilon`` by ``weights``.

    ``discrete=True`` plans for dpdesk's own (discrete) releases; the default plans for the
    continuous mechanisms (100 Laplace releases in (1, 1e-6): scale 41.5; discrete: 41.85).

    delta == 0 (Laplace only): release i gets epsilon_i = total * w_i / sum(w), exactly,
    scale_i = D / epsilon_i; the exact sum is the total. delta > 0: the scales are
    c * base_i (Laplace base_i = D sum(w) / (w_i total); Gaussian base_i = D sqrt(sum(w)/w_i))
    with the smallest common multiplier c (bisection, relative tolerance 1e-3, then rounded
    up to 5 significant digits) for which ``epsilon(events, delta) <= total``.
    """
    total = _positive(total_epsilon, "total epsilon")
    ws = [_positive(w, "weight") for w in weights]
    if not ws:
        raise NoiseParameterError("plan() needs at least one weight (one per release).")
    sens = _positive(sensitivity, "sensitivity")
    d = as_fraction(delta, "delta")
    wsum = sum(ws)
    if mechanism == "laplace":
        base = [sens * wsum / (w * total) for w in ws]
        make = Laplace
    elif mechanism == "gaussian":
        if d == 0:
            raise NoiseParameterError(
                "Gaussian noise has no pure-epsilon guarantee: give a delta > 0 "
                "(e.g. 1e-6) or use mechanism='laplace'.")
        base = [sens * Fraction(math.sqrt(wsum / w)) for w in ws]
        make = Gaussian
    else:
        raise NoiseParameterError(f"mechanism must be 'laplace' or 'gaussian'; got {mechanism!r}.")
    if d == 0:
        return base

    def ok(c):
        return fits([make(_round_up_sig(c * b), sens, discrete) for b in base], total, d)

    hi = 1.0
    while not ok(hi):
        hi *= 2
        if hi > 2**40:
            raise NoiseParameterError("No noise scale fits this budget.")
    lo = hi / 2
    while ok(lo):
        hi, lo = lo, lo / 2
        if lo < 1e-12:
            break
    while hi / lo > 1 + 1e-3:
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return [_round_up_sig(hi * b) for b in base]


def _round_up_sig(x, digits: int = 5) -> Fraction:
    """x rounded up to ``digits`` significant digits, as a Fraction."""
    x = Fraction(x)
    if x <= 0:
        return x
    exp = math.floor(math.log10(x)) - digits + 1
    step = Fraction(10) ** exp
    return math.ceil(x / step) * step


def check_budget(spent_events, requested_event, total_epsilon, total_delta=0):
    """Refuse a release before any noise is drawn if it would exceed the budget.

    Returns the epsilon spent after the release when it fits; otherwise raises
    :class:`BudgetExceeded` naming the request, what is spent and what remains.
    ``requested_event`` may be one event or a list (e.g. a mean = sum + count).
    """
    spent = _events(spent_events)
    requested = _events(requested_event)
    total = _positive(total_epsilon, "total epsilon")
    d = as_fraction(total_delta, "total delta")
    before = epsilon(spent, d)
    after = epsilon(spent + requested, d)
    if after <= total:
        return after
    remaining = max(Fraction(0), total - before) if before != math.inf else Fraction(0)
    what = "; ".join(describe(e) for e in requested)
    cost = epsilon(requested, d)
    where = f" at delta {_fmt(d)}" if d else ""
    hint = ""
    if d == 0 and any(isinstance(e, Gaussian) for e in requested):
        hint = " Gaussian noise has no pure epsilon: the budget needs a delta > 0."
    if remaining > 0 and len(requested) == 1 and isinstance(requested[0], Laplace) and d == 0:
        need = requested[0].sensitivity / remaining
        hint = f" A Laplace scale of at least {_fmt(_round_up_sig(need))} would fit."
    raise BudgetExceeded(
        f"Release refused, no noise was drawn: it asks for {what}, costing epsilon "
        f"{_fmt(cost)}{where}. Already spent: epsilon {_fmt(before)} of the total "
        f"{_fmt(total)}; remaining: epsilon {_fmt(remaining)}; with this release the total "
        f"would be {_fmt(after)}. To fix: add more noise (a larger scale) or release fewer "
        f"statistics; a budget can be lowered but never raised.{hint}")
