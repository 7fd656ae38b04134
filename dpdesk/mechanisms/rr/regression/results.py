"""What a logistic fit returns: coefficients, tests, the nuisance and :class:`LogisticFit`.

Shared by ``rr.logistic`` (:mod:`.logistic`), its multilevel form (:mod:`.multilevel_fit`) and the linear
model (:mod:`.linear`), so that none of them imports another's fitting code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import ndtri

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.regression import inference as inf
from dpdesk.mechanisms.rr.regression import model as lm
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.regression.inputs import prepare


@dataclass(frozen=True)
class Coefficient:
    """One coefficient: log-odds ``estimate``, SE, Wald z and p, intervals, odds ratio, LR test."""

    name: str
    estimate: float
    se: float
    z: float
    p: float
    ci: tuple[float, float]
    wald_ci: tuple[float, float]
    lr_chi2: float = math.nan
    lr_p: float = math.nan

    @property
    def p_value(self) -> float:
        """The Wald test's p (``p``), under the name ``Estimate``, ``GoodnessOfFit`` and the issue use."""
        return self.p

    @property
    def odds_ratio(self) -> float:
        return math.exp(self.estimate)

    @property
    def odds_ratio_ci(self) -> tuple[float, float]:
        return _exp(self.ci[0]), _exp(self.ci[1])


@dataclass(frozen=True)
class TermTest:
    """Likelihood-ratio test ``G^2 = 2 (l_full - l_reduced)`` of dropping ``columns``."""

    name: str
    columns: tuple[str, ...]
    df: int
    chi2: float
    p: float


@dataclass(frozen=True)
class Nuisance:
    """The nuisance of a two-group design (SLD ``t``, ``pi_uq``, CDM ``gamma``), in [0, 1].

    ``null``: the value RRlog tests it against (t = 1: everyone honest; gamma = 0: no
    cheaters; none for pi_uq), with the Wald z and the likelihood-ratio G^2 of that test.
    ``se`` is NaN when the estimate lies on the boundary 0 or 1.
    """

    name: str
    estimate: float
    se: float
    ci: tuple[float, float]
    null: float | None = None
    z: float = math.nan
    lr_chi2: float = math.nan
    lr_p: float = math.nan

    @property
    def on_boundary(self) -> bool:
        return self.estimate <= 0.0 or self.estimate >= 1.0


@dataclass(frozen=True, eq=False)
class LogisticFit:
    """The result of :func:`logistic`: plain values, a table of rows and ``to_dict()``.

    ``vcov`` is the covariance of ``(beta, nuisance)`` from the observed information.
    ``average_prevalence`` is ``(mean_i pi_i, low, high)`` over the fitted respondents.
    ``deviance = -2 loglik`` (individual yes/no data: the saturated log-likelihood is 0);
    ``aic = deviance + 2 k``, ``bic = deviance + k log n`` with ``k`` coefficients plus
    the nuisance.
    """

    design: Design
    coefficients: tuple[Coefficient, ...]
    terms: tuple[TermTest, ...]
    model_test: TermTest | None
    nuisance: Nuisance | None
    loglik: float
    n: int
    n_direct: int
    n_params: int
    iterations: int
    converged: bool
    confidence: float
    ci_method: str
    vcov: np.ndarray
    average_prevalence: tuple[float, float, float]
    se_method: str = "observed information (inverse of minus the Hessian)"
    _data: Any = field(default=None, repr=False)
    df: int | None = None
    sample_design: Any = field(default=None, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.coefficients)

    @property
    def beta(self) -> np.ndarray:
        return np.array([c.estimate for c in self.coefficients])

    @property
    def deviance(self) -> float:
        return -2 * self.loglik

    @property
    def aic(self) -> float:
        return self.deviance + 2 * self.n_params

    @property
    def bic(self) -> float:
        return self.deviance + math.log(self.n) * self.n_params

    def coefficient(self, name: str) -> Coefficient:
        for c in self.coefficients:
            if c.name == name:
                return c
        raise KeyError(f"No coefficient {name!r}; the model has {', '.join(self.names)}.")

    def table(self) -> list[dict[str, Any]]:
        """One row per coefficient: b, SE, z, p, CI, OR with CI, Wald CI, LR G^2 and p."""
        rows = []
        for c in self.coefficients:
            orl, orh = c.odds_ratio_ci
            rows.append({"term": c.name, "b": c.estimate, "se": c.se, "z": c.z, "p": c.p,
                         "ci_low": c.ci[0], "ci_high": c.ci[1], "or": c.odds_ratio, "or_low": orl,
                         "or_high": orh, "wald_low": c.wald_ci[0], "wald_high": c.wald_ci[1],
                         "lr_chi2": c.lr_chi2, "lr_p": c.lr_p})
        return rows

    def to_dict(self) -> dict[str, Any]:
        """JSON-able record (infinite or missing numbers become None)."""
        nu = self.nuisance
        return {
            "design": self.design.to_dict(),
            "coefficients": [{k: _plain(v) for k, v in row.items()} for row in self.table()],
            "terms": [_term_dict(t) for t in self.terms],
            "model_test": None if self.model_test is None else _term_dict(self.model_test),
            "nuisance": None if nu is None else {
                "name": nu.name, "estimate": nu.estimate, "se": _plain(nu.se), "ci": [_plain(x) for x in nu.ci],
                "null": nu.null, "z": _plain(nu.z), "lr_chi2": _plain(nu.lr_chi2), "lr_p": _plain(nu.lr_p),
                "on_boundary": nu.on_boundary},
            "loglik": self.loglik, "deviance": self.deviance, "aic": self.aic, "bic": self.bic,
            "n": self.n, "n_direct": self.n_direct, "n_params": self.n_params,
            "iterations": self.iterations, "converged": self.converged, "confidence": self.confidence,
            "ci_method": self.ci_method, "se_method": self.se_method, "design_df": self.df,
            "sample_design": None if self.sample_design is None else self.sample_design.describe(),
            "vcov": [[_plain(v) for v in row] for row in self.vcov.tolist()],
            "average_prevalence": [_plain(v) for v in self.average_prevalence],
        }

    def predict(self, X, offset=None) -> np.ndarray:
        """Prevalence for covariate profiles (rows of X): columns estimate, low, high.

        The CI is ``logistic(x'b +- z sqrt(x' V x))`` (delta method on the logit scale).
        """
        X = np.atleast_2d(np.asarray(X, float))
        k = len(self.coefficients)
        if X.shape[1] != k:
            raise EstimationError(f"Each profile needs {k} values ({', '.join(self.names)}); got {X.shape[1]}.")
        est, lo, hi = inf.predict(X, self.beta, self.vcov[:k, :k], _z(self.confidence), offset)
        return np.column_stack([est, lo, hi])

    def posterior(self, responses=None, X=None, group=None, offset=None) -> np.ndarray:
        """P(carrier | recorded answer, x) per respondent (rr's ``predict(given.y = TRUE)``).

        ``pi_i P(r_i | carrier) / L_i``; for the fitted respondents by default.
        """
        if responses is None:
            data = self._data
        else:
            data, _ = prepare(self.design, responses, X, group, None, offset, len(self.coefficients))[:2]
        eta = self.nuisance.estimate if self.nuisance is not None else 0.0
        _, pi, _, B, L = lm._parts(data, self.beta, eta)
        A = data.A0 + data.A1 * eta
        return np.where(L > 0, pi * (A + B) / np.maximum(L, 1e-300), pi)


def _exp(x: float) -> float:
    return math.inf if x > 709 else math.exp(x)


def _plain(x):
    if isinstance(x, (np.floating, np.integer)):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def _term_dict(t: TermTest) -> dict[str, Any]:
    return {"name": t.name, "columns": list(t.columns), "df": t.df, "chi2": t.chi2, "p": t.p}


def _z(confidence: float) -> float:
    return float(ndtri(0.5 + confidence / 2))
