"""Plain-text tables of an RRlin fit and of RRcor's correlations (for the command line), APA numbers."""

from __future__ import annotations

import math

import numpy as np

from dpdesk.project.regression.rr_models import CorrelationResult, LinearResult
from dpdesk.project.regression.text import num, p_cell, pct


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for k, row in enumerate(rows):
        out.append("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _excluded(n_used: int, n_rows: int, excluded: dict[str, int], items=()) -> str:
    parts = [f"{k:,} no usable answer to {name}" if name in items else f"{k:,} no value of {name}"
             for name, k in excluded.items()]
    return f"{n_used:,} of {n_rows:,} rows were used" + (f"; {', '.join(parts)}." if parts else ".")


def linear_text(res: LinearResult, style=None) -> str:
    """Header, coefficient table (b, SE, z, p, CI), sigma, each item's prevalence, the rows used."""
    f = res.fit
    conf = round(100 * f.confidence)
    covariates = ", ".join(p.column + (f" (categorical, reference {p.reference})" if p.kind == "categorical" else "")
                           for p in res.predictors)
    lines = [f"Linear regression of {res.outcome} on randomized-response items (as RRreg's RRlin)",
             f"RR predictors (their true states, 0/1): {', '.join(res.items)}"
             + (f"; covariates: {covariates}" if covariates else ""), ""]
    rows = [["Term", "b", "SE", "z", "p", f"{conf}% CI"]]
    for c in f.coefficients:
        rows.append([c.name, num(c.estimate), num(c.se), num(c.z), p_cell(c.p), f"[{num(c.ci[0])}, {num(c.ci[1])}]"])
    lines += _table(rows)
    lines.append(f"b: change in {res.outcome} per unit (an RR item: having the attribute against not); SE: inverse "
                 f"observed information; z, p and intervals: Wald.")
    lines.append("")
    lines.append(f"Residual SD sigma = {num(f.sigma)} (SE {num(f.sigma_se)}; maximum likelihood).")
    for name, (est, se) in f.prevalence.items():
        lines.append(f"Prevalence of {name}: {pct(est, style)} (SE {pct(se, style)}).")
    lines.append(f"n = {f.n:,}, log-likelihood = {f.loglik:.3f}.")
    lines.append(_excluded(res.n_used, res.n_rows, res.excluded, res.items))
    lines += [f"Note: {n}" for n in f.notes]
    return "\n".join(lines)


def _cell(x, digits=2) -> str:
    return "" if x is None or not math.isfinite(x) else num(x, digits)


def _bootstrap_p(p: float, resamples: int) -> str:
    """A bootstrap p-value: below 2 / resamples (no resample crossed 0) it is ``< 2/B``, never a bare 0."""
    if not math.isfinite(p):
        return ""
    floor = 2 / resamples
    if p < floor:
        return "< " + f"{floor:.3f}".lstrip("0") if floor >= 0.001 else p_cell(0.0)  # p_cell(0): "< .001"
    return p_cell(p)


def correlation_text(res: CorrelationResult) -> str:
    """The k x k tables of corrected correlations, their bootstrap SEs and p-values."""
    f = res.fit
    names = list(f.names)
    lines = ["Correlations corrected for the randomization (as RRreg's RRcor)",
             "Variables: " + ", ".join(f"{n} ({res.kinds[n]})" for n in names), ""]

    def grid(title, m, fmt):
        rows = [[title] + names]
        for i, n in enumerate(names):
            rows.append([n] + ["1" if i == j and title == "r" else ("" if i == j else fmt(m[i, j]))
                               for j in range(len(names))])
        return _table(rows)

    lines += grid("r", np.asarray(f.r), _cell)
    if f.bootstrap:
        seed = 0 if res.seed is None else res.seed
        lines += ["", *grid("SE", np.asarray(f.se), lambda x: _cell(x, 3)), "",
                  *grid("p", np.asarray(f.p_value), lambda x: _bootstrap_p(x, f.bootstrap))]
        lines.append(f"SE: SD over {f.bootstrap:,} bootstrap resamples (seed {seed}); p: twice the share of resamples "
                     f"on the far side of 0 (\"< {_bootstrap_p(0.0, f.bootstrap)[2:]}\" when none crossed it).")
    else:
        lines.append("No SEs or p-values: no bootstrap resamples were asked for.")
    lines.append(_excluded(res.n_used, res.n_rows, res.excluded,
                           [k for k, v in res.kinds.items() if v == "rr item"]))
    lines += [f"Note: {n}" for n in f.notes]
    return "\n".join(lines)
