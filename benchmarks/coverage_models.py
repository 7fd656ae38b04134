"""Coverage of the 95% intervals of issue 30's models, by simulation (fixed seeds).

* ``rr.linear``: y = 1 + 1.0 s + 0.5 x + N(0, 1), s ~ Bernoulli(0.3) asked with the coin forced-response
  design (p_truth 0.5, p_yes = p_no = 0.25), x ~ N(0, 1); n in {500, 2000}. Intervals of the RR item's
  coefficient, x's coefficient and the prevalence (Wald, from the inverse observed information).
* ``rr.correlation``: s = 1{z1 > Phi^-1(0.7)} asked with Warner (p = 0.2), z = 0.6 z1 + 0.8 e, (z1, e) iid
  N(0, 1); the target is the point-biserial correlation of s and z (0.6 phi(0.524) / sqrt(0.21) = 0.454).
  Interval r +- 1.96 SE with the bootstrap SE (200 resamples), n in {500, 2000}.
* ``rr.logistic(..., random_intercept=)``: Warner p = 0.8, logit pi = -0.5 + 0.8 x + sigma u_j, sigma = 0.8,
  J clusters of 10-30 respondents, J in {30, 80}; Wald intervals of the slope and the log-scale Wald
  interval of the random SD (Laplace).
* ECWM (``rr.estimate``): p = 0.25, n per group in {200, 1000}, pi in {0.1, 0.3}: the default interval.

S datasets per cell (``--sims``; defaults 200 for the regressions and correlations, 4,000 for ECWM);
cell k seeded ``default_rng([SEED, k])``. Monte Carlo SE of a coverage near 95%: sqrt(0.95 x 0.05 / S)
(1.5 points for S = 200, 0.34 for S = 4,000). Fits the model refuses are counted and left out.
Writes benchmarks/results/coverage_models.md.  Run:  .venv/bin/python benchmarks/coverage_models.py
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import norm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dpdesk.errors import EstimationError  # noqa: E402
from dpdesk.mechanisms import rr  # noqa: E402
from provenance import stamp  # noqa: E402

SEED = 20261207
Z = 1.959963984540054
FR = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
WARNER = rr.design("warner", p=0.2)
WARNER_ML = rr.design("warner", p=0.8)


def answer(design, truth, rng):
    lam = design.matrix[1]
    return (rng.random(len(truth)) < np.where(truth, lam[1], lam[0])).astype(int)


def linear_cell(n, S, rng):
    hits = np.zeros(3)
    refused = 0
    for _ in range(S):
        s = rng.random(n) < 0.3
        x = rng.normal(size=n)
        y = 1 + 1.0 * s + 0.5 * x + rng.normal(size=n)
        try:
            f = rr.linear(y, np.column_stack([np.ones(n), x]), {"s": (FR, answer(FR, s, rng))})
        except EstimationError:
            refused += 1
            continue
        c = {k.name: k for k in f.coefficients}
        est, se = f.prevalence["s"]
        hits += [c["s"].ci[0] <= 1.0 <= c["s"].ci[1], c["x2"].ci[0] <= 0.5 <= c["x2"].ci[1],
                 abs(est - 0.3) <= Z * se]
    return hits / max(S - refused, 1), refused


RHO = 0.6 * norm.pdf(norm.ppf(0.7)) / math.sqrt(0.21)


def correlation_cell(n, S, rng):
    hit, refused = 0, 0
    for k in range(S):
        z1 = rng.normal(size=n)
        z = 0.6 * z1 + 0.8 * rng.normal(size=n)
        s = z1 > norm.ppf(0.7)
        res = rr.correlation({"s": (WARNER, answer(WARNER, s, rng)), "z": z}, bootstrap=200, rng=k)
        if not np.isfinite(res.r[0, 1]):
            refused += 1
            continue
        hit += abs(res.r[0, 1] - RHO) <= Z * res.se[0, 1]
    return hit / max(S - refused, 1), refused


def multilevel_cell(J, S, rng, sigma=0.8):
    hits = np.zeros(2)
    refused = 0
    for _ in range(S):
        sizes = rng.integers(10, 31, J)
        cl = np.repeat(np.arange(J), sizes)
        n = len(cl)
        x = rng.normal(size=n)
        eta = -0.5 + 0.8 * x + sigma * rng.normal(size=J)[cl]
        truth = rng.random(n) < 1 / (1 + np.exp(-eta))
        try:
            f = rr.logistic(WARNER_ML, answer(WARNER_ML, truth, rng), np.column_stack([np.ones(n), x]),
                            random_intercept=cl)
        except EstimationError:
            refused += 1
            continue
        lo, hi = f.random_sd[2]
        hits += [f.coefficients[1].ci[0] <= 0.8 <= f.coefficients[1].ci[1],
                 bool(lo <= sigma <= hi) if math.isfinite(hi) else False]
    return hits / max(S - refused, 1), refused


def ecwm_cell(n, pi, S, rng):
    d = rr.design("ecwm", p=0.25)
    hit = 0
    for _ in range(S):
        counts = []
        for pg in (0.25, 0.75):
            y = int(rng.binomial(n, pi * pg + (1 - pi) * (1 - pg)))
            counts.append([n - y, y])
        e = rr.estimate(d, counts)
        hit += e.ci[0] <= pi <= e.ci[1]
    return hit / S


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=200, help="datasets per regression/correlation cell")
    ap.add_argument("--ecwm-sims", type=int, default=4000)
    args = ap.parse_args(argv)
    S, SE = args.sims, args.ecwm_sims
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    k = 0
    rows = []

    def rng():
        nonlocal k
        k += 1
        return np.random.default_rng([SEED, k])

    for n in (500, 2000):
        cov, ref = linear_cell(n, S, rng())
        rows.append(("rr.linear", f"n = {n}", f"RR coefficient {100 * cov[0]:.1f}%, x {100 * cov[1]:.1f}%, "
                     f"prevalence {100 * cov[2]:.1f}%", S, ref))
        print(rows[-1], flush=True)
    for n in (500, 2000):
        cov, ref = correlation_cell(n, S, rng())
        rows.append(("rr.correlation", f"n = {n}", f"r +- 1.96 bootstrap SE {100 * cov:.1f}%", S, ref))
        print(rows[-1], flush=True)
    for J in (30, 80):
        cov, ref = multilevel_cell(J, S, rng())
        rows.append(("multilevel (Laplace)", f"J = {J} clusters of 10-30", f"slope {100 * cov[0]:.1f}%, random SD "
                     f"{100 * cov[1]:.1f}%", S, ref))
        print(rows[-1], flush=True)
    for n in (200, 1000):
        for pi in (0.1, 0.3):
            cov = ecwm_cell(n, pi, SE, rng())
            rows.append(("ECWM rr.estimate", f"n = {n} per group, pi = {pi}", f"default interval {100 * cov:.1f}%", SE, 0))
            print(rows[-1], flush=True)
    took = time.perf_counter() - t0
    lines = ["# coverage_models: coverage of the 95% intervals of the linear, correlation, multilevel and ECWM "
             "models", "", stamp("coverage_models"),
             f"- Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, Python "
             f"{platform.python_version()}",
             f"- Load (1, 5, 15 min) before: {', '.join(f'{v:.1f}' for v in load_before)}; "
             f"after: {', '.join(f'{v:.1f}' for v in os.getloadavg())}; {took:.0f} s in all", "",
             "Settings in the script's docstring. Monte Carlo SE of a coverage near 95%: "
             f"{100 * math.sqrt(0.95 * 0.05 / S):.1f} points for {S} datasets, "
             f"{100 * math.sqrt(0.95 * 0.05 / SE):.2f} for {SE}.", "",
             "| model | cell | coverage of the 95% intervals | datasets | refused |", "|---|---|---|---|---|"]
    lines += [f"| {m} | {c} | {v} | {s} | {r} |" for m, c, v, s, r in rows]
    out = Path(__file__).resolve().parent / "results" / "coverage_models.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
