"""Design-based randomized response (``rr.survey_estimate``, weighted ``rr.logistic``): speed and coverage.

Speed: 100,000 respondents in 2,000 PSUs (50 strata of 40 PSUs, unequal weights):
``rr.survey_estimate`` with the default interval, ``rr.survey_estimate_by`` over 5 domains,
and ``rr.logistic`` with 10 predictors and the sandwich SEs. Median of 5 runs after a warm-up.

Coverage of the default interval (Korn & Graubard's effective sample size, module
``dpdesk.mechanisms.rr.survey.estimate``) and of the t interval, on stratified cluster samples from a
fixed finite population: 4 strata of 400 PSUs of 20 people, prevalence differing by
stratum and by PSU (a random PSU effect, sd 0.6 on the logit scale: intra-cluster
correlation about 0.08), PSUs drawn without replacement within strata; the target is the
population prevalence. Two allocations, both with weights differing 1:4 between strata:
"unequal PSUs" (40, 30, 20, 10% of the PSUs sampled come from strata 1-4, 10 people per PSU:
with 20 PSUs the stratum with the largest weights has 2 PSUs and carries about half of the
variance, so the variance estimate rests on about 4 degrees of freedom) and "equal PSUs" (a
quarter of the PSUs from each stratum, 16, 12, 8 and 4 people per PSU). Designs: the coin forced
response, Warner p = 0.75, and the SLD p = (2/12, 10/12) with honesty t = 0.8 (groups of random
size). S samples per cell (default 1,000; Monte-Carlo SE of a coverage near 95%: 0.69 points).

Run:  .venv/bin/python benchmarks/survey.py [--sims 1000] [--speed]
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dpdesk.mechanisms import rr  # noqa: E402
from provenance import stamp  # noqa: E402

SEED = 20261201
OUT = ROOT / "benchmarks" / "results" / "survey.md"
DESIGNS = {
    "forced (coin)": rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
    "Warner p = 0.75": rr.design("warner", p=0.75),
    "SLD p = (2/12, 10/12), t = 0.8": rr.design("sld", p1=2 / 12, p2=10 / 12),
}
PSUS = (20, 40, 100)          # PSUs sampled: n = 200, 400, 1000
LOGITS = {0.05: -3.2, 0.2: -1.5, 0.5: 0.0}   # base logit of each prevalence level
H, PSUS_PER_STRATUM, PSU_SIZE = 4, 400, 20
ALLOCATIONS = {"unequal PSUs": (np.array([0.4, 0.3, 0.2, 0.1]), np.array([10, 10, 10, 10])),
               "equal PSUs": (np.array([0.25, 0.25, 0.25, 0.25]), np.array([16, 12, 8, 4]))}


def _median_time(f, runs=5):
    f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def speed() -> list[str]:
    rng = np.random.default_rng(SEED)
    n, m, strata = 100_000, 2_000, 50
    psu = np.sort(rng.integers(0, m, n))
    stratum = psu % strata
    w = rng.lognormal(0, 0.5, n) * (1 + stratum)
    d = rr.design("forced", p_truth=0.7, p_yes=0.15, p_no=0.15)
    X = np.column_stack([np.ones(n), rng.normal(size=(n, 9))])
    pi = 1 / (1 + np.exp(-(X @ np.r_[-1.0, np.full(9, 0.2)])))
    z = (rng.random(n) < 0.15 + 0.7 * (rng.random(n) < pi)).astype(int)
    by = rng.integers(0, 5, n)
    args = dict(weights=w, strata=stratum, clusters=psu)
    t_est = _median_time(lambda: rr.survey_estimate(d, z, **args))
    t_t = _median_time(lambda: rr.survey_estimate(d, z, ci="t", **args))
    t_by = _median_time(lambda: rr.survey_estimate_by(d, z, by, **args))
    t_reg = _median_time(lambda: rr.logistic(d, z, X, **args), runs=3)
    return [
        "| what | time (s) | target |", "|---|---:|---|",
        f"| `rr.survey_estimate`, default interval, 100,000 respondents, 2,000 PSUs, 50 strata | {t_est:.3f} | < 0.2 s |",
        f"| `rr.survey_estimate`, t interval | {t_t:.3f} | |",
        f"| `rr.survey_estimate_by`, 5 domains, covariances and tests | {t_by:.3f} | |",
        f"| `rr.logistic`, 100,000 x (intercept + 9 predictors) = 10 coefficients, sandwich SEs | {t_reg:.3f} | < 2 s |",
    ]


def population(base: float, rng):
    """A fixed finite population: stratum and PSU effects on the logit of the prevalence."""
    offsets = np.array([-0.6, -0.2, 0.2, 0.6])
    psu_logit = base + offsets[:, None] + rng.normal(0, 0.6, (H, PSUS_PER_STRATUM))
    p = 1 / (1 + np.exp(-psu_logit))
    states = rng.random((H, PSUS_PER_STRATUM, PSU_SIZE)) < p[..., None]
    return states


def sample(states, n_psus, rng, allocation):
    """Stratified two-stage sample: PSUs without replacement per stratum, then people per PSU."""
    share, take = ALLOCATIONS[allocation]
    alloc = np.maximum(2, np.round(share * n_psus).astype(int))
    rows = []
    for h in range(H):
        chosen = rng.choice(PSUS_PER_STRATUM, alloc[h], replace=False)
        w = PSUS_PER_STRATUM / alloc[h] * PSU_SIZE / take[h]
        for j in chosen:
            people = rng.choice(PSU_SIZE, take[h], replace=False)
            rows.append((np.full(take[h], h), np.full(take[h], h * PSUS_PER_STRATUM + j), np.full(take[h], w),
                         states[h, j, people]))
    h, psu, w, s = (np.concatenate(c) for c in zip(*rows))
    return h, psu, w, s


def respond(d, s, rng):
    n = len(s)
    if d.groups == 1:
        return (rng.random(n) < d.matrix[1][s.astype(int)]).astype(int), None
    g = rng.integers(1, 3, n)
    honest = rng.random(n) < 0.8
    state = np.where(s, np.where(honest, 1, 2), 0)
    lam = np.array([m[1] for m in d.matrices])[g - 1, state]
    return (rng.random(n) < lam).astype(int), g


def coverage(sims: int) -> list[str]:
    rows = ["| allocation | design | PSUs | n | prevalence | mean n_eff | mean deff | mean df (Satterthwaite) | "
            "default: coverage % | t: coverage % | default: median width | t: median width |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    worst: dict = {a: [] for a in ALLOCATIONS}
    populations = [population(base, np.random.default_rng([SEED, k])) for k, base in enumerate(LOGITS.values())]
    cells = itertools.product(enumerate(ALLOCATIONS), enumerate(populations), enumerate(DESIGNS.items()), PSUS)
    for (k_a, allocation), (k_p, states), (k_d, (name, d)), n_psus in cells:
        truth = float(states.mean())
        rng = np.random.default_rng([SEED, k_a, k_p, k_d, n_psus])
        hit_d = hit_t = 0
        wd, wt, neff, deff, dfs = [], [], [], [], []
        for _ in range(sims):
            h, psu, w, s = sample(states, n_psus, rng, allocation)
            z, g = respond(d, s, rng)
            e = rr.survey_estimate(d, z, weights=w, strata=h, clusters=psu, groups=g)
            t = rr.survey_estimate(d, z, weights=w, strata=h, clusters=psu, groups=g, ci="t")
            hit_d += e.ci[0] <= truth <= e.ci[1]
            hit_t += t.ci[0] <= truth <= t.ci[1]
            wd.append(e.ci[1] - e.ci[0])
            wt.append(t.ci[1] - t.ci[0])
            neff.append(e.n_effective)
            deff.append(e.deff)
            dfs.append(e.df_effective)
        cov_d, cov_t = 100 * hit_d / sims, 100 * hit_t / sims
        mean_neff = float(np.nanmean(neff))
        if mean_neff >= 100:
            worst[allocation].append((cov_d, name, n_psus, truth))
        rows.append(f"| {allocation} | {name} | {n_psus} | {len(z)} | {truth:.3f} | {mean_neff:.0f} | "
                    f"{np.nanmean(deff):.2f} | {np.mean(dfs):.1f} | {cov_d:.1f} | {cov_t:.1f} | "
                    f"{np.median(wd):.3f} | {np.median(wt):.3f} |")
        print(rows[-1], flush=True)
    summary = [""]
    for allocation, cells in worst.items():
        if not cells:
            continue
        low = min(cells)
        below = [c for c in cells if c[0] < 93.5]
        summary.append(f"- {allocation}: lowest coverage of the default interval where the mean effective n is at "
                       f"least 100: {low[0]:.1f}% ({low[1]}, {low[2]} PSUs, prevalence {low[3]:.3f}); "
                       f"{len(below)} of {len(cells)} cells below 93.5%"
                       + (f": {', '.join(f'{c[1]} with {c[2]} PSUs at {c[3]:.3f} ({c[0]:.1f}%)' for c in below)}."
                          if below else "."))
    return rows + summary


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--speed", action="store_true", help="speed only")
    args = ap.parse_args()
    started = time.time()
    lines = ["# Design-based randomized response: speed and coverage", "",
             stamp("survey").rstrip(), f"- Machine: {platform.machine()}, {os.cpu_count()} CPUs, "
             f"{platform.system()} {platform.release()}, Python {platform.python_version()}, numpy {np.__version__}",
             "- Command: `.venv/bin/python benchmarks/survey.py" + (" --speed" if args.speed else
                                                                     f" --sims {args.sims}") + "`", "",
             "## Speed", "", "Median of 5 runs (3 for the regression) on a shared, loaded machine.", ""]
    lines += speed()
    if not args.speed:
        lines += ["", "## Coverage of 95% intervals on stratified cluster samples", "",
                  "Coverage of the default interval" + __doc__.split("Coverage of the default interval", 1)[1]
                  .split("Run:")[0].rstrip().replace("\n", " "),
                  "", f"{args.sims} samples per cell.", ""]
        lines += coverage(args.sims)
    lines += ["", f"Total time: {time.time() - started:.0f} s."]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
