"""Logistic regression with a randomized-response outcome: ``rr.logistic``.

``P(carrier | x) = logistic(x' beta)``; each recorded response follows the design's matrix
for the respondent's group (van den Hout, van der Heijden & Gilchrist 2007, CSDA
51:6060-6069; Heck & Moshagen 2018, JSS 85(2), 3.2; the likelihood and the fitting are in
``logistic_model``, intervals, tests and predictions in ``logistic_inference``).

Coding follows RRreg's ``RRlog``: responses are indices into ``design.responses`` (for
yes/no designs 0 = "no", 1 = "yes", RRlog's 0/1); ``group`` is 1 (and 2 for two-group
designs, matching ``p1``/``p2``), and 0 marks respondents asked directly, whose answers
are taken at face value; the nuisance of two-group designs is named as RRlog names it
(``t``, ``pi_uq``, ``gamma``). rr's ``rrreg`` (Blair, Imai & Zhou 2015) models the same
``P(yes) = c pi + d`` for its four one-group designs: ``"forced-known"`` is
``rr.design("forced", p_truth=p, p_yes=p1, p_no=p0)``, ``"mirrored"`` is ``warner(p)``,
``"unrelated-known"`` is ``unrelated(p_sensitive=p, q=q)``.

Standard errors are ``sqrt(diag(I_obs^-1))`` with the observed information (minus the
analytic Hessian) at the estimate, as RRlog (``solve(-hessian)``, there numerical) and
rr with ``optim = TRUE``. rr's default is the outer product of the scores
(``crossprod(score) ^ -1``, BHHH); both estimate the same covariance and agree for large
n, but the outer-product SEs are noisier in small samples. The default interval is the
profile likelihood (``logistic_inference``), which neither RRlog nor rrreg offers; Wald
intervals (``b +- z SE``) are reported beside it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.special import chdtrc, ndtr

from dpdesk.errors import EstimationError

from dpdesk.mechanisms.rr.regression import inference as inf
from dpdesk.mechanisms.rr.regression import model as lm
from dpdesk.mechanisms.rr.design import Design
from dpdesk.mechanisms.rr.estimate import check_confidence
from dpdesk.mechanisms.rr.regression.inputs import eta_start, prepare

CI_NAMES = {"profile": "profile likelihood", "wald": "Wald (b +- z SE)"}


from dpdesk.mechanisms.rr.regression.results import (  # noqa: F401 - re-exported: rr.logistic's result types
    Coefficient,
    LogisticFit,
    Nuisance,
    TermTest,
    _z,
)


def _separation_error(names, beta, se, bad) -> EstimationError:
    j = bad[0]
    which = repr(names[j]) if names[j] != "(Intercept)" else "the respondents"
    direction = "+infinity" if beta[j] > 0 else "-infinity"
    return EstimationError(
        f"The model cannot be fitted: the coefficient of {names[j]!r} runs off towards {direction} "
        f"(the likelihood keeps rising the further it goes, so no number is reported). The data are separated or "
        f"nearly so: for some category or range of {which} the estimated prevalence is 0 or 1, and the maximum-likelihood estimate does not "
        f"exist. Merge that category with a neighbouring one, drop the term, or collect more data.")


# ----------------------------------------------------------------------------- public


def logistic(design: Design, responses, X, *, group=None, names=None, confidence: float = 0.95,
             offset=None, ci: str = "profile", terms: dict[str, Any] | None = None,
             lr_tests: bool = True, progress=None, weights=None, strata=None, clusters=None, fpc=None,
             lonely_psu: str = "fail", used=None, random_intercept=None, nagq: int = 1) -> LogisticFit:
    """Fit ``logit P(carrier | x) = x' beta + offset`` to randomized responses.

    ``responses``: codes into ``design.responses`` (0 = "no", 1 = "yes"). ``X``: the
    design matrix (include a column of ones for an intercept), ``names`` its columns.
    ``group``: 1 (or 2) for the design's randomization groups, 0 for respondents asked
    directly (answers taken at face value); required for two-group designs. ``terms``
    maps a term name to the columns tested together (a factor's dummies); other columns
    are tested one at a time. ``ci``: ``"profile"`` (default) or ``"wald"`` for the
    reported interval (Wald intervals are always in ``wald_ci``). ``lr_tests=False``
    skips the per-coefficient refits (faster; the model test is always made).
    ``progress(fraction, text)``, if given, is called before each coefficient's interval
    and tests (the slow part); an exception it raises (a cancelled job) stops the fit.

    ``weights``, ``strata``, ``clusters``, ``fpc``, ``lonely_psu`` (as :func:`rr.survey_estimate`)
    make the fit design-based: weighted pseudo-maximum likelihood with sandwich SEs, Wald
    intervals and tests on the design df (``survey_logistic``); profile intervals and
    likelihood-ratio tests are not valid then and are not made (``ci_method`` says so).
    ``used`` (with a design): True for the rows to fit; the others (a missing answer or
    covariate) are left out but keep their PSU in the design, as ``svyglm`` does.

    ``random_intercept``: a cluster label per respondent (school, firm, country) for a multilevel model
    with a random intercept per cluster (RRreg's ``RRmixed``; :mod:`.multilevel`), fitted by the Laplace
    approximation (``nagq=1``, glmer's default) or adaptive Gauss-Hermite quadrature with ``nagq`` nodes.
    It returns a :class:`MultilevelFit`: the usual fit (Wald intervals and tests) plus ``random_sd`` and
    the marginal ``loglik``. One-group yes/no designs only, as RRmixed; no survey design.

    Raises :class:`~dpdesk.errors.EstimationError` for invalid input, collinear
    predictors, separation (coefficients running off to infinity), a singular
    information matrix or a fit that does not converge; never returns numbers from a
    fit that did not converge.
    """
    conf = check_confidence(confidence)
    if not isinstance(design, Design):
        raise EstimationError(f"design must be made by rr.design(...), not {type(design).__name__}.")
    if random_intercept is not None:
        from dpdesk.mechanisms.rr.regression.multilevel_fit import check_multilevel, multilevel_logistic

        if any(v is not None for v in (weights, strata, clusters, fpc)):
            raise EstimationError("A multilevel model with survey weights or a sample design is not supported: fit "
                                  "it without the design, or use the design-based fit without random intercepts.")
        check_multilevel(design, offset, nagq)
        start = logistic(design, responses, X, group=group, names=names, ci="wald", lr_tests=False)
        return multilevel_logistic(design, responses, X, random_intercept, group=group, names=names,
                                   confidence=conf, nagq=nagq, beta0=start.beta, progress=progress)
    if not (isinstance(nagq, (int, np.integer)) and nagq == 1):
        raise EstimationError(f"nagq = {nagq!r} sets the quadrature of a multilevel model: give random_intercept "
                              f"(a cluster label per respondent), or leave nagq out.")
    if ci not in CI_NAMES:
        raise EstimationError(f"ci = {ci!r} is not a known interval; choose 'profile' or 'wald'.")
    survey = any(v is not None for v in (weights, strata, clusters, fpc))
    keep = None
    if survey and used is not None:
        keep = np.flatnonzero(np.asarray(used, bool))
        responses, X = np.asarray(responses)[keep], np.asarray(X, float)[keep]
        group = None if group is None else np.asarray(group)[keep]
        offset = None if offset is None else np.asarray(offset, float)[keep]
    data, names, r, g = prepare(design, responses, X, group, names, offset)
    sample = None
    if survey:
        from dpdesk.mechanisms.rr.linearization import sample_design

        n_all = data.n if keep is None else len(np.asarray(used))
        sample = sample_design(n_all, weights=weights, strata=strata, clusters=clusters, fpc=fpc,
                               lonely_psu=lonely_psu)
        w = sample.weights if keep is None else sample.weights[keep]
        data.weights = w / w.mean()
    lm.check_columns(data.X, names)
    p = data.X.shape[1]
    eta0 = eta_start(design, r, g)
    fit = lm.best_fit(data, eta0)
    lp = data.X @ fit.beta + data.offset
    try:
        vcov = _covariance(fit, p, names) if fit.converged else None
    except EstimationError:
        vcov = None
    if vcov is None:  # separation explains most failures: say so when it does
        with np.errstate(all="ignore"):
            approx = np.sqrt(np.abs(np.diag(np.linalg.pinv(-fit.hess[:p, :p]))))
        bad = lm.runaway(fit.beta, approx, data.X, lp)
        if bad:
            raise _separation_error(names, fit.beta, approx, bad)
        if fit.converged:
            _covariance(fit, p, names)  # raises the singular-information error
        raise EstimationError(
            f"The fit did not converge (after {fit.iterations} Newton steps the gradient is "
            f"{np.linalg.norm(fit.grad):.2g}). Simplify the model: drop terms or merge sparse categories.")
    se = np.sqrt(np.diag(vcov)[:p])
    bad = lm.runaway(fit.beta, se, data.X, lp)
    if bad:
        raise _separation_error(names, fit.beta, se, bad)
    if sample is not None:
        return _survey_fit(design, data, fit, names, g, sample, conf, terms, keep)
    z = _z(conf)
    coefs = []
    for j in range(p):
        if progress is not None:
            progress(0.2 + 0.7 * j / p, f"Intervals and tests: {names[j]}")
        b, s = float(fit.beta[j]), float(se[j])
        wald = (b - z * s, b + z * s)
        interval = inf.profile_interval(data, fit, j, s, z) if ci == "profile" else wald
        chi2 = inf.drop_test(data, fit, [j]) if lr_tests else math.nan
        coefs.append(Coefficient(names[j], b, s, b / s, float(2 * ndtr(-abs(b / s))), interval, wald,
                                 chi2, float(chdtrc(1, chi2)) if lr_tests else math.nan))
    term_tests = []
    single = {names[j]: c for j, c in enumerate(coefs)}
    for tname, cols in (terms or {}).items():
        unknown = [c for c in cols if (c not in names if isinstance(c, str) else not 0 <= int(c) < p)]
        if unknown:
            raise EstimationError(f"Term {tname!r} names columns that are not in X: {unknown}; columns are {names}.")
        idx = [names.index(c) if isinstance(c, str) else int(c) for c in cols]
        if len(idx) == 1 and lr_tests:
            chi2 = single[names[idx[0]]].lr_chi2
        else:
            chi2 = inf.drop_test(data, fit, idx)
        term_tests.append(TermTest(str(tname), tuple(names[i] for i in idx), len(idx), chi2,
                                   float(chdtrc(len(idx), chi2))))
    intercept = [j for j in range(p) if np.all(data.X[:, j] == 1)]
    model_test = None
    if intercept and p > 1:
        others = [j for j in range(p) if j != intercept[0]]
        chi2 = inf.drop_test(data, fit, others)
        model_test = TermTest("model", tuple(names[j] for j in others), len(others), chi2,
                              float(chdtrc(len(others), chi2)))
    nuisance = _nuisance(design, data, fit, vcov, p, z, ci) if data.has_eta else None
    k = len(coefs)
    return LogisticFit(
        design=design, coefficients=tuple(coefs), terms=tuple(term_tests), model_test=model_test,
        nuisance=nuisance, loglik=fit.loglik, n=data.n, n_direct=int(np.sum(g == 0)),
        n_params=p + int(data.has_eta), iterations=fit.iterations, converged=True, confidence=conf,
        ci_method=CI_NAMES[ci], vcov=vcov,
        average_prevalence=inf.average(data.X, fit.beta, vcov[:k, :k], z, data.offset), _data=data)


def _covariance(fit: lm.Fit, p: int, names) -> np.ndarray:
    free = list(range(p)) + ([p] if fit.eta_free else [])
    info = -fit.hess[np.ix_(free, free)]
    size = fit.hess.shape[0]
    try:
        np.linalg.cholesky(info)
        cov_free = np.linalg.inv(info)
        ok = np.all(np.isfinite(cov_free)) and np.all(np.diag(cov_free) > 0)
    except np.linalg.LinAlgError:
        ok = False
    if not ok:
        raise EstimationError(
            "The information matrix is singular at the estimate, so the coefficients are not identified "
            f"by these data ({', '.join(names)}). Drop a term or merge sparse categories.")
    cov = np.full((size, size), math.nan)
    cov[np.ix_(free, free)] = cov_free
    return cov


def _nuisance(design, data, fit, vcov, p, z, ci) -> Nuisance:
    name = lm.NUISANCE[design.model]
    est = float(fit.eta)
    se = float(math.sqrt(vcov[p, p])) if fit.eta_free else math.nan
    if ci == "profile":
        interval = inf.profile_interval(data, fit, p, se, z)
    else:
        interval = (max(0.0, est - z * se), min(1.0, est + z * se)) if fit.eta_free else (est, est)
    null = lm.NUISANCE_NULL.get(design.model)
    if null is None:
        return Nuisance(name, est, se, interval)
    zval = (est - null) / se if fit.eta_free else math.nan
    chi2 = inf.nuisance_test(data, fit, null)
    return Nuisance(name, est, se, interval, null, zval, chi2, float(chdtrc(1, chi2)))


def _survey_fit(design, data, fit, names, g, sample, conf, terms, keep=None) -> LogisticFit:
    """The design-based fit: sandwich covariance, Wald intervals and tests on the design df."""
    from dpdesk.mechanisms.rr.regression import weighted as sl

    p = len(fit.beta)
    free = list(range(p)) + ([p] if fit.eta_free else [])
    vcov = sl.sandwich(data, fit, sample, free, keep)
    df = sample.df
    t = sl.t_quantile(df, conf)
    coefs = []
    for j in range(p):
        b, s = float(fit.beta[j]), float(math.sqrt(vcov[j, j]))
        wald = (b - t * s, b + t * s)
        coefs.append(Coefficient(names[j], b, s, b / s, sl.t_p(b / s, df), wald, wald))
    term_tests = []
    for tname, cols in (terms or {}).items():
        unknown = [c for c in cols if (c not in names if isinstance(c, str) else not 0 <= int(c) < p)]
        if unknown:
            raise EstimationError(f"Term {tname!r} names columns that are not in X: {unknown}; columns are {names}.")
        idx = [names.index(c) if isinstance(c, str) else int(c) for c in cols]
        x2, pv = sl.wald_f(fit.beta, vcov, idx, df)
        term_tests.append(TermTest(str(tname), tuple(names[i] for i in idx), len(idx), x2, pv))
    intercept = [j for j in range(p) if np.all(data.X[:, j] == 1)]
    model_test = None
    if intercept and p > 1:
        others = [j for j in range(p) if j != intercept[0]]
        x2, pv = sl.wald_f(fit.beta, vcov, others, df)
        model_test = TermTest("model", tuple(names[j] for j in others), len(others), x2, pv)
    nuisance = None
    if data.has_eta:
        est = float(fit.eta)
        se = float(math.sqrt(vcov[p, p])) if fit.eta_free else math.nan
        interval = (max(0.0, est - t * se), min(1.0, est + t * se)) if fit.eta_free else (est, est)
        null = lm.NUISANCE_NULL.get(design.model)
        zval = (est - null) / se if null is not None and fit.eta_free else math.nan
        nuisance = Nuisance(lm.NUISANCE[design.model], est, se, interval, null, zval)
    return LogisticFit(
        design=design, coefficients=tuple(coefs), terms=tuple(term_tests), model_test=model_test,
        nuisance=nuisance, loglik=fit.loglik, n=data.n, n_direct=int(np.sum(g == 0)),
        n_params=p + int(data.has_eta), iterations=fit.iterations, converged=True, confidence=conf,
        ci_method=sl.CI_NAME, vcov=vcov, se_method=sl.SE_METHOD,
        average_prevalence=sl.average(data.X, fit.beta, vcov[:p, :p], t, data.offset, data.weights),
        _data=data, df=df, sample_design=sample)
